// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocatedTableModel.h"

#include "ModelRoles.h"

namespace browse {

void LocatedTableModel::setLocator(const KeyLocator *locator)
{
    m_locator = locator;
    locationsChanged();
}

void LocatedTableModel::locationsChanged()
{
    const int want = m_plain + (located() ? 2 : 0);
    if (want > m_columns) {
        beginInsertColumns({}, m_columns, want - 1);
        m_columns = want;
        endInsertColumns();
    } else if (want < m_columns) {
        beginRemoveColumns({}, want, m_columns - 1);
        m_columns = want;
        endRemoveColumns();
    } else if (located() && rowCount() > 0) {
        emit dataChanged(index(0, m_plain), index(rowCount() - 1, m_plain + 1),
                         {Qt::DisplayRole, ExportRole});
    }
}

bool LocatedTableModel::isLocatedRole(int role)
{
    return role == Qt::DisplayRole || role == Qt::ToolTipRole || role == Qt::TextAlignmentRole
           || role == ExportRole || role == RawBytesRole;
}

QVariant LocatedTableModel::locatedData(int column, const QByteArray &key, int role) const
{
    if (!isNodeColumn(column) && !isSlotColumn(column))
        return {};
    const int slot = KeyLocator::slotOf(key);
    switch (role) {
    case Qt::DisplayRole:
    case ExportRole:
        if (isSlotColumn(column))
            return slot;
        return m_locator->nodeOf(slot);
    case Qt::ToolTipRole:
        return tr("Slot %1 is served by the primary %2").arg(slot).arg(m_locator->nodeOf(slot));
    case Qt::TextAlignmentRole:
        if (isSlotColumn(column))
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

int LocatedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

QVariant LocatedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (section >= m_plain)
        return locatedHeader(section, role);
    if (section < 0)
        return {};
    const ColumnHeader &column = m_plainColumns[size_t(section)];
    switch (role) {
    case Qt::DisplayRole:
        return metaObject()->tr(column.title, nullptr);
    case ExportRole:
        return QString::fromLatin1(column.exportName);
    case Qt::ToolTipRole:
        if (column.toolTip)
            return metaObject()->tr(column.toolTip, nullptr);
        break;
    }
    return {};
}

QVariant LocatedTableModel::locatedHeader(int section, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != ExportRole)
        return {};
    if (isNodeColumn(section))
        return role == Qt::ToolTipRole ? tr("The cluster primary (host:port) that holds the key")
               : role == ExportRole    ? QStringLiteral("node")
                                       : tr("Node");
    if (isSlotColumn(section))
        return role == Qt::ToolTipRole ? tr("The key's cluster hash slot (0-16383)")
               : role == ExportRole    ? QStringLiteral("slot")
                                       : tr("Slot");
    return {};
}

quint64 LocatedTableModel::locatedSortKey(int column, const QByteArray &key) const
{
    const int slot = KeyLocator::slotOf(key);
    if (isNodeColumn(column))
        return (quint64(quint32(m_locator->nodeIndexOf(slot))) << 16) | quint64(slot);
    return quint64(slot);
}

} // namespace browse
