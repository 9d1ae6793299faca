// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"
#include "LocatedTableModel.h"

#include <QAbstractTableModel>
#include <vector>

namespace browse {

// Receipts of a KeyspaceStore: those of one SKU (the SKU view's lower table) or all of the
// store (the order lookup, whose store holds only that order's receipts). The TTL column
// counts down between refreshes from the absolute expiry. Anomalous receipts sort first
// whatever the column (one odd receipt among hundreds is what a reader is looking for), and
// receipts about to expire are flagged in the TTL columns.
class ReceiptTableModel : public LocatedTableModel
{
    Q_OBJECT
public:
    // Slot and Node exist on a cluster only (LocatedTableModel).
    enum Column { Sku, Order, Remaining, Ttl, ExpiresAt, Kind, Anomalies, Slot, Node, ColumnCount };

    // The store is not owned and must outlive the model.
    explicit ReceiptTableModel(const KeyspaceStore &store, QObject *parent = nullptr);

    // Shows the receipts of one SKU (KeyspaceStore::None: none).
    void showSku(uint32_t sku);
    // Shows every receipt in the store.
    void showAll();
    uint32_t sku() const { return m_sku; }

    // Receipts expiring within this window are flagged (default DefaultExpiryWarningMs).
    void setExpiryWarningMs(qint64 ms);
    qint64 expiryWarningMs() const { return m_warnWithinMs; }
    // Anomalous receipts before the others, in either sort order (default on).
    void setAnomaliesFirst(bool on);

    // Rows whose receipt has not expired by the clock (a refresh removes expired ones later):
    // what a header counting "N receipts" over this table must say.
    int liveCount(qint64 nowMs) const;
    int expiringSoonCount(qint64 nowMs) const;

    // Takes in store changes (receipts added, refreshed, deleted). Call it coalesced.
    void sync();
    void tick();
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    uint32_t receiptAt(int row) const { return m_rows[size_t(row)]; }
    const std::vector<uint32_t> &receipts() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    // data() for one role: DisplayRole and ExportRole, column by column.
    QVariant displayData(int column, uint32_t receipt) const;
    QVariant exportData(int column, uint32_t receipt) const;
    std::vector<uint32_t> collect() const;
    bool less(uint32_t a, uint32_t b) const;
    void rebuild();

    const KeyspaceStore &m_store;
    std::vector<uint32_t> m_rows;
    uint32_t m_sku = KeyspaceStore::None;
    bool m_all = false;
    quint64 m_epoch = 0, m_revision = 0;
    qint64 m_warnWithinMs;
    bool m_anomaliesFirst = true;
    int m_sortColumn = Order;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace browse
