// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <vector>

class QChart;
class QGraphicsEllipseItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QXYSeries;

namespace ui {

// What a line chart says under the mouse. The pointer need not touch a line: it snaps to the
// sample nearest in x, marks that point on every series sampled at that moment and writes their
// time and values in a box beside the points, never over them (a tooltip at the pointer hid
// the very values being read). Points of a series are taken in ascending x, as every series of
// the console is appended in time order.
class HoverReadout : public QObject
{
    Q_OBJECT
public:
    explicit HoverReadout(QChart *chart, QObject *parent = nullptr);

    // x in ms since the epoch when `timeAxis`, shown as HH:mm:ss; else shown as a number.
    void track(QXYSeries *series, const QString &unit, int decimals, bool timeAxis);
    // `at` in chart coordinates; outside the plot area the readout hides.
    void pointAt(QPointF at);
    void hide();
    // The box and its words in the current palette's tooltip colours again.
    void followPalette();

    // For tests and for the view: what is shown ("" while hidden), the box in chart coordinates,
    // and the points marked, in chart coordinates.
    QString text() const { return m_text; }
    QRectF box() const;
    QList<QPointF> marked() const;

private:
    struct Tracked
    {
        QPointer<QXYSeries> series;
        QString unit;
        int decimals = 1;
        bool timeAxis = true;
    };
    struct Hit
    {
        const Tracked *tracked = nullptr;
        QPointF value;    // the sample
        QPointF position; // where it is drawn
    };
    std::vector<Hit> nearestSamples(QPointF at) const;
    QString describe(const std::vector<Hit> &hits) const;
    void draw(const std::vector<Hit> &hits);
    void refreshSoon(); // new samples move the axes: place the readout again once they have

    QChart *m_chart;
    std::vector<Tracked> m_tracked;
    std::vector<QGraphicsEllipseItem *> m_markers; // reused; as many shown as points marked
    QGraphicsRectItem *m_box;
    QGraphicsSimpleTextItem *m_label;
    QString m_text;
    QPointF m_at;
    bool m_refreshPending = false;
};

} // namespace ui
