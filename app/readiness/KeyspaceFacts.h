// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace browse {
class KeyspaceStore;
}

namespace readiness {

// What the receipt and stock rules need from a key scan, counted in one pass over the
// store the key browser (or `inventory-cli audit`) filled: the audit never scans on its own.
struct KeyspaceFacts
{
    bool scanned = false; // false: no scan has run yet (the GUI before the Keys tab scanned)
    bool complete = false;
    QString error; // why the scan did not finish
    QString scope; // empty: every SKU; else what the scan was limited to ("SKUs matching 'a*'")

    qint64 retryWindowMs = 0; // what receiptsWithinWindow was counted against
    qint64 receipts = 0;
    qint64 receiptsWithoutTtl = 0;
    qint64 receiptsWithinWindow = 0; // remaining TTL below the retry window
    qint64 shortestTtlMs = -1;       // -1: no receipt has a TTL
    qint64 stockKeys = 0;
    qint64 stockNotCanonical = 0; // not a canonical integer (or not a string, or too large)
    qint64 stockNegative = 0;
    // A few keys of each kind, so that the finding names where to look.
    QStringList withoutTtlExamples, withinWindowExamples, notCanonicalExamples, negativeExamples;

    static KeyspaceFacts of(const browse::KeyspaceStore &store, qint64 nowMs, qint64 retryWindowMs,
                            bool complete, const QString &error);
};

} // namespace readiness
