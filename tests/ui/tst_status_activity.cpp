// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's activity: a long message is shown by its start, whole in the tooltip, so
// that it cannot widen the bar past a 1366-pixel window and cut off its end unseen.
#include "ui/ConnectionStatusWidget.h"

#include <QApplication>
#include <QLabel>
#include <QTest>

class TstStatusActivity : public QObject
{
    Q_OBJECT

    static QLabel *activity(ui::ConnectionStatusWidget &bar)
    {
        return bar.findChild<QLabel *>(QStringLiteral("statusActivity"));
    }

private slots:
    void aShortMessageIsShownWhole()
    {
        ui::ConnectionStatusWidget bar;
        bar.setActivity(QStringLiteral("Scan complete."));
        QCOMPARE(activity(bar)->text(), QStringLiteral("Scan complete."));
        QVERIFY(activity(bar)->toolTip().isEmpty());
    }

    void aLongMessageIsElidedWithTheWholeInTheTooltip()
    {
        ui::ConnectionStatusWidget bar;
        QString text = QStringLiteral("Showing 0 SKUs; in the filter, ");
        while (bar.fontMetrics().horizontalAdvance(text) < 2000)
            text += QStringLiteral("the '[' at position 5 has no closing ']' ");
        text += QStringLiteral("END");
        bar.setActivity(text);
        QLabel *l = activity(bar);
        QVERIFY2(l->text().endsWith(QChar(0x2026)), qPrintable(l->text()));
        QVERIFY(!l->text().contains(QLatin1String("END")));
        QVERIFY2(l->sizeHint().width() <= 520, qPrintable(QString::number(l->sizeHint().width())));
        QCOMPARE(l->toolTip(), text);

        // A short one after it takes its tooltip away again.
        bar.setActivity(QStringLiteral("Scan complete."));
        QVERIFY(activity(bar)->toolTip().isEmpty());
    }
};

QTEST_MAIN(TstStatusActivity)
#include "tst_status_activity.moc"
