// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"
#include "inventory/SkuDirectory.h"

namespace browse {

// The SkuDirectory of a key scan's store: the SKU view's data, read where the deduction panel
// needs it. The store must outlive this object; `scanned` says whether a scan has run.
class StoreSkuDirectory : public inventory::SkuDirectory
{
public:
    explicit StoreSkuDirectory(const KeyspaceStore &store)
        : m_store(store)
    {}

    void setScanned(bool scanned) { m_scanned = scanned; }

    bool hasScan() const override { return m_scanned; }
    bool hasStock(QByteArrayView sku) const override;
    QList<QByteArray> nearest(QByteArrayView sku, int count) const override;
    QStringList anomalies(QByteArrayView sku) const override;

private:
    const KeyspaceStore &m_store;
    bool m_scanned = false;
};

} // namespace browse
