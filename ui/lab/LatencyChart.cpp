// SPDX-License-Identifier: GPL-3.0-or-later
#include "LatencyChart.h"

#include "lab/LabResult.h"
#include "ui/common/ChartTheme.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QVBoxLayout>
#include <QValueAxis>

namespace ui {

LatencyChart::LatencyChart(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view = new QChartView;
    m_view->setObjectName(QStringLiteral("labLatencyChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    layout->addWidget(m_view);
    clear();
}

// The view does not delete the chart it showed before.
void LatencyChart::replaceChart(QChart *chart)
{
    QChart *old = m_view->chart();
    followPaletteChartTheme(chart);
    m_view->setChart(chart);
    delete old;
}

void LatencyChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPaletteChartTheme(m_view->chart());
}

void LatencyChart::clear()
{
    auto *chart = new QChart;
    chart->setTitle(tr("Round-trip latency: run the lab to see each strategy's histogram"));
    chart->legend()->hide();
    replaceChart(chart);
    m_nonEmptyBars = 0;
}

void LatencyChart::setResults(const QList<lab::StrategyResult> &results)
{
    // Only the buckets some strategy used, from the first to the last: fifteen mostly empty
    // columns would squeeze the ones that matter.
    const int count = int(lab::LatencyHistogram::bounds().size()) + 1;
    int first = count, last = -1;
    for (const lab::StrategyResult &r : results)
        for (int i = 0; i < count; ++i)
            if (r.latency.buckets().at(i) > 0) {
                first = std::min(first, i);
                last = std::max(last, i);
            }
    if (last < 0) {
        clear();
        return;
    }
    auto *series = new QBarSeries;
    m_nonEmptyBars = 0;
    double top = 0;
    for (const lab::StrategyResult &r : results) {
        if (!r.ran() || r.latency.count() == 0)
            continue;
        auto *set = new QBarSet(lab::strategyName(r.strategy));
        for (int i = first; i <= last; ++i) {
            const double share =
                100.0 * double(r.latency.buckets().at(i)) / double(r.latency.count());
            *set << share;
            top = std::max(top, share);
            m_nonEmptyBars += share > 0 ? 1 : 0;
        }
        series->append(set);
    }
    QStringList categories;
    for (int i = first; i <= last; ++i)
        categories << lab::LatencyHistogram::bucketLabel(i);
    auto *chart = new QChart;
    chart->setTitle(tr("Round-trip latency (share of each strategy's commands)"));
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(tr("round trip (ms)"));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setRange(0, std::min(100.0, top * 1.1 + 1));
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.0f %%"));
    // Short: the tab gives the chart little height, and the chart's title already says
    // "share of each strategy's commands" ("% of commands" was cut to "% of com…").
    y->setTitleText(tr("share"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    replaceChart(chart);
}

} // namespace ui
