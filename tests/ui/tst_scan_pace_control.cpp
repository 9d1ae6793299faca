// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser's scan pace control offscreen over a real redis-server: a production label
// starts gentle with the default cap, the expected time follows DBSIZE, and the pace chosen
// in the bar is the one the next scan runs at.
#include "ServerTest.h"

#include "browse/InventoryScan.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/ScanPaceControl.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

class TstScanPaceControl : public testsupport::ServerTest
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(), QString());
        QList<redis::Command> seed;
        for (int i = 1; i <= 500; ++i)
            seed << redis::Command{"SET", "stock:{s" + QByteArray::number(i) + "}:available", "5"};
        for (const auto &r : m_c->callBatch(seed))
            QVERIFY(r.ok());
    }

    void productionStartsGentleAndTheBarChangesThePace()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        panel.setAutoScan(false);
        panel.setEnvironment(profiles::Environment::Production);
        auto *mode = panel.findChild<QComboBox *>("scanPaceMode");
        auto *rate = panel.findChild<QSpinBox *>("scanPaceRate");
        auto *expected = panel.findChild<QLabel *>("scanPaceExpected");
        QVERIFY(mode && rate && expected);
        QCOMPARE(mode->currentText(), "Gentle scan");
        QVERIFY(rate->isEnabled());
        QCOMPARE(rate->value(), int(browse::ScanPace::DefaultGentleKeysPerSecond));
        QVERIFY(mode->toolTip().contains("labelled production: it starts gentle"));
        QCOMPARE(expected->text(), "time known after DBSIZE");

        // A gentle scan at 1000 keys/s: DBSIZE gives the expected time, and the scanner runs
        // with that cap and one page in flight.
        rate->setValue(1000);
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        panel.rescan();
        QCOMPARE(panel.inventoryScan().options().keysPerSecond, 1000);
        QCOMPARE(panel.inventoryScan().options().pagesInFlight, 1);
        QTRY_COMPARE_WITH_TIMEOUT(expected->text(), "about 1 s", 10000);
        QVERIFY2(expected->toolTip().startsWith("A scan of 500 keys at this pace takes about 1 s."),
                 qPrintable(expected->toolTip()));
        QVERIFY(scanned.wait(20000));
        QCOMPARE(scanned[0][0].toBool(), true);

        // Fast: no cap, the rate box off, and the next scan runs so.
        mode->setCurrentIndex(0);
        QVERIFY(!rate->isEnabled());
        QCOMPARE(expected->text(), "no cap");
        panel.rescan();
        QCOMPARE(panel.inventoryScan().options().keysPerSecond, 0);
        QVERIFY(panel.inventoryScan().options().pagesInFlight > 1);
        QVERIFY(scanned.wait(20000));
    }

    void localStartsFast()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        panel.setAutoScan(false);
        panel.setEnvironment(profiles::Environment::Local);
        QCOMPARE(panel.findChild<QComboBox *>("scanPaceMode")->currentText(), "Fast scan");
        QVERIFY(!panel.findChild<QSpinBox *>("scanPaceRate")->isEnabled());
    }
};

QTEST_MAIN(TstScanPaceControl)
#include "tst_scan_pace_control.moc"
