// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Subcommand.h"

namespace cli {

// inventory-cli order ORDER_ID: every receipt of one order across SKUs, each with a sentence a
// support person can read out. Registers itself with the dispatcher.
int runOrder(Context &context);

} // namespace cli
