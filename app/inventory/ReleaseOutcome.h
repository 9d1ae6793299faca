// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RepairOutcome.h"

namespace inventory {

// The reply of FCALL inventory_release_v1 for a call with `quantity`, row by row
// (docs/contracts.md): {1, stock after} released (stock after ≥ quantity); {2, stock or -1}
// already released; {-4, 0} no receipt; {-3, recorded quantity} (1..1,000,000, not this
// call's); {-2, 0} stock missing; errors as repairErrorOutcome. Anything else could not be
// read: MayHaveWritten with the anomaly in words, never a default.
RepairOutcome decodeReleaseReply(const redis::ReplyResult &result, qint64 quantity);

} // namespace inventory
