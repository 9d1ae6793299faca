// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace ui {

class ReconcileFindingsModel;
class SkuBalanceModel;

// The findings as CSV, one row each: order_id,sku,quantity,class,divergent,since_run,sentence
// (cells made safe for a spreadsheet, core::csvCell).
QByteArray findingsCsv(const ReconcileFindingsModel &findings);

// A report for a ticket: the summary, the divergent findings grouped by class, the releases,
// the in-line count and the per-SKU table.
QByteArray reconcileMarkdown(const QString &summary, const ReconcileFindingsModel &findings,
                             const SkuBalanceModel &skus);

} // namespace ui
