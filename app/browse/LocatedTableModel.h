#pragma once

#include "KeyLocator.h"

#include <QAbstractTableModel>

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

protected:
    // The subclass's columns before Node and Slot; call once from its constructor.
    void setPlainColumnCount(int columns) { m_plain = m_columns = columns; }
    int plainColumnCount() const { return m_plain; }
    int locatedColumnCount() const { return m_columns; }
    // Slot first, then Node: a table's last column stretches, and host:port is the wider.
    bool isSlotColumn(int column) const { return located() && column == m_plain; }
    bool isNodeColumn(int column) const { return located() && column == m_plain + 1; }
    // The roles the Node and Slot cells answer themselves; the others (the row's key, its
    // anomalies) are the row's, whichever column asks.
    static bool isLocatedRole(int role);
    // The Node or Slot cell of a row about `key`; invalid for any other column or role.
    QVariant locatedData(int column, const QByteArray &key, int role) const;
    QVariant locatedHeader(int section, int role) const;
    // Node sorts by the owner's place in the topology, Slot by number.
    quint64 locatedSortKey(int column, const QByteArray &key) const;

private:
    const KeyLocator *m_locator = nullptr;
    int m_plain = 0;
    int m_columns = 0;
};

} // namespace browse
