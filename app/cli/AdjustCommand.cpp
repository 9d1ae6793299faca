// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli adjust: one manual correction of a stock, once per adjustment id (issue 32).
// The sequence is RepairVerb's, shared with release.
#include "RepairVerb.h"

namespace cli {
namespace {

int runAdjust(Context &context)
{
    return runRepair(
        context, inventory::RepairKind::Adjust,
        QStringLiteral(
            "Corrects one stock by a delta, once per adjustment id, and prints the outcome.\n"
            "  FCALL inventory_adjust_v1 2 <stock key> <adjustment key> <delta> <ttl>\n"
            "The stock never goes below 0 or above 1000000000, and is never created. The\n"
            "adjustment key (default adj:{<sku>}:<id>) records the delta and the server time,\n"
            "so a second call with the same id answers 'already applied' while it lives. The\n"
            "reason is recorded in the audit log with the attempt, fsynced, before the call.\n"
            "A production session is read-only unless --confirm names it.\n"));
}

const Registration adjustRegistration{"adjust",
                                      "Correct a stock by a delta once per adjustment id (FCALL "
                                      "inventory_adjust_v1), with a reason for the audit log",
                                      &runAdjust};

} // namespace
} // namespace cli
