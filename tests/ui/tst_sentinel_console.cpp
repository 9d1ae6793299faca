// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChildWidget.h"
#include "SentinelFixture.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConsoleController.h"
#include "ui/MainWindow.h"
#include "ui/common/NoticeBanner.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using profiles::ConnectionProfile;
using testsupport::child;
using testsupport::SentinelGroup;

namespace {
QString sentinelStatus(ui::MainWindow *window)
{
    return child<QLabel>(window, "sentinelStatus")->property("plainText").toString();
}

ui::MainWindow *lastWindow()
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *window = qobject_cast<ui::MainWindow *>(w); window && window->isVisible())
            return window;
    return nullptr;
}

QMessageBox *visibleBox(const char *name)
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *box = qobject_cast<QMessageBox *>(w);
            box && box->isVisible() && box->objectName() == QLatin1String(name))
            return box;
    return nullptr;
}
} // namespace

// The console behind Sentinel as a user meets it, on a real primary, replica and sentinel
// trio: the Sentinel tab round-trips a profile and names its problems; opening the profile
// asks the sentinels for the primary and the window connects there; a failover shows in the
// status bar as "primary moved from A to B at HH:mm" with the window on B; a wrong master
// name opens nothing and says why.
class TstSentinelConsole : public QObject
{
    Q_OBJECT

    SentinelGroup m_group;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;

