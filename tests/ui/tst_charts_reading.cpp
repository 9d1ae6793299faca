// SPDX-License-Identifier: GPL-3.0-or-later
// What a person can read off the charts, offscreen and without a server: a line chart's value
// with the pointer near the line rather than on it, in a box that leaves the point visible; and
// a handful of expired receipts beside a million, on the receipt-expiry chart.
#include "ui/charts/ChartPanel.h"
#include "ui/charts/ChartView.h"
#include "ui/charts/ReceiptExpiryPage.h"
#include "ui/charts/TimeChartPanel.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
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

    // 3 expired receipts beside 1,000,000 that expire within the hour: the small bar has a
    // height one can see, the axis says it is logarithmic, and every count is written.
    void smallBucketsStayVisible()
    {
        ui::ReceiptExpiryPage page(nullptr);
        using R = metrics::ReceiptExpiry;
        R e;
        e.nowMs = QDateTime::currentMSecsSinceEpoch();
        e.counts[R::Expired] = 3;
        e.counts[R::Hour] = 1'000'000;
        e.counts[R::NoTtl] = 1;
        e.receipts = 1'000'004;
        page.resize(1000, 500);
        page.showCounts(e);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QChart *chart = page.panel()->chart();
        QTRY_VERIFY(chart->plotArea().height() > 150);
        auto *bars = qobject_cast<QAbstractBarSeries *>(chart->series().value(0));
        QVERIFY(bars);

        // How tall a bar is drawn: from the axis' floor to its value.
        const double floor = ui::ReceiptExpiryPage::Floor;
        const auto height = [&](R::Bucket b) {
            const double v = bars->barSets().first()->at(b);
            return chart->mapToPosition(QPointF(b, floor), bars).y()
                   - chart->mapToPosition(QPointF(b, v), bars).y();
        };
        const double plot = chart->plotArea().height();
        QVERIFY2(height(R::Expired) > plot / 20,
                 qPrintable(QStringLiteral("%1 px of %2").arg(height(R::Expired)).arg(plot)));
        QVERIFY(height(R::NoTtl) > 5);
        QVERIFY(height(R::Hour) > height(R::Expired));
        QCOMPARE(height(R::Minute), 0.0);
        const QList<QAbstractAxis *> vertical = chart->axes(Qt::Vertical, bars);
        QCOMPARE(vertical.size(), 1);
        QCOMPARE(vertical.first()->type(), QAbstractAxis::AxisTypeLogValue);

        auto *categories = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).first());
        QVERIFY(categories);
        const QString expired = categories->at(R::Expired);
        QVERIFY2(expired.startsWith(R::label(R::Expired)) && expired.endsWith(QLatin1String(">3")),
                 qPrintable(expired));
        QVERIFY2(categories->at(R::Hour).endsWith(QLocale().toString(1'000'000)),
                 qPrintable(categories->at(R::Hour)));
        QVERIFY2(categories->at(R::Minute).endsWith(QLatin1String(">0")),
                 qPrintable(categories->at(R::Minute)));
        // Save CSV writes the counts, not the heights the bars are drawn at.
        const QByteArray csv = page.panel()->csv();
        QVERIFY2(csv.contains("expired,3\r\n") && csv.contains("≤ 1 min,0\r\n"), csv.constData());
    }
};

QTEST_MAIN(TstChartsReading)
#include "tst_charts_reading.moc"
