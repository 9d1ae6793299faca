// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"

#include "IndexTableModel.h"

namespace browse {

// One row per SKU of a KeyspaceStore: SKU, stock, stock TTL, receipts, soonest receipt
// expiry, anomalies. Rows are an index vector over the store (sorted with std::sort, filtered
// by rebuilding it), so a million SKUs cost four bytes of model each. TTLs are computed from
// absolute expiries when painted: tick() makes them count down with no round trip.
class SkuTableModel : public IndexTableModel
{
    Q_OBJECT
public:
    // Slot and Node exist on a cluster only (LocatedTableModel).
    enum Column {
        Sku,
        Stock,
        StockTtl,
        Receipts,
        SoonestExpiry,
        Anomalies,
        Slot,
        Node,
        ColumnCount
    };

    // The store is not owned and must outlive the model.
    explicit SkuTableModel(const KeyspaceStore &store, QObject *parent = nullptr);

    // SKU filter: a Redis glob when it has * ? or [, else a substring; empty: all.
    void setFilter(const QByteArray &skuFilter, bool anomaliesOnly);
    // Whether setFilter read the filter as a glob.
    bool filterIsGlob() const { return m_filterIsGlob; }
    QByteArray skuFilter() const { return m_filter; }
    bool anomaliesOnly() const { return m_anomaliesOnly; }

    // TTL columns changed because time passed.
    void tick();
    // A soonest receipt expiry within this window is flagged (ExpiringSoonRole).
    void setExpiryWarningMs(qint64 ms);

    uint32_t skuAt(int row) const { return idAt(row); }
    int rowOfSku(uint32_t sku) const { return rowOf(sku); }
    // The anomaly bits of the SKU and of all its receipts.
    uint8_t rowAnomalies(uint32_t sku) const;

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    uint32_t sourceRows() const override { return m_store.skuCount(); }
    uint32_t sourceCapacity() const override { return m_store.skuCapacity(); }
    quint64 sourceEpoch() const override { return m_store.epoch(); }
    quint64 sourceRevision() const override { return m_store.revision(); }
    bool accepts(uint32_t sku) const override;
    int naturalCompare(uint32_t a, uint32_t b) const override;
    NaturalKey naturalKeyOf(uint32_t id) const override { return naturalKey(m_store.skuName(id)); }
    int naturalColumn() const override { return Sku; }
    quint64 sortKey(uint32_t sku, int column) const override;

private:
    // data() for one role: DisplayRole and ExportRole, column by column.
    QVariant displayData(int column, uint32_t sku) const;
    QVariant exportData(int column, uint32_t sku) const;

    const KeyspaceStore &m_store;
    QByteArray m_filter;
    bool m_filterIsGlob = false;
    bool m_anomaliesOnly = false;
    qint64 m_warnWithinMs;
};

} // namespace browse
