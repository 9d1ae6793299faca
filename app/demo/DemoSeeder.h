// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DemoPlan.h"
#include "core/Result.h"
#include "core/Wording.h"
#include "redis/CommandSender.h"

#include <functional>

namespace demo {

// What seeding did, counted from the server's own replies.
struct SeedReport
{
    QByteArray libraryName; // as FUNCTION LOAD answered
    int stockKeys = 0;      // stock keys left (the discontinued SKU's is deleted)
    int receipts = 0;       // FCALLs that answered {1, remaining}: one receipt each
    int duplicates = 0;     // {2, recorded}: a retried order, nothing changed
    int insufficient = 0;   // {0, stock}
    int missingStock = 0;   // {-2, 0}
    qint64 keyCount = -1;   // DBSIZE at the end
    int roundTrips = 0;
    QList<Anomaly> anomalies;
};

using SeedResult = core::Result<SeedReport, core::Sentence>;

// Loads inventory_lib_v1 (FUNCTION LOAD REPLACE, from the core's resources) and fills an empty
// database with the demo plan in a handful of pipelined round trips. Refuses a database that
// already holds keys, so pointing it at a real server cannot damage anything. `done` runs on
// the context's thread, never after the context is destroyed.
void seedDemo(redis::CommandSender &sender, QObject *context, const SeedOptions &options,
              std::function<void(const SeedResult &)> done);

// The same, waiting in a local event loop: for the command line and tests.
SeedResult seedDemoBlocking(redis::CommandSender &sender, const SeedOptions &options = {});

// The library source shipped in the core (":/functions/inventory_lib_v1.lua").
QByteArray inventoryLibrarySource();

} // namespace demo
