// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QChartView>
#include <QImage>

class QXYSeries;
class QBarSet;

namespace ui {

class HoverReadout;

// A QChartView with what every chart of the console needs: a sentence in the plot area while
// there is nothing to draw, values under the mouse, a horizontal rubber band to zoom to a
// range (right click zooms out), and rendering to an image at any size (PNG export, the
// readiness report). Reusable for any line or bar chart. Its theme follows the application's
// palette: Qt Charts' dark theme on a dark palette, the light one otherwise.
class ChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ChartView(QChart *chart, QWidget *parent = nullptr);

    // Shown centred in the plot area while set; "" hides it.
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

    // Values under the mouse. A line series: the sample nearest the pointer in x, marked, with
    // its time (x in ms since the epoch) or x and "<series>: <value> <unit>" beside it (see
    // HoverReadout). A bar set: a tooltip "<set> · <category>: <value>" on the bar.
    void showValuesOf(QXYSeries *series, const QString &unit, int decimals = 1,
                      bool timeAxis = true);
    void showValuesOf(QBarSet *set, const QStringList &categories, const QString &unit);
    HoverReadout *readout() const { return m_readout; }

    // The chart drawn into an image of `size` (the widget's own size when empty): on the
    // palette's Base colour, as it would be on screen; or, for a document that is read on
    // white paper (the readiness report), in the light variant whatever the palette.
    enum class Paper { AsShown, Light };
    QImage renderImage(QSize size = {}, Paper paper = Paper::AsShown) const;

signals:
    void zoomedByUser(); // a rubber band or a right click changed the range

protected:
    void changeEvent(QEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void followPalette();

    QString m_emptyText;
    HoverReadout *m_readout;
};

} // namespace ui
