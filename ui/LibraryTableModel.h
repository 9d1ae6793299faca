// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/TitledTableModel.h"
#include "redis/LibraryList.h"

namespace ui {

// The loaded function libraries as the overview lists them: one row per library.
class LibraryTableModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Library, Functions, Engine, Names, ColumnCount };

    explicit LibraryTableModel(QObject *parent = nullptr);

    void setLibraries(const QList<redis::LibraryInfo> &libraries);
    const QList<redis::LibraryInfo> &libraries() const { return m_libraries; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<redis::LibraryInfo> m_libraries;
};

} // namespace ui
