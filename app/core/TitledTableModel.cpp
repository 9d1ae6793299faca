// SPDX-License-Identifier: GPL-3.0-or-later
#include "TitledTableModel.h"

namespace core {

int TitledTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_titles.size());
}

QVariant TitledTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= columnCount())
        return {};
    return metaObject()->tr(m_titles[size_t(section)], nullptr);
}

} // namespace core
