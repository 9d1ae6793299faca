// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli release: give back what one order's deduction took, once (issue 32). The
// sequence is RepairVerb's, shared with adjust.
#include "RepairVerb.h"

namespace cli {
namespace {

int runRelease(Context &context)
{
    return runRepair(
        context, inventory::RepairKind::Release,
        QStringLiteral(
            "Releases one order's deduction, once, and prints the outcome.\n"
            "  FCALL inventory_release_v1 3 <stock key> <receipt key> <release key> <quantity> "
            "<ttl>\n"
            "Only an order whose receipt exists is released (the receipt proves the deduction);\n"
            "the receipt is left as it is, so a retry of the deduction still changes nothing.\n"
            "The release key (default rel:{<sku>}:<order>) makes a second release answer\n"
            "'already released' while it lives. Keys come from the profile's templates. The\n"
            "attempt, with the receipt read just before, is appended to the audit log, fsynced,\n"
            "before the call. A production session is read-only unless --confirm names it.\n"));
}

const Registration releaseRegistration{"release",
                                       "Release one order's deduction once (FCALL "
                                       "inventory_release_v1) and print the outcome",
                                       &runRelease};

} // namespace
} // namespace cli
