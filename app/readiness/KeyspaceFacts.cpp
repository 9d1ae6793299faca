// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyspaceFacts.h"

#include "browse/KeyspaceStore.h"

namespace readiness {

namespace {
constexpr int MaxExamples = 3;

void note(QStringList &examples, const QByteArray &key)
{
    if (examples.size() < MaxExamples)
        examples << QString::fromUtf8(key);
}
} // namespace

KeyspaceFacts KeyspaceFacts::of(const browse::KeyspaceStore &store, qint64 nowMs,
                                qint64 retryWindowMs, bool complete, const QString &error)
{
    KeyspaceFacts f;
    f.scanned = true;
    f.complete = complete;
    f.error = error;
    f.retryWindowMs = retryWindowMs;
    for (uint32_t r = 0; r < store.receiptRows(); ++r) {
        if (!store.receiptAlive(r))
            continue;
        ++f.receipts;
        const qint64 expiry = store.receiptExpiryMs(r);
        if (expiry == browse::NoExpiry) {
            ++f.receiptsWithoutTtl;
            note(f.withoutTtlExamples, store.receiptKey(r));
            continue;
        }
        const qint64 left = qMax<qint64>(0, expiry - nowMs);
        if (f.shortestTtlMs < 0 || left < f.shortestTtlMs)
            f.shortestTtlMs = left;
        if (left < retryWindowMs) {
            ++f.receiptsWithinWindow;
            note(f.withinWindowExamples, store.receiptKey(r));
        }
    }
    for (uint32_t s = 0; s < store.skuCount(); ++s) {
        if (!store.stockPresent(s))
            continue;
        ++f.stockKeys;
        const uint8_t a = store.skuAnomalies(s);
        if (a & browse::StockNotInteger) {
            ++f.stockNotCanonical;
            note(f.notCanonicalExamples, store.stockKey(s));
        }
        if (a & browse::StockNegative) {
            ++f.stockNegative;
            note(f.negativeExamples, store.stockKey(s));
        }
    }
    return f;
}

} // namespace readiness
