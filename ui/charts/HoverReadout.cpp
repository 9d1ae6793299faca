// SPDX-License-Identifier: GPL-3.0-or-later
#include "HoverReadout.h"

#include "ui/common/Palette.h"

#include <QBrush>
#include <QChart>
#include <QDateTime>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QTimer>
#include <QToolTip>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace ui {

namespace {
constexpr qreal MarkerRadius = 4;
constexpr qreal Gap = 10;     // between the marked points and the box: the box never hides them
constexpr qreal Padding = 5;  // inside the box
constexpr qreal SameTime = 3; // px: series sampled at the same moment are read together
constexpr qreal OnTop = 1000; // above the series

// The index of the point of `s` nearest to x, its points in ascending x.
int nearestIndex(const QXYSeries &s, qreal x)
{
    int lo = 0, hi = int(s.count()) - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (s.at(mid).x() < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && x - s.at(lo - 1).x() < s.at(lo).x() - x)
        --lo;
    return lo;
}
} // namespace

HoverReadout::HoverReadout(QChart *chart, QObject *parent)
    : QObject(parent)
    , m_chart(chart)
    , m_box(new QGraphicsRectItem(chart))
    , m_label(new QGraphicsSimpleTextItem(m_box))
{
    followPalette();
    m_box->setZValue(OnTop + 1);
    m_label->setPos(Padding, Padding);
    m_box->hide();
}

void HoverReadout::followPalette()
{
    // The colours of the platform's tooltips: the box reads as one.
    const QPalette tip = QToolTip::palette();
    m_box->setBrush(tip.toolTipBase());
    m_box->setPen(QPen(Palette::muted(), 1));
    m_label->setBrush(tip.toolTipText());
}

void HoverReadout::track(QXYSeries *series, const QString &unit, int decimals, bool timeAxis)
{
    m_tracked.push_back({series, unit, decimals, timeAxis});
    connect(series, &QXYSeries::pointAdded, this, &HoverReadout::refreshSoon);
    connect(series, &QXYSeries::pointsRemoved, this, &HoverReadout::refreshSoon);
    connect(series, &QObject::destroyed, this, [this] {
        std::erase_if(m_tracked, [](const Tracked &t) { return t.series.isNull(); });
        hide();
    });
}

void HoverReadout::refreshSoon()
{
    if (m_text.isEmpty() || m_refreshPending)
        return;
    m_refreshPending = true;
    QTimer::singleShot(0, this, [this] {
        m_refreshPending = false;
        if (!m_text.isEmpty())
            pointAt(m_at);
    });
}

std::vector<HoverReadout::Hit> HoverReadout::nearestSamples(QPointF at) const
{
    std::vector<Hit> hits;
    const QRectF plot = m_chart->plotArea();
    for (const Tracked &t : m_tracked) {
        QXYSeries *s = t.series.data();
        if (!s || !s->isVisible() || s->count() == 0)
            continue;
        const QPointF value = s->at(nearestIndex(*s, m_chart->mapToValue(at, s).x()));
        const QPointF position = m_chart->mapToPosition(value, s);
        // Zoomed in, the nearest sample may lie outside the range shown: nothing to read there.
        if (position.x() < plot.left() - 0.5 || position.x() > plot.right() + 0.5)
            continue;
        hits.push_back({&t, value, position});
    }
    if (hits.empty())
        return hits;
    const auto dx = [at](const Hit &h) {
        return std::abs(h.position.x() - at.x());
    };
    const qreal anchor = std::ranges::min_element(hits, {}, dx)->position.x();
    std::erase_if(hits,
                  [anchor](const Hit &h) { return std::abs(h.position.x() - anchor) > SameTime; });
    return hits;
}

QString HoverReadout::describe(const std::vector<Hit> &hits) const
{
    const Hit &first = hits.front();
    QStringList lines;
    lines << (first.tracked->timeAxis ? QDateTime::fromMSecsSinceEpoch(qint64(first.value.x()))
                                            .toString(QStringLiteral("HH:mm:ss"))
                                      : QLocale().toString(first.value.x()));
    for (const Hit &h : hits)
        lines << tr("%1: %2 %3")
                     .arg(h.tracked->series->name(),
                          QLocale().toString(h.value.y(), 'f', h.tracked->decimals),
                          h.tracked->unit)
                     .trimmed();
    return lines.join(QLatin1Char('\n'));
}

void HoverReadout::pointAt(QPointF at)
{
    m_at = at;
    if (!m_chart->plotArea().contains(at)) {
        hide();
        return;
    }
    const std::vector<Hit> hits = nearestSamples(at);
    if (hits.empty()) {
        hide();
        return;
    }
    draw(hits);
}

void HoverReadout::draw(const std::vector<Hit> &hits)
{
    while (m_markers.size() < hits.size()) {
        auto *m = new QGraphicsEllipseItem(-MarkerRadius, -MarkerRadius, 2 * MarkerRadius,
                                           2 * MarkerRadius, m_chart);
        m->setZValue(OnTop);
        m_markers.push_back(m);
    }
    // A ring in the chart's background colour keeps the marker apart from its own line.
    const QPen ring(m_chart->backgroundBrush().color(), 1.5);
    qreal top = hits.front().position.y(), bottom = top;
    for (size_t i = 0; i < m_markers.size(); ++i) {
        QGraphicsEllipseItem *m = m_markers[i];
        m->setVisible(i < hits.size());
        if (i >= hits.size())
            continue;
        m->setPen(ring);
        m->setBrush(hits[i].tracked->series->color());
        m->setPos(hits[i].position);
        top = qMin(top, hits[i].position.y());
        bottom = qMax(bottom, hits[i].position.y());
    }

    m_text = describe(hits);
    m_label->setText(m_text);
    const QSizeF size = m_label->boundingRect().size() + QSizeF(2 * Padding, 2 * Padding);
    m_box->setRect(QRectF(QPointF(0, 0), size));
    // Beside the points, on the side with room, level with them and inside the plot area. Every
    // marked point is within SameTime of x, so a box Gap away on one side covers none of them.
    const QRectF plot = m_chart->plotArea();
    const qreal x = hits.front().position.x();
    const qreal left = x + MarkerRadius + Gap + size.width() <= plot.right()
                           ? x + MarkerRadius + Gap
                           : x - MarkerRadius - Gap - size.width();
    const qreal y = std::clamp((top + bottom - size.height()) / 2, plot.top(),
                               qMax(plot.top(), plot.bottom() - size.height()));
    m_box->setPos(left, y);
    m_box->show();
}

void HoverReadout::hide()
{
    m_text.clear();
    m_box->hide();
    for (QGraphicsEllipseItem *m : m_markers)
        m->hide();
}

QRectF HoverReadout::box() const
{
    return m_box->isVisible() ? m_box->mapRectToParent(m_box->rect()) : QRectF();
}

QList<QPointF> HoverReadout::marked() const
{
    QList<QPointF> out;
    for (const QGraphicsEllipseItem *m : m_markers)
        if (m->isVisible())
            out << m->pos();
    return out;
}

} // namespace ui
