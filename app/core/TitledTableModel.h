// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <initializer_list>
#include <vector>

namespace core {

// A table whose columns are fixed, each with a title: it answers columnCount() and the
// horizontal header's text, and the subclass the rows.
class TitledTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // The titles in column order, marked QT_TR_NOOP in the subclass (translated in its
    // context).
    TitledTableModel(std::initializer_list<const char *> titles, QObject *parent)
        : QAbstractTableModel(parent)
        , m_titles(titles)
    {}

    int columnCount(const QModelIndex &parent = {}) const override;
    // The title of a horizontal section (DisplayRole); nothing for any other role or section.
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<const char *> m_titles;
};

} // namespace core