    ConnectionProfile profile(const QString &master = QStringLiteral("mymaster")) const
    {
        ConnectionProfile p;
        p.name = QStringLiteral("orders behind sentinel");
        p.environment = QStringLiteral("test");
        p.sentinel.masterName = master;
        p.sentinel.sentinels = QStringLiteral("127.0.0.1:%1, 127.0.0.1:%2, 127.0.0.1:%3")
                                   .arg(m_group.sentinelPort(0))
                                   .arg(m_group.sentinelPort(1))
                                   .arg(m_group.sentinelPort(2));
        p.timeoutMs = 3000;
        return p;
    }
    QString dataAddress(int index) const
    {
        return QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(index));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("console.ini")),
                                                 QSettings::IniFormat);
        QVERIFY2(m_group.start(), qPrintable(m_group.errorString()));
        const QString settled = m_group.waitUntilSettled();
        QVERIFY2(settled.isEmpty(), qPrintable(settled));
    }

    void sentinelTabRoundTripsAProfileAndNamesItsProblems()
    {
        profiles::ProfileStore store(m_settings.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ui::ConnectionDialog dialog(store, secrets);
        ConnectionProfile p = profile();
        p.sentinel.username = QStringLiteral("watcher");
        dialog.setProfile(p);
        QVERIFY(dialog.save());
        const auto saved = store.find(p.name);
        QVERIFY(saved);
        QCOMPARE(saved->sentinel.masterName, p.sentinel.masterName);
        QCOMPARE(saved->sentinel.sentinels, p.sentinel.sentinels);
        QCOMPARE(saved->sentinel.username, p.sentinel.username);
        // The sentinels name the server: host and port are not asked.
        QVERIFY(!child<QLineEdit>(&dialog, "hostEdit")->isEnabled());
        QVERIFY(!child<QSpinBox>(&dialog, "portSpin")->isEnabled());

        // Unlabelled, the form shows what the session will be: production.
        ConnectionProfile unlabelled = profile();
        unlabelled.environment.clear();
        dialog.setProfile(unlabelled);
        QCOMPARE(child<QComboBox>(&dialog, "environmentCombo")->currentData().toString(),
                 QStringLiteral("production"));

        // A bad list is named under the field as it is typed; saving is refused on its tab.
        child<QLineEdit>(&dialog, "sentinelListEdit")->setText(QStringLiteral("127.0.0.1:99999"));
        QVERIFY(child<QLabel>(&dialog, "sentinelListNote")->text().contains("port"));
        QVERIFY(!dialog.save());
        auto *tabs = child<QTabWidget>(&dialog, "profileTabs");
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Sentinel"));

        // No master name: host and port are back.
        child<QLineEdit>(&dialog, "sentinelMasterEdit")->clear();
        QVERIFY(child<QLineEdit>(&dialog, "hostEdit")->isEnabled());
    }

    // A pasted redis-sentinel:// URL fills the Sentinel tab; Test connection asks the
    // sentinels and tests the primary they name, never the greyed-out host and port.
    void aSentinelUrlFillsTheTabAndTheTestReachesThePrimary()
    {
        profiles::ProfileStore store(m_settings.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ui::ConnectionDialog dialog(store, secrets);
        dialog.setProfile(ConnectionProfile{}); // a new one: the URL names it
        QVERIFY(dialog.fillFromUrl(
            QStringLiteral("redis-sentinel://127.0.0.1:%1,127.0.0.1:%2/0#mymaster")
                .arg(m_group.sentinelPort(0))
                .arg(m_group.sentinelPort(1))));
        const ConnectionProfile p = dialog.profile();
        QCOMPARE(p.name, QStringLiteral("mymaster"));
        QCOMPARE(p.sentinel.masterName, QStringLiteral("mymaster"));
        QCOMPARE(p.sentinel.sentinels, QStringLiteral("127.0.0.1:%1, 127.0.0.1:%2")
                                           .arg(m_group.sentinelPort(0))
                                           .arg(m_group.sentinelPort(1)));
        auto *tabs = child<QTabWidget>(&dialog, "profileTabs");
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Sentinel"));

        std::optional<QString> outcome; // empty when connected, else why not
        connect(&dialog, &ui::ConnectionDialog::testFinished, this,
                [&outcome](const session::ProbeResult &r) {
                    outcome = r.ok() ? QString() : r.error().message.english;
                });
        dialog.startTest();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 15000);
        QVERIFY2(outcome->isEmpty(), qPrintable(*outcome));
        const auto *results = child<QTreeWidget>(&dialog, "testResults");
        QList<QTreeWidgetItem *> rows =
            results->findItems(QStringLiteral("Sentinel"), Qt::MatchExactly, 0);
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows.first()->text(1).contains(dataAddress(m_group.primary())),
                 qPrintable(rows.first()->text(1)));
    }

    void aFailoverShowsInTheStatusBarAndTheWindowFollows()
    {
        const int a = m_group.primary();
        QVERIFY(a >= 0);
        const int b = 1 - a;
        ui::ConsoleController controller;
        QVERIFY(!controller.openSession(profile(), {})); // asks the sentinels first
        QTRY_VERIFY_WITH_TIMEOUT(lastWindow(), 15000);
        ui::MainWindow *window = lastWindow();
        QCOMPARE(window->client().address(), dataAddress(a));
        QCOMPARE(sentinelStatus(window), QStringLiteral("via Sentinel 'mymaster'"));
        QVERIFY(window->windowTitle().contains(dataAddress(a)));
        QTRY_COMPARE_WITH_TIMEOUT(window->client().state(), redis::ConnectionState::Ready, 10000);

        const QString failed = m_group.failover();
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QTRY_VERIFY_WITH_TIMEOUT(
            sentinelStatus(window).startsWith(QStringLiteral("primary moved from %1 to %2 at ")
                                                  .arg(dataAddress(a), dataAddress(b))),
            15000);
        QVERIFY(window->windowTitle().contains(dataAddress(b)));
        QVERIFY(child<QLabel>(window, "serverAddress")->text().contains(dataAddress(b)));
        QVERIFY(child<QLabel>(window, "sentinelStatus")->toolTip().contains("outcome unknown"));
        QTRY_COMPARE_WITH_TIMEOUT(window->client().state(), redis::ConnectionState::Ready, 10000);
        // The overview, read from B now, says what a move means; never that a server restarted
        // and lost its receipts.
        auto *identity = child<ui::NoticeBanner>(window, "identityChanged");
        QTRY_VERIFY_WITH_TIMEOUT(
            identity->text().contains(
                QStringLiteral("primary moved from %1 to %2").arg(dataAddress(a), dataAddress(b))),
            15000);
        QVERIFY(!identity->text().contains(QLatin1String("restarted")));
        QVERIFY(!child<QLabel>(window, "statusActivity")->text().contains("RESTARTED"));
        // The Libraries tab names the server it reads now.
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QLabel>(window, "librariesTitle")->text().contains(dataAddress(b)), 15000);
        const auto role = window->client().call({"ROLE"}, 3000);
        QVERIFY(role.ok());
        QCOMPARE(role->at(0).bytes(), QByteArray("master"));
        window->close();
    }

    void aWrongMasterNameOpensNothingAndSaysWhy()
    {
        ui::ConsoleController controller;
        QVERIFY(!controller.openSession(profile(QStringLiteral("nosuchmaster")), {}));
        QTRY_VERIFY_WITH_TIMEOUT(visibleBox("sentinelFailureBox"), 15000);
        QMessageBox *box = visibleBox("sentinelFailureBox");
        QVERIFY(box->text().contains("nosuchmaster"));
        QVERIFY(box->informativeText().contains("SENTINEL MASTERS"));
        QVERIFY(!lastWindow());
        box->close();
    }
};

QTEST_MAIN(TstSentinelConsole)
#include "tst_sentinel_console.moc"
