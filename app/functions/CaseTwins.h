// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChangePlan.h"

namespace functions {

// Redis 7.0 keeps each library's functions in a case-sensitive table but every library's
// functions in one case-insensitive table. A library that registers `f` and `F` loads (the
// second name is silently missing from the shared table), but unlinking it later, by FUNCTION
// LOAD REPLACE, FUNCTION DELETE or FUNCTION RESTORE REPLACE, deletes that name twice and the
// server dies on an assertion (reproduced on 7.0.15). FUNCTION FLUSH and a FLUSH restore drop
// the whole table without unlinking, and survive.

// The groups of function names of one library that differ only in case: {"F, f"}.
QStringList caseTwins(const redis::LibraryInfo &library);

// Why `spec` must not be sent to `node` because of such a library: one already loaded that the
// change would unlink, or one inside the dump a restore would install (the dump is read, not
// trusted to match the backup's list). Empty when the change is safe in this respect.
core::Sentences caseTwinRefusals(const ChangeSpec &spec, const NodeState &node);

} // namespace functions
