// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `inventory-cli release` and `inventory-cli adjust` share (issue 32): their options, the
// sequence through the write gate (as `deduct` goes), the settling of a lost reply and the
// exit codes. Each verb's file registers it with its own words.

#include "ConnectionArgs.h"
#include "inventory/Repairer.h"

namespace cli {

// Exit codes beyond the shared ones (Subcommand.h), as `deduct` numbers them.
enum RepairExit {
    RepairExitRefused = 4,      // the contract refused it: nothing written
    RepairExitStockMissing = 5, // the stock key does not exist: nothing written
    RepairExitRejected = 6,     // the server refused the call before any write
    RepairExitUnknown = 7,      // outcome unknown or may have written: never resent
};

// --confirm, --ttl and --audit-log, as `release`, `adjust` and `reconcile --apply` take them.
// `condition` ("With --apply") leads each help line where they count only beside another.
struct RepairWriteOptions
{
    explicit RepairWriteOptions(const QString &condition = {});
    QCommandLineOption confirm;
    QCommandLineOption ttl;
    QCommandLineOption audit;
};

// The exit codes, for --help.
QString repairExitCodesHelp(inventory::RepairKind kind);

int runRepair(Context &context, inventory::RepairKind kind, const QString &description);

// A lost reply is settled by reading the record key on a connection of its own: the one the
// call went out on may be stuck behind it (a paused or busy server) until it times out.
inventory::RecordReading settleOnFreshConnection(const profiles::ConnectionProfile &profile,
                                                 const QString &password,
                                                 const inventory::RepairPlan &plan,
                                                 Context &context);

} // namespace cli
