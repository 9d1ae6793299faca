// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChartView.h"

#include "HoverReadout.h"
#include "ui/common/ChartTheme.h"
#include "ui/common/Palette.h"

#include <QBarSet>
#include <QEvent>
#include <QGraphicsLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ui {

ChartView::ChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent)
    , m_readout(new HoverReadout(chart, this))
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::HorizontalRubberBand);
    setMinimumHeight(220);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    // The readout follows the pointer without a button held.
    viewport()->setMouseTracking(true);
    followPalette();
}

void ChartView::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPalette();
}

void ChartView::followPalette()
{
    m_readout->followPalette();
    followPaletteChartTheme(chart());
}

void ChartView::setEmptyText(const QString &text)
{
    if (m_emptyText == text)
        return;
    m_emptyText = text;
    // The foreground is cached with the scene: redraw it.
    scene()->invalidate(sceneRect(), QGraphicsScene::ForegroundLayer);
    viewport()->update();
}

void ChartView::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    if (m_emptyText.isEmpty())
        return;
    painter->save();
    const QRectF area = chart()->plotArea().adjusted(8, 8, -8, -8);
    painter->setPen(Palette::muted());
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    painter->setFont(f);
    painter->drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    painter->restore();
}

void ChartView::mouseMoveEvent(QMouseEvent *event)
{
    QChartView::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) {
        m_readout->hide(); // a rubber band is being drawn: it is what the user reads now
        return;
    }
    m_readout->pointAt(chart()->mapFromScene(mapToScene(event->position().toPoint())));
}

void ChartView::mouseReleaseEvent(QMouseEvent *event)
{
    QChartView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton || event->button() == Qt::RightButton)
        emit zoomedByUser();
}

void ChartView::leaveEvent(QEvent *event)
{
    QChartView::leaveEvent(event);
    m_readout->hide();
}

void ChartView::showValuesOf(QXYSeries *series, const QString &unit, int decimals, bool timeAxis)
{
    m_readout->track(series, unit, decimals, timeAxis);
}

void ChartView::showValuesOf(QBarSet *set, const QStringList &categories, const QString &unit)
{
    connect(set, &QBarSet::hovered, this, [this, set, categories, unit](bool state, int index) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(),
                           tr("%1 · %2: %3 %4")
                               .arg(set->label(), categories.value(index),
                                    QLocale().toString(set->at(index), 'f', 0), unit),
                           this);
    });
}

QImage ChartView::renderImage(QSize size, Paper paper) const
{
    if (size.isEmpty())
        size = this->size();
    auto *self = const_cast<ChartView *>(this);
    const bool lighten = paper == Paper::Light && Palette::isDark();
    if (lighten)
        setChartThemeVariant(self->chart(), false);
    QImage image(size, QImage::Format_ARGB32);
    image.fill(lighten ? QColor(Qt::white) : Palette::paper());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    // The scene is laid out for the widget's size: draw it scaled into the image, then the
    // empty-state sentence, which lives in the view's foreground and not in the scene.
    const QSizeF was = chart()->size();
    self->chart()->resize(size);
    // The chart lays itself out on the next event-loop turn: now, or axes would be drawn where
    // they were at the old size.
    if (QGraphicsLayout *layout = self->chart()->layout())
        layout->activate();
    scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), QSizeF(size)));
    if (!m_emptyText.isEmpty()) {
        painter.setPen(lighten ? Palette::counterpart(Palette::muted(), true) : Palette::muted());
        painter.drawText(chart()->plotArea().adjusted(8, 8, -8, -8),
                         Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    }
    self->chart()->resize(was);
    if (QGraphicsLayout *layout = self->chart()->layout())
        layout->activate();
    if (lighten)
        followPaletteChartTheme(self->chart());
    return image;
}

} // namespace ui
