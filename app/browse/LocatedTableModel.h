// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyLocator.h"

#include <QAbstractTableModel>
#include <span>

namespace browse {

// A table whose last two columns, Slot and Node, say where each row's key lives on a Redis
// Cluster. They exist only while the locator knows a cluster: on a standalone server the
// table (and its CSV export) is exactly what it was, with no column that would say nothing.
class LocatedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    // Not owned; it must outlive the model. nullptr: no Node and Slot columns.
    void setLocator(const KeyLocator *locator);
    const KeyLocator *locator() const { return m_locator; }
    bool located() const { return m_locator && m_locator->isCluster(); }
    // The topology changed: the columns appear or go, or their cells are read again.
    void locationsChanged();

    // The subclass's columns, then Slot and Node on a cluster.
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    // One of the subclass's own columns, as its header shows it.
    struct ColumnHeader
    {
        const char *title;      // marked QT_TR_NOOP in the subclass: translated in its context
        const char *exportName; // the CSV header (ExportRole)
        const char *toolTip = nullptr; // also QT_TR_NOOP; none when null
    };
    // The subclass's columns before Node and Slot, in order; call once from its constructor
    // with a static table.
    void setPlainColumns(std::span<const ColumnHeader> columns)
    {
        m_plainColumns = columns;
        m_plain = m_columns = int(columns.size());
    }
    // Slot first, then Node: a table's last column stretches, and host:port is the wider.
    bool isSlotColumn(int column) const { return located() && column == m_plain; }
    bool isNodeColumn(int column) const { return located() && column == m_plain + 1; }
    // The roles the Node and Slot cells answer themselves; the others (the row's key, its
    // anomalies) are the row's, whichever column asks.
    static bool isLocatedRole(int role);
    // The Node or Slot cell of a row about `key`; invalid for any other column or role.
    QVariant locatedData(int column, const QByteArray &key, int role) const;
    // Node sorts by the owner's place in the topology, Slot by number.
    quint64 locatedSortKey(int column, const QByteArray &key) const;

private:
    QVariant locatedHeader(int section, int role) const;

    const KeyLocator *m_locator = nullptr;
    std::span<const ColumnHeader> m_plainColumns;
    int m_plain = 0;
    int m_columns = 0;
};

} // namespace browse
