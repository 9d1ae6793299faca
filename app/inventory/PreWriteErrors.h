// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace inventory {

// Whether an error reply to a deduction call is known to come before any write: one of the
// contracts' own refusals (they check everything before the first write), or an error Redis
// gives before the function or script starts (the call's own ACL, NOSCRIPT, BUSY, READONLY,
// OOM, a redirection, a wrong key count). Anything else, such as an error raised by a
// redis.call inside the function ("... script: inventory_deduct_v1, on @user_function:70."),
// may come after a write: a Lua error does not undo what ran before it.
bool isPreWriteRefusal(const QString &message);

} // namespace inventory
