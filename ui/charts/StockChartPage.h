// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <vector>

class QLabel;
class QLineSeries;
class QListWidget;
class QPushButton;

namespace metrics {
class StockWatcher;
}

namespace ui {

class TimeChartPanel;

// The stock of the SKUs the user watches ("Watch stock" in the Keys tab's SKU menu), one line
// each, read every second.
class StockChartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StockChartPage(metrics::StockWatcher &watcher, QWidget *parent = nullptr);
    TimeChartPanel *panel() const { return m_panel; }

private:
    void rebuild();
    void onSampled();
    void updateTexts();

    metrics::StockWatcher &m_watcher;
    TimeChartPanel *m_panel;
    QListWidget *m_list;
    QPushButton *m_unwatch;
    QLabel *m_problems;
    std::vector<QLineSeries *> m_lines;
    std::vector<qint64> m_drawnUpTo;
};

} // namespace ui
