// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimeChartPanel.h"

#include "ChartView.h"
#include "CountAxis.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace ui {

TimeChartPanel::TimeChartPanel(const QString &title, const QString &valueTitle, bool log,
                               QWidget *parent)
    : ChartPanel(title, new QChart, true, parent)
    , m_time(new QDateTimeAxis)
    , m_log(log)
{
    QChart *c = chart();
    m_time->setFormat(QStringLiteral("HH:mm:ss"));
    m_time->setTitleText(tr("time"));
    m_time->setTickCount(6);
    c->addAxis(m_time, Qt::AlignBottom);
    if (log) {
        auto *a = new QLogValueAxis;
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%.0f"));
        a->setMinorTickCount(0);
        m_value = a;
    } else {
        auto *a = new QValueAxis;
        a->setLabelFormat(QStringLiteral("%.4g"));
        a->setTickCount(5);
        m_value = a;
    }
    m_value->setTitleText(valueTitle);
    c->addAxis(m_value, Qt::AlignLeft);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_time->setRange(QDateTime::fromMSecsSinceEpoch(now - m_spanSeconds * 1000),
                     QDateTime::fromMSecsSinceEpoch(now));
    applyValueRange();
    connect(this, &ChartPanel::resetZoomRequested, this, [this] {
        follow(m_lastMs);
        fitValues();
    });
}

QLineSeries *TimeChartPanel::addSeries(const QString &name, const QString &unit, int decimals)
{
    auto *s = new QLineSeries;
    s->setName(name);
    chart()->addSeries(s);
    s->attachAxis(m_time);
    s->attachAxis(m_value);
    view()->showValuesOf(s, unit, decimals);
    return s;
}

void TimeChartPanel::clearSeries()
{
    chart()->removeAllSeries();
    m_max = 0;
    m_min = 0;
    m_firstMs = 0;
    applyValueRange();
}

bool TimeChartPanel::hasPoints() const
{
    for (QAbstractSeries *s : chart()->series())
        if (auto *l = qobject_cast<QLineSeries *>(s); l && l->count() > 0)
            return true;
    return false;
}

void TimeChartPanel::append(QLineSeries *series, qint64 timeMs, double value)
{
    if (m_log)
        value = qMax(1.0, value);
    if (series->count() >= m_capacity)
        series->removePoints(0, series->count() - m_capacity + 1);
    series->append(double(timeMs), value);
    m_lastMs = qMax(m_lastMs, timeMs);
    m_firstMs = m_firstMs ? qMin(m_firstMs, timeMs) : timeMs;
    if (!isPaused() && (value > m_max || value < m_min)) {
        m_max = qMax(m_max, value);
        m_min = qMin(m_min, value);
        applyValueRange();
    }
}

void TimeChartPanel::setWholeNumbers(bool whole)
{
    m_whole = whole;
    applyValueRange();
}

void TimeChartPanel::setSpanSeconds(int seconds)
{
    m_spanSeconds = qMax(10, seconds);
    if (!isPaused() && m_lastMs) {
        follow(m_lastMs);
        fitValues();
    }
}

void TimeChartPanel::follow(qint64 nowMs)
{
    if (isPaused() || nowMs == 0)
        return;
    // Right after sampling starts, the span would be mostly empty with the lines squeezed to
    // the right: show from the first sample, and at least a minute.
    qint64 from = nowMs - m_spanSeconds * 1000;
    if (m_firstMs > from)
        from = qMin(m_firstMs, nowMs - 60'000);
    m_time->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(nowMs));
}

void TimeChartPanel::fitValues()
{
    const double from = double(m_time->min().toMSecsSinceEpoch());
    m_max = 0;
    m_min = 0;
    for (QAbstractSeries *s : chart()->series())
        if (auto *l = qobject_cast<QLineSeries *>(s))
            for (const QPointF &p : l->points())
                if (p.x() >= from) {
                    m_max = qMax(m_max, p.y());
                    m_min = qMin(m_min, p.y());
                }
    applyValueRange();
}

void TimeChartPanel::applyValueRange()
{
    if (m_log) {
        // Whole decades, at least 1 µs .. 1 ms, so the ticks read 1, 10, 100, 1000.
        const double top = std::pow(10.0, std::ceil(std::log10(qMax(1000.0, m_max * 1.2))));
        m_value->setRange(1.0, top);
        return;
    }
    if (auto *v = qobject_cast<QValueAxis *>(m_value); v && m_whole && m_min >= 0) {
        setCountRange(v, m_max);
        return;
    }
    // A little headroom, and a flat zero line still shows a scale; a negative value (a stock
    // gone below zero is an anomaly worth seeing) takes the axis below zero.
    const double top = m_max > 0 ? m_max * 1.15 : 1.0;
    m_value->setRange(m_min < 0 ? m_min * 1.15 : 0.0, top);
    if (auto *v = qobject_cast<QValueAxis *>(m_value))
        v->applyNiceNumbers();
}

} // namespace ui
