// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Subcommand.h"

namespace cli {

// inventory-cli keys: scans the stock and receipt families and prints SKUs with stock, TTLs
// and receipt counts, or (--summary) only totals, anomaly counts and the elapsed time.
// Registers itself with the dispatcher; declared here for tests and callers.
int runKeys(Context &context);

} // namespace cli
