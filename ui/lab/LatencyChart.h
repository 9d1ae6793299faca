// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QChart;
class QChartView;
namespace lab {
struct StrategyResult;
}

namespace ui {

// The latency histograms of a lab run, one bar set per strategy over the same buckets, as a
// share of each strategy's commands (the naive way sends two per attempt). Small and
// self-contained on purpose: a general chart view may replace it later.
class LatencyChart : public QWidget
{
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);

    void setResults(const QList<lab::StrategyResult> &results);
    void clear();
    // Bars with a non-zero height (tests check the chart got data).
    int nonEmptyBars() const { return m_nonEmptyBars; }

protected:
    void changeEvent(QEvent *event) override; // the chart's theme follows the palette

private:
    void replaceChart(QChart *chart);
    QChartView *m_view = nullptr;
    int m_nonEmptyBars = 0;
};

} // namespace ui
