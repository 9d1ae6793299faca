// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"
#include "LocatedTableModel.h"

#include <QAbstractTableModel>
#include <vector>

namespace browse {

// Every anomaly of a KeyspaceStore, one row per (class, key): class, key, why it matters.
// Rebuilt on sync (a pass over the store: milliseconds for a million keys).
class AnomalyModel : public LocatedTableModel
{
    Q_OBJECT
public:
    // Slot and Node exist on a cluster only (LocatedTableModel).
    enum Column { Kind, Key, Detail, Slot, Node, ColumnCount };

    explicit AnomalyModel(const KeyspaceStore &store, QObject *parent = nullptr);

    void sync();
    // Only this class (0: every class).
    void setKindFilter(uint8_t anomalyBits);

    struct Entry
    {
        Anomaly kind;
        bool receipt; // id is a receipt, else a SKU
        uint32_t id;
    };
    const Entry &entryAt(int row) const { return m_rows[size_t(row)]; }
    // The SKU a row is about (for "show in the SKU view").
    uint32_t skuOf(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    std::vector<Entry> collect() const;

    const KeyspaceStore &m_store;
    std::vector<Entry> m_rows;
    quint64 m_epoch = ~quint64(0), m_revision = 0;
    uint8_t m_filter = 0;
};

} // namespace browse
