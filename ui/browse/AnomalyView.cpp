// SPDX-License-Identifier: GPL-3.0-or-later
#include "AnomalyView.h"

#include "BrowseTables.h"
#include "browse/Cells.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

AnomalyView::AnomalyView(const browse::KeyspaceStore &store, QWidget *parent)
    : QWidget(parent)
    , m_model(store)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Show:"), this));
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("anomalyKind"));
    m_kind->addItem(tr("every anomaly"), 0);
    for (int i = 0; i < browse::AnomalyKinds; ++i)
        m_kind->addItem(browse::anomalyName(browse::anomalyAt(i)), int(browse::anomalyAt(i)));
    row->addWidget(m_kind);
    m_count = new QLabel(this);
    row->addWidget(m_count, 1);
    row->addWidget(new QLabel(tr("Double-click a row to show its SKU."), this));
    layout->addLayout(row);
    m_table = makeBrowseTable(this, QStringLiteral("anomalyTable"));
    m_table->setModel(&m_model);
    setBrowseColumnWidths(m_table, {30, 36});
    layout->addWidget(m_table, 1);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_model.setKindFilter(uint8_t(m_kind->currentData().toInt()));
        m_count->setText(countText(m_model.rowCount(), QT_TRANSLATE_NOOP("ui::Count", "row"),
                                   QT_TRANSLATE_NOOP("ui::Count", "rows")));
    });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex &i) { emit showSku(m_model.skuOf(i.row())); });
}

void AnomalyView::sync()
{
    m_model.sync();
    m_count->setText(countText(m_model.rowCount(), QT_TRANSLATE_NOOP("ui::Count", "row"),
                               QT_TRANSLATE_NOOP("ui::Count", "rows")));
}

} // namespace ui
