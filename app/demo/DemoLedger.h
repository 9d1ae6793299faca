// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DemoPlan.h"
#include "core/Result.h"
#include "core/Wording.h"
#include "redis/CommandSender.h"

#include <QMap>

namespace demo {

// What plantDemoLedger planted: ledger rows written, and how many findings of each
// reconcile class (in_line, release_candidate, ...) the ledger and the keys it added make.
struct DemoLedgerReport
{
    int rows = 0;
    QMap<QString, int> expected;
};

// A SQLite order ledger beside the demo database, so `inventory-cli reconcile` (and later the
// GUI) has every class of divergence to find. On a database seedDemo filled with `options`, it
// adds what the seed lacks (a SKU of its own, two receipts as inventory_deduct_v2 writes them,
// recording their quantity, one of them two hours old, and two release keys) and
// writes `path` (table orders: order_id, sku, quantity, state, created_at): every receipted
// order committed with its quantity, but one failed, one cancelled and one pending; the v2
// order with another quantity; two committed orders that never reached Redis; a failed order
// released already and a committed one released by mistake. Refuses an existing file; the
// file is created mode 0600.
// Blocking (a local event loop per round trip): for the demo's start and tests.
core::Result<DemoLedgerReport, core::Sentence>
plantDemoLedger(redis::CommandSender &sender, const SeedOptions &options, const QString &path);

} // namespace demo
