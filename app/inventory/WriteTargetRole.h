// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "redis/Reply.h"

#include <QString>

namespace inventory {

// Whether the node a deduction is about to write to is a primary, from its INFO replication
// read just before. A writable replica (replica-read-only no) accepts the write, and the next
// resync from its primary silently drops it: the console must know it writes to a primary, and
// a role it could not read is no proof of one.
struct WriteTargetRole
{
    enum class Kind { Primary, Replica, Unreadable };
    Kind kind = Kind::Unreadable;
    QString primary;    // Replica: "host:port" of the primary it follows, as it reports it
    core::Sentence why; // Unreadable: what went wrong, in words

    bool writable() const { return kind == Kind::Primary; }
    // Why nothing is sent, for NotSent's transportError; empty for a primary.
    core::Sentence refusal() const;
};

// From the reply of INFO replication.
WriteTargetRole writeTargetRole(const redis::ReplyResult &infoReplication);

} // namespace inventory
