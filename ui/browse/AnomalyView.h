// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/AnomalyModel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace ui {

// The anomalies of the last scan, listable by class; double-click shows the SKU.
class AnomalyView : public QWidget
{
    Q_OBJECT
public:
    explicit AnomalyView(const browse::KeyspaceStore &store, QWidget *parent = nullptr);
    browse::AnomalyModel &model() { return m_model; }
    QTableView *table() const { return m_table; }
    void sync();

signals:
    void showSku(uint32_t sku);

private:
    browse::AnomalyModel m_model;
    QComboBox *m_kind = nullptr;
    QLabel *m_count = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace ui
