// SPDX-License-Identifier: GPL-3.0-or-later
#include "StockChartPage.h"

#include "ChartView.h"
#include "TimeChartPanel.h"
#include "core/Bytes.h"
#include "metrics/StockWatcher.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

StockChartPage::StockChartPage(metrics::StockWatcher &watcher, QWidget *parent)
    : QWidget(parent)
    , m_watcher(watcher)
    , m_panel(new TimeChartPanel(tr("Stock of watched SKUs"), tr("stock (units)")))
    , m_list(new QListWidget)
    , m_unwatch(new QPushButton(tr("Stop watching")))
    , m_problems(new QLabel)
{
    m_panel->setWholeNumbers(true);
    m_list->setMaximumWidth(260);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_problems->setWordWrap(true);
    setTextColour(m_problems, Palette::warning());
    auto *side = new QVBoxLayout;
    side->addWidget(new QLabel(tr("Watched SKUs")));
    side->addWidget(m_list, 1);
    side->addWidget(m_unwatch);
    auto *row = new QHBoxLayout;
    row->addWidget(m_panel, 1);
    row->addLayout(side);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row, 1);
    layout->addWidget(m_problems);
    connect(m_unwatch, &QPushButton::clicked, this, [this] {
        QList<QByteArray> skus;
        for (QListWidgetItem *item : m_list->selectedItems())
            skus << item->data(Qt::UserRole).toByteArray();
        for (const QByteArray &sku : skus)
            m_watcher.unwatch(sku);
    });
    connect(m_list, &QListWidget::itemSelectionChanged, this,
            [this] { m_unwatch->setEnabled(!m_list->selectedItems().isEmpty()); });
    connect(&m_watcher, &metrics::StockWatcher::watchListChanged, this, &StockChartPage::rebuild);
    connect(&m_watcher, &metrics::StockWatcher::sampled, this, &StockChartPage::onSampled);
    rebuild();
}

void StockChartPage::rebuild()
{
    m_panel->clearSeries();
    m_list->clear();
    m_lines.clear();
    m_drawnUpTo.assign(size_t(m_watcher.count()), 0);
    for (int i = 0; i < m_watcher.count(); ++i) {
        const auto &w = m_watcher.at(i);
        const QString name = core::escapeBytes(w.sku, 40);
        m_lines.push_back(m_panel->addSeries(name, tr("units"), 0));
        auto *item = new QListWidgetItem(name, m_list);
        item->setData(Qt::UserRole, w.sku);
        item->setToolTip(tr("Stock key %1").arg(core::escapeBytes(w.key)));
    }
    m_unwatch->setEnabled(false);
    onSampled(); // draws what was read before (a SKU kept its history)
}

void StockChartPage::onSampled()
{
    qint64 newest = 0;
    for (int i = 0; i < m_watcher.count() && size_t(i) < m_lines.size(); ++i) {
        const metrics::TimeSeries &s = m_watcher.at(i).stock;
        // Normally one new point; after a rebuild, the whole history once.
        size_t from = s.size();
        while (from > 0 && s.at(from - 1).timeMs > m_drawnUpTo[size_t(i)])
            --from;
        for (size_t k = from; k < s.size(); ++k)
            m_panel->append(m_lines[size_t(i)], s.at(k).timeMs, s.at(k).value);
        if (auto last = s.last()) {
            m_drawnUpTo[size_t(i)] = last->timeMs;
            newest = qMax(newest, last->timeMs);
        }
    }
    m_panel->follow(newest);
    updateTexts();
}

void StockChartPage::updateTexts()
{
    QStringList problems;
    for (int i = 0; i < m_watcher.count(); ++i)
        if (!m_watcher.at(i).problem.isEmpty())
            problems << tr("%1: %2").arg(core::escapeBytes(m_watcher.at(i).sku, 40),
                                         m_watcher.at(i).problem);
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    m_panel->view()->setEmptyText(
        m_watcher.count() == 0
            ? tr("No SKU watched yet — on the Keys tab, right-click a SKU and choose Watch stock")
        : m_panel->hasPoints()
            ? QString()
            : tr("No samples yet — reading every %1 s").arg(m_watcher.interval() / 1000));
}

} // namespace ui
