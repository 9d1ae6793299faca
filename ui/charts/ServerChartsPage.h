// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QWidget>

class QBarCategoryAxis;
class QBarSeries;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineSeries;
class QScrollArea;
class QSpinBox;
class QValueAxis;

namespace metrics {
class ServerSampler;
}

namespace ui {

class ChartPanel;
class TimeChartPanel;

// The server charts, one set of series per node (a cluster's primaries each get their own
// lines, named by address): memory against maxmemory, ops/s and FCALL/s, evicted and expired
// keys/s, clients, FCALL latency on the server next to the console's own round trip, and the
// server's FCALL latency distribution. Each sample appends one point per series.
class ServerChartsPage : public QWidget
{
    Q_OBJECT
public:
    explicit ServerChartsPage(metrics::ServerSampler &sampler, QWidget *parent = nullptr);

    QList<ChartPanel *> panels() const;

private:
    struct NodeLines
    {
        QLineSeries *used = nullptr, *max = nullptr, *ops = nullptr, *fcall = nullptr;
        QLineSeries *evicted = nullptr, *expired = nullptr, *clients = nullptr;
        QLineSeries *fcallP50 = nullptr, *fcallP99 = nullptr, *rttP50 = nullptr, *rttP99 = nullptr;
        QString suffix;        // " (host:port)" on a cluster
        bool maxShown = false; // maxmemory drawn as a line (close enough to the used memory)
    };

    QHBoxLayout *buildControls();
    QScrollArea *buildChartArea();
    void setUpHistogram();
    void connectControls();
    void rebuild();
    void onSampled(int node);
    void appendNew(int node, bool all);
    void updateHistogram();
    void updateStatus();
    void updateEmptyTexts();
    QString fcallLatencyGap() const; // why the server's FCALL lines are empty; "" when not

    metrics::ServerSampler &m_sampler;
    QCheckBox *m_sampling;
    QSpinBox *m_interval;
    QComboBox *m_span;
    QLabel *m_status;
    TimeChartPanel *m_memory, *m_ops, *m_keys, *m_clients, *m_latency;
    ChartPanel *m_histogram;
    QBarSeries *m_histogramSeries = nullptr;
    QBarCategoryAxis *m_histogramBuckets = nullptr;
    QValueAxis *m_histogramCounts = nullptr;
    std::vector<NodeLines> m_lines;
    std::vector<qint64> m_appendedUpTo; // per node: the newest sample time already drawn
};

} // namespace ui
