// SPDX-License-Identifier: GPL-3.0-or-later
#include "StoreSkuDirectory.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace browse {

bool StoreSkuDirectory::hasStock(QByteArrayView sku) const
{
    const uint32_t s = m_store.findSku(sku);
    return s != KeyspaceStore::None && m_store.stockPresent(s);
}

QList<QByteArray> StoreSkuDirectory::nearest(QByteArrayView sku, int count) const
{
    // One pass, keeping the best few: a million SKUs cost a few hundred milliseconds at
    // worst, and this runs once per missing SKU, not per keystroke on a known one.
    std::vector<std::pair<int, uint32_t>> best;
    for (uint32_t s = 0; s < m_store.skuCount(); ++s) {
        if (!m_store.stockPresent(s))
            continue;
        const int d = inventory::skuDistance(sku, m_store.skuName(s));
        if (int(best.size()) == count && d >= best.back().first)
            continue;
        const auto at = std::upper_bound(best.begin(), best.end(), std::make_pair(d, s));
        best.insert(at, {d, s});
        if (int(best.size()) > count)
            best.pop_back();
    }
    QList<QByteArray> out;
    for (const auto &b : best)
        out << m_store.skuName(b.second).toByteArray();
    return out;
}

QStringList StoreSkuDirectory::anomalies(QByteArrayView sku) const
{
    QStringList out;
    const uint32_t s = m_store.findSku(sku);
    if (s == KeyspaceStore::None)
        return out;
    uint8_t bits = m_store.skuAnomalies(s);
    std::array<int, AnomalyKinds> receipts{};
    for (uint32_t r = m_store.firstReceiptOf(s); r != KeyspaceStore::None;
         r = m_store.nextReceipt(r)) {
        if (!m_store.receiptAlive(r))
            continue;
        const uint8_t rb = m_store.receiptAnomalies(r);
        bits |= rb;
        for (int k = 0; k < AnomalyKinds; ++k)
            if (rb & anomalyAt(k))
                ++receipts[size_t(k)];
    }
    for (int k = 0; k < AnomalyKinds; ++k) {
        const Anomaly a = anomalyAt(k);
        if (!(bits & a))
            continue;
        out << (receipts[size_t(k)] > 0 ? QStringLiteral("%1 (%2 receipts)")
                                              .arg(anomalyName(a))
                                              .arg(receipts[size_t(k)])
                                        : anomalyName(a));
    }
    return out;
}

} // namespace browse
