// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "InventoryScan.h"
#include "Summary.h"

#include <QJsonObject>
#include <QTextStream>

class QAbstractItemModel;

namespace browse {

// What `inventory-cli keys` prints; the logic lives here so the command file only parses
// arguments.
struct ScanFacts
{
    qint64 keysSeen = 0;
    qint64 dbSize = -1;
    qint64 elapsedMs = 0;
    double fractionDone = 0; // of the keyspace the cursor walked
    bool complete = false;
    QString error;
    InventoryLoader::Stats stats;

    static ScanFacts of(const InventoryScan &scan);
};

// Totals, anomaly counts and elapsed time, one "label  value" per line.
QString summaryText(const InventorySummary &summary, const ScanFacts &facts);
QJsonObject summaryJson(const InventorySummary &summary, const ScanFacts &facts);
// The same figures as summaryJson, as CSV: a "name,value" header, then one row per figure
// (anomaly counts as anomalies.<kind>).
QByteArray summaryCsv(const InventorySummary &summary, const ScanFacts &facts);

// A model as an aligned text table (display text: escaped, truncated).
void writeTable(QTextStream &out, const QAbstractItemModel &model);

} // namespace browse
