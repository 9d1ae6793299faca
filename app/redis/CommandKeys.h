// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RespCodec.h"

namespace redis {

// The keys a command names, for routing it to the node that owns their slot. Empty for
// keyless commands and for commands this table does not know: those go to any primary,
// and a MOVED reply corrects the choice, so an unknown command costs a redirect, not a
// wrong answer.
QList<QByteArray> commandKeys(const Command &command);

// The one slot all of a command's keys hash to; -1 for a keyless command. Keys in different
// slots cannot run on a cluster: `crossSlot` then names them, and nothing must be sent.
struct CommandSlot
{
    int slot = -1;
    QString crossSlot;
};
CommandSlot commandSlot(const Command &command);

} // namespace redis
