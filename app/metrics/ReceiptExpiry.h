// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <array>

namespace browse {
class KeyspaceStore;
}

namespace metrics {

// The receipts of the last scan by when they expire, counted from `nowMs`: while a receipt
// lives, a retry of its order is answered "already applied"; once it is gone, a retry deducts
// again. Each receipt is in one bucket.
struct ReceiptExpiry
{
    enum Bucket { Expired, Minute, Hour, Day, Week, Later, NoTtl, BucketCount };
    qint64 nowMs = 0;
    qint64 receipts = 0;
    std::array<qint64, BucketCount> counts{};

    static QString label(Bucket b); // "≤ 1 min", "1 min–1 h", ... (no "<": charts read HTML)
    // Receipts expiring within the bucket's end: Minute, Hour, Day, Week cumulative.
    qint64 within(Bucket b) const;
};

ReceiptExpiry receiptExpiry(const browse::KeyspaceStore &store, qint64 nowMs);

} // namespace metrics
