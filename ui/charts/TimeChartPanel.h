// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChartPanel.h"

class QAbstractAxis;
class QDateTimeAxis;
class QLineSeries;

namespace ui {

// A live line chart over time: one or more series fed a point per sample. The time axis follows
// the latest samples over a chosen span unless paused or zoomed; the value axis only grows
// while following (a new point never costs a pass over the history), and is fitted again to
// what is shown on Reset zoom. Points older than the capacity are dropped from the front.
class TimeChartPanel : public ChartPanel
{
    Q_OBJECT
public:
    // `valueTitle` names the quantity and its unit ("memory (MiB)"); log puts values on a
    // base-10 axis (latencies), where no value may be below 1.
    TimeChartPanel(const QString &title, const QString &valueTitle, bool log = false,
                   QWidget *parent = nullptr);

    QLineSeries *addSeries(const QString &name, const QString &unit, int decimals = 1);
    void clearSeries();
    // One new point; drops the oldest beyond capacity.
    void append(QLineSeries *series, qint64 timeMs, double value);
    void setCapacity(int points) { m_capacity = qMax(2, points); }
    // Counts (clients, units of stock): ticks on whole numbers.
    void setWholeNumbers(bool whole);
    void setSpanSeconds(int seconds);
    // Moves the time axis to end at `nowMs` (unless paused).
    void follow(qint64 nowMs);
    bool hasPoints() const;

private:
    void fitValues(); // to the points inside the time axis' range
    void applyValueRange();

    QDateTimeAxis *m_time;
    QAbstractAxis *m_value;
    bool m_log;
    int m_capacity = 3600;
    int m_spanSeconds = 300;
    qint64 m_lastMs = 0;
    qint64 m_firstMs = 0; // the oldest point drawn
    double m_max = 0;
    double m_min = 0; // below 0 only when a value was
    bool m_whole = false;
};

} // namespace ui
