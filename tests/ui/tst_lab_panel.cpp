// SPDX-License-Identifier: GPL-3.0-or-later
// The Lab tab offscreen: a tiny storm run from the form shows a verdict per strategy, the
// numbers side by side and a histogram with data, while the GUI thread keeps ticking; Esc
// cancels and the keys still go; a production session gets a disabled form that says why.
#include "ServerTest.h"
#include "lab/LabAccess.h"
#include "ui/lab/LabPanel.h"
#include "ui/lab/LatencyChart.h"

#include <QApplication>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTimer>

using namespace lab;

class TstLabPanel : public testsupport::ServerTest
{
    Q_OBJECT

    qint64 labKeys()
    {
        const auto r = m_c->call({"KEYS", "*lab-*"});
        return r.ok() ? r->size() : -1;
    }

    // The function strategy alone, started from the panel; the spy sees its end.
    static std::unique_ptr<QSignalSpy> startFunctionStorm(ui::LabPanel &panel, qint64 stock,
                                                          qint64 attempts)
    {
        LabSettings s;
        s.initialStock = stock;
        s.attempts = attempts;
        s.strategies = {Strategy::FunctionV1};
        panel.setSettings(s);
        auto finished = std::make_unique<QSignalSpy>(&panel, &ui::LabPanel::runFinished);
        panel.run();
        return finished;
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
    }

    void tinyStormShowsResultsAndHistogram()
    {
        ui::LabPanel panel(LabTarget{m_redis.options(), inventory::KeySchema()}, std::nullopt);
        panel.resize(1300, 800);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        LabSettings s;
        s.initialStock = 20;
        s.connections = 8;
        s.attempts = 200;
        s.strategies = {Strategy::Naive, Strategy::FunctionV1};
        panel.setSettings(s);
        QCOMPARE(panel.settings().attempts, 200);

        // The GUI thread's longest gap between two 5 ms ticks during the storm.
        QElapsedTimer gap;
        qint64 longest = 0;
        QTimer heartbeat;
        QObject::connect(&heartbeat, &QTimer::timeout,
                         [&] { longest = std::max(longest, gap.restart()); });
        QSignalSpy finished(&panel, &ui::LabPanel::runFinished);
        QTest::keyClick(panel.findChild<QPushButton *>(QStringLiteral("labRun")), Qt::Key_Return,
                        Qt::ControlModifier);
        gap.start();
        heartbeat.start(5);
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(60000));
        heartbeat.stop();
        qInfo() << "longest GUI gap during the storm:" << longest << "ms";

        const LabReport &report = panel.lastReport();
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        QCOMPARE(report.results.size(), 2);
        auto *naive = panel.findChild<QLabel *>(QStringLiteral("verdict-naive"));
        auto *function = panel.findChild<QLabel *>(QStringLiteral("verdict-fcall-v1"));
        QVERIFY(naive && function);
        QVERIFY(function->text().contains(QLatin1String("no oversell")));
        // The card names the server the storm ran on (a primary of its own on a cluster).
        QVERIFY2(function->text().contains(QStringLiteral("on 127.0.0.1:%1").arg(m_redis.port())),
                 qPrintable(function->text()));
        // Issue 28: the naive race shows on every run whose stock runs out (StormRunner).
        QVERIFY(report.results[0].oversold() > 0);
        QVERIFY2(naive->text().contains(
                     QStringLiteral("oversold %1 unit").arg(report.results[0].oversold())),
                 qPrintable(naive->text()));
        QTableWidget *table = panel.resultsTable();
        QCOMPARE(table->columnCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("fcall-v1"));
        QVERIFY(table->horizontalHeaderItem(1)->toolTip().contains(
            QLatin1String("inventory_deduct_v1")));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("0")); // oversold, function
        QVERIFY(panel.chart()->nonEmptyBars() > 0);
        QCOMPARE(labKeys(), 0);
    }

    // Before the first storm the progress field says what Run will do, not an empty bar.
    void beforeTheFirstRunItSaysWhatRunWillDo()
    {
        ui::LabPanel panel(LabTarget{m_redis.options(), inventory::KeySchema()}, std::nullopt);
        panel.show();
        auto *progress = panel.findChild<QProgressBar *>(QStringLiteral("labProgress"));
        auto *status = panel.findChild<QLabel *>(QStringLiteral("labStatus"));
        QVERIFY(progress && status);
        QCOMPARE(progress->text(), QStringLiteral("Not run yet"));
        QVERIFY2(status->text().startsWith(QLatin1String("Not run yet: press Run storm")),
                 qPrintable(status->text()));
        QVERIFY2(status->text().contains(m_redis.options().address()), qPrintable(status->text()));
        const auto finished = startFunctionStorm(panel, 5, 10);
        QVERIFY(finished->wait(60000));
        QCOMPARE(progress->text(), QStringLiteral("100%"));
        QVERIFY2(status->text().startsWith(QLatin1String("Done")), qPrintable(status->text()));
        QCOMPARE(labKeys(), 0);
    }

    void escapeCancelsAndKeysGo()
    {
        ui::LabPanel panel(LabTarget{m_redis.options(), inventory::KeySchema()}, std::nullopt);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        const auto finished = startFunctionStorm(panel, 1000000, 5000000);
        // Under way: its keys are on the server (and 5,000,000 attempts are far from done).
        QTRY_VERIFY_WITH_TIMEOUT(labKeys() > 0, 30000);
        QVERIFY(panel.isRunning());
        QTest::keyClick(panel.findChild<QPushButton *>(QStringLiteral("labRun")), Qt::Key_Escape);
        QVERIFY(finished->wait(30000));
        QVERIFY(panel.lastReport().cancelled);
        QVERIFY(panel.lastReport().results[0].attempts < 5000000);
        QCOMPARE(labKeys(), 0);
    }

    void productionSessionIsDisabledWithAReason()
    {
        const auto refusal =
            labRefusal(profiles::Environment::Production, QStringLiteral("production"));
        ui::LabPanel panel(LabTarget{m_redis.options(), inventory::KeySchema()}, refusal);
        panel.show();
        auto *banner = panel.findChild<QLabel *>(QStringLiteral("labRefusal"));
        QVERIFY(banner && banner->text().contains(QLatin1String("labelled production")));
        QVERIFY(!panel.findChild<QPushButton *>(QStringLiteral("labRun"))->isEnabled());
        auto *status = panel.findChild<QLabel *>(QStringLiteral("labStatus"));
        QVERIFY(status);
        QCOMPARE(status->text(),
                 QStringLiteral("Not run yet: the lab is disabled on this session (see above)."));
        QSignalSpy finished(&panel, &ui::LabPanel::runFinished);
        panel.run();
        QVERIFY(!panel.isRunning());
        QCOMPARE(labKeys(), 0);
    }
};

QTEST_MAIN(TstLabPanel)
#include "tst_lab_panel.moc"
