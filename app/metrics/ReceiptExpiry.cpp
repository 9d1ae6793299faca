// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptExpiry.h"

#include "browse/KeyspaceStore.h"

#include <QString>

namespace metrics {

QString ReceiptExpiry::label(Bucket b)
{
    switch (b) {
    case Expired:
        return QStringLiteral("expired");
    case Minute:
        return QStringLiteral("≤ 1 min");
    case Hour:
        return QStringLiteral("1 min–1 h");
    case Day:
        return QStringLiteral("1 h–1 day");
    case Week:
        return QStringLiteral("1 day–1 wk");
    case Later:
        return QStringLiteral("over 1 wk");
    case NoTtl:
        return QStringLiteral("no TTL");
    case BucketCount:
        break;
    }
    return {};
}

qint64 ReceiptExpiry::within(Bucket b) const
{
    qint64 n = 0;
    for (int i = Minute; i <= b && i <= Week; ++i)
        n += counts[size_t(i)];
    return n;
}

ReceiptExpiry receiptExpiry(const browse::KeyspaceStore &store, qint64 nowMs)
{
    constexpr qint64 minute = 60'000, hour = 60 * minute, day = 24 * hour, week = 7 * day;
    ReceiptExpiry e;
    e.nowMs = nowMs;
    for (uint32_t r = 0; r < store.receiptRows(); ++r) {
        if (!store.receiptAlive(r))
            continue;
        ++e.receipts;
        const qint64 at = store.receiptExpiryMs(r);
        const qint64 left = at - nowMs;
        const auto b = at == browse::NoExpiry ? ReceiptExpiry::NoTtl
                       : left <= 0            ? ReceiptExpiry::Expired
                       : left <= minute       ? ReceiptExpiry::Minute
                       : left <= hour         ? ReceiptExpiry::Hour
                       : left <= day          ? ReceiptExpiry::Day
                       : left <= week         ? ReceiptExpiry::Week
                                              : ReceiptExpiry::Later;
        ++e.counts[size_t(b)];
    }
    return e;
}

} // namespace metrics
