// SPDX-License-Identifier: GPL-3.0-or-later
#include "Summary.h"

#include "Values.h"

namespace browse {

InventorySummary summarize(const KeyspaceStore &store)
{
    InventorySummary s;
    for (uint32_t k = 0; k < store.skuCount(); ++k) {
        const bool present = store.stockPresent(k);
        if (!present && store.receiptCountOf(k) == 0)
            continue;
        ++s.skus;
        if (present)
            ++s.stockKeys;
        if (store.stockState(k) == StockState::Integer && store.stockValue(k) >= 0
            && store.stockValue(k) <= MaxStock)
            s.stockTotal += store.stockValue(k);
        const uint8_t a = store.skuAnomalies(k);
        for (int i = 0; i < AnomalyKinds; ++i)
            s.anomalies[size_t(i)] += (a & anomalyAt(i)) ? 1 : 0;
    }
    for (uint32_t r = 0; r < store.receiptRows(); ++r) {
        if (!store.receiptAlive(r))
            continue;
        ++s.receipts;
        const uint8_t a = store.receiptAnomalies(r);
        for (int i = 0; i < AnomalyKinds; ++i)
            s.anomalies[size_t(i)] += (a & anomalyAt(i)) ? 1 : 0;
    }
    return s;
}

} // namespace browse
