// What a person can read off the charts, offscreen and without a server: a line chart's value
// with the pointer near the line rather than on it, in a box that leaves the point visible.
#include "charts/ChartPanel.h"
#include "charts/ChartView.h"
#include "charts/TimeChartPanel.h"

#include <QApplication>
#include <QChart>
#include <QDateTime>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QTest>

namespace {

// The visible text of every item in the chart's scene: whatever the user can read in it.
struct SceneText
{
    QString text;
    QRectF area; // of the item and whatever frames it, in scene coordinates
};

QList<SceneText> sceneTexts(const QGraphicsScene &scene)
{
    QList<SceneText> out;
    for (QGraphicsItem *item : scene.items()) {
        if (!item->isVisible())
            continue;
        QString text;
        if (auto *simple = qgraphicsitem_cast<QGraphicsSimpleTextItem *>(item))
            text = simple->text();
        else if (auto *rich = qgraphicsitem_cast<QGraphicsTextItem *>(item))
            text = rich->toPlainText();
        if (text.isEmpty())
            continue;
        QRectF area = item->sceneBoundingRect();
        if (auto *frame = qgraphicsitem_cast<QGraphicsRectItem *>(item->parentItem()))
            area |= frame->sceneBoundingRect();
        out << SceneText{text, area};
    }
    return out;
}

QString timeOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

class TstChartsReading : public QObject
{
    Q_OBJECT

private slots:
    // The pointer 30 px below the line, a little right of a sample: the readout names that
    // sample's time and value, marks it, and its box does not cover it.
    void hoverSnapsToTheNearestSample()
    {
        ui::TimeChartPanel panel(QStringLiteral("stock"), QStringLiteral("units"));
        QLineSeries *s = panel.addSeries(QStringLiteral("sku 42"), QStringLiteral("units"), 0);
        const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 60'000;
        // Values no axis tick would show, so finding one in the scene means the readout.
        const QList<double> values{1234, 2718, 1618, 3141, 2236, 1414};
        for (int i = 0; i < values.size(); ++i)
            panel.append(s, t0 + i * 10'000, values.at(i));
        panel.follow(t0 + 50'000);
        panel.resize(900, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        ui::ChartView *view = panel.view();
        QChart *chart = panel.chart();
        QTRY_VERIFY(chart->plotArea().width() > 400);

        const int nearest = 2; // 1618
        const QPointF point =
            chart->mapToPosition(QPointF(double(t0 + nearest * 10'000), values.at(nearest)), s);
        const QPointF next =
            chart->mapToPosition(QPointF(double(t0 + (nearest + 1) * 10'000), values.at(3)), s);
        QVERIFY(next.x() - point.x() > 60); // room to be near one sample and not the other
        const QPointF pointer = point + QPointF(15, 30);
        QTest::mouseMove(view->viewport(), view->mapFromScene(chart->mapToScene(pointer)));

        const QString value = QLocale().toString(values.at(nearest), 'f', 0);
        const QString when = timeOf(t0 + nearest * 10'000);
        const auto readout = [&]() -> std::optional<SceneText> {
            for (const SceneText &t : sceneTexts(*view->scene()))
                if (t.text.contains(value) && t.text.contains(when))
                    return t;
            return std::nullopt;
        };
        QTRY_VERIFY2(
            readout().has_value(),
            qPrintable(QStringLiteral("nothing in the chart reads %1 at %2").arg(value, when)));
        QVERIFY2(readout()->text.contains(QStringLiteral("sku 42")), qPrintable(readout()->text));
        const QPointF atScene = chart->mapToScene(point);
        QVERIFY2(!readout()->area.adjusted(-4, -4, 4, 4).contains(atScene),
                 "the readout covers the point it reads");
        bool marked = false;
        for (QGraphicsItem *item : view->scene()->items(atScene))
            marked =
                marked || (item->isVisible() && qgraphicsitem_cast<QGraphicsEllipseItem *>(item));
        QVERIFY2(marked, "no marker on the sample read");
        // Nor does a tooltip at the pointer (the zoom hint once was one) cover what is read.
        QVERIFY(view->toolTip().isEmpty());
    }
};

QTEST_MAIN(TstChartsReading)
#include "tst_charts_reading.moc"
