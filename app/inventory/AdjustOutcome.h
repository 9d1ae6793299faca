// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RepairOutcome.h"

namespace inventory {

// The reply of FCALL inventory_adjust_v1 for a call with `delta`, row by row
// (docs/contracts.md): {1, stock after} adjusted (within 0..1,000,000,000 and reachable by
// the delta); {2, stock or -1} already applied; {0, stock} out of bounds (a stock the delta
// would take out of 0..1,000,000,000); {-2, 0} stock missing; errors as repairErrorOutcome.
// Anything else could not be read: MayHaveWritten with the anomaly in words.
RepairOutcome decodeAdjustReply(const redis::ReplyResult &result, qint64 delta);

} // namespace inventory
