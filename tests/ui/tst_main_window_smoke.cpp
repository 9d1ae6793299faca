// SPDX-License-Identifier: GPL-3.0-or-later
// The main window against a real redis-server, offscreen: the status bar shows what INFO
// says, the overview lists libraries after they are loaded, and failures show up in place.
#include "RedisFixture.h"
#include "TcpRelay.h"
#include "TransportThreadHold.h"
#include "inventory/AuditLog.h"
#include "inventory/AuditQuery.h"
#include "overview/OverviewPoller.h"
#include "overview/ServerOverview.h"
#include "redis/LibraryList.h"
#include "ui/ConnectionStatusWidget.h"
#include "ui/LibraryTableModel.h"
#include "ui/MainWindow.h"
#include "ui/ShortcutsDialog.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/OrderLookupView.h"
#include "ui/deduct/AuditViewerPanel.h"
#include "ui/deduct/ConfirmDeductionDialog.h"
#include "ui/deduct/DeductionPanel.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using testsupport::StandaloneRedis;

namespace {

QString labelText(QWidget *root, const char *name)
{
    auto *l = root->findChild<QLabel *>(QLatin1String(name));
    return l ? l->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

QString stateText(QWidget *root)
{
    auto *l = root->findChild<QLabel *>(QStringLiteral("connectionState"));
    return l ? l->property("plainText").toString() : QString();
}

bool visible(QWidget *root, const char *name)
{
    auto *w = root->findChild<QWidget *>(QLatin1String(name));
    return w && w->isVisible();
}

std::unique_ptr<ui::MainWindow> openWindow(const redis::ConnectionOptions &o,
                                           profiles::Environment env)
{
    profiles::ConnectionProfile profile;
    profile.name = QStringLiteral("smoke");
    profile.host = o.host;
    profile.port = o.port;
    profile.environment = profiles::environmentName(env);
    auto w = std::make_unique<ui::MainWindow>(
        std::make_unique<session::ConsoleSession>(profile, o.password));
    w->resize(1400, 900);
    w->show();
    return w;
}

} // namespace

class TstMainWindowSmoke : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;

private slots:
    void initTestCase() { QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString())); }

    void statusBarShowsTheServer()
    {
        auto admin = m_redis.connect();
        const QString server = testsupport::serverLabel(*admin);
        QVERIFY(!server.isEmpty());

        auto w = openWindow(m_redis.options(), profiles::Environment::Test);
        const QString address = QStringLiteral("127.0.0.1:%1").arg(m_redis.port());
        QCOMPARE(w->windowTitle(), QStringLiteral("Inventory Console — ") + address);
        QTRY_VERIFY2(stateText(w.get()).startsWith("Connected"), qPrintable(stateText(w.get())));
        QTRY_COMPARE(labelText(w.get(), "serverVersion"), server);
        QCOMPARE(labelText(w.get(), "serverMode"), QStringLiteral("standalone"));
        QCOMPARE(labelText(w.get(), "serverRole"), QStringLiteral("primary"));
        // The ACL user and whether TLS is on, next to the address (issue 12).
        QCOMPARE(labelText(w.get(), "serverAddress"), "default@" + address + " · no TLS");
        QCOMPARE(labelText(w.get(), "environmentBadge"), QStringLiteral("TEST"));
        QVERIFY(labelText(w.get(), "environmentStrip").startsWith("TEST · " + address));
        // The overview panel
        QCOMPARE(labelText(w.get(), "versionValue"), server);
        QCOMPARE(labelText(w.get(), "memoryLimitValue"), QStringLiteral("no limit"));
        QVERIFY(!labelText(w.get(), "uptimeValue").isEmpty());
        QCOMPARE(labelText(w.get(), "keyCountValue"),
                 QLocale().toString(admin->call({"DBSIZE"})->toInteger()));
    }

    void overviewListsALoadedLibrary()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"FUNCTION", "FLUSH"}).ok());
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        auto *table = w->findChild<QTableView *>(QStringLiteral("librariesTable"));
        QVERIFY(table);
        auto *model = qobject_cast<ui::LibraryTableModel *>(table->model());
        QVERIFY(model);
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(labelText(w.get(), "librariesMessage").contains("No function libraries"));
        QVERIFY(visible(w.get(), "librariesMessage"));
        QVERIFY(!table->isVisible());

        const auto load = admin->call(
            {"FUNCTION", "LOAD", "REPLACE", testsupport::functionSource("inventory_lib_v1.lua")});
        QVERIFY2(load.ok(), qPrintable(load.ok() ? QString() : load.error().message.english));
        w->refreshAction()->trigger();
        QTRY_COMPARE(model->rowCount(), 1);
        using C = ui::LibraryTableModel;
        QCOMPARE(model->index(0, C::Library).data().toString(), QStringLiteral("inventory_lib_v1"));
        const auto listed = redis::decodeFunctionList(admin->call({"FUNCTION", "LIST"}).value());
        QVERIFY(listed.ok() && listed->size() == 1);
        QCOMPARE(model->index(0, C::Functions).data().toInt(), listed->first().functions.size());
        QCOMPARE(model->index(0, C::Engine).data().toString(), QStringLiteral("LUA"));
        QVERIFY(model->index(0, C::Names).data().toString().contains("inventory_deduct_v1"));
        QVERIFY(table->isVisible());
        QCOMPARE(labelText(w.get(), "libraryCountValue"), QStringLiteral("1"));
    }

    void f5RefreshesAndTheTimerToo()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        QCOMPARE(w->refreshAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        QSignalSpy refreshed(&w->poller(), &overview::OverviewPoller::refreshed);
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QTest::keyClick(w.get(), Qt::Key_F5);
        QTRY_VERIFY(refreshed.count() >= 1);
        w->poller().setInterval(100);
        const auto before = refreshed.count();
        QTRY_VERIFY(refreshed.count() >= before + 2);
    }

    void evictionWarningFollowsThePolicy()
    {
        auto admin = m_redis.connect();
        auto w = openWindow(m_redis.options(), profiles::Environment::Staging);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        QVERIFY(admin->call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}).ok());
        QVERIFY(admin->call({"CONFIG", "SET", "maxmemory", "512mb"}).ok());
        w->refreshAction()->trigger();
        QTRY_VERIFY(visible(w.get(), "evictionWarning"));
        QVERIFY(labelText(w.get(), "evictionWarning").contains("allkeys-lru"));
        QCOMPARE(labelText(w.get(), "memoryLimitValue"), QStringLiteral("512.0 MiB"));
        QVERIFY(visible(w.get(), "memoryBar"));
        QVERIFY(admin->call({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).ok());
        QVERIFY(admin->call({"CONFIG", "SET", "maxmemory", "0"}).ok());
        w->refreshAction()->trigger();
        QTRY_VERIFY(!visible(w.get(), "evictionWarning"));
        QCOMPARE(labelText(w.get(), "evictionPolicyValue"), QStringLiteral("noeviction"));
        QCOMPARE(labelText(w.get(), "memoryLimitValue"), QStringLiteral("no limit"));
    }

    // The server goes away: the status bar says reconnecting with the transport's detail,
    // the panel shows the failed refresh; when it is back, both recover.
    void lostServerIsShownAndRecovered()
    {
        StandaloneRedis local;
        QVERIFY(local.start());
        auto o = local.options();
        o.reconnectMinMs = 50;
        o.reconnectMaxMs = 300;
        auto w = openWindow(o, profiles::Environment::Production);
        QCOMPARE(labelText(w.get(), "environmentBadge"), QStringLiteral("PRODUCTION"));
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        QTRY_VERIFY(labelText(w.get(), "overviewUpdated").startsWith("Updated"));
        local.server().kill();
        QTRY_VERIFY2(stateText(w.get()).startsWith("Reconnecting: "),
                     qPrintable(stateText(w.get())));
        QTRY_VERIFY(visible(w.get(), "reconnectButton")); // offered as soon as it is lost
        w->refreshAction()->trigger();
        QTRY_VERIFY(visible(w.get(), "overviewError"));
        QTRY_VERIFY2(labelText(w.get(), "overviewError").contains("Could not refresh"),
                     qPrintable(labelText(w.get(), "overviewError")));
        QVERIFY(local.restart());
        QTRY_VERIFY_WITH_TIMEOUT(stateText(w.get()).startsWith("Connected"), 8000);
        QTRY_VERIFY(!visible(w.get(), "overviewError"));
    }

    // Nothing answers: the overview says why instead of waiting for a first answer, and
    // File > Reconnect (or the banner's button) connects once the server is back.
    void refusedConnectionSaysWhyAndReconnects()
    {
        StandaloneRedis local;
        QVERIFY(local.start());
        const auto o = local.options();
        local.server().kill();
        auto w = openWindow(o, profiles::Environment::Test);
        QTRY_VERIFY2(
            labelText(w.get(), "librariesMessage").startsWith("No answer from the server: "),
            qPrintable(labelText(w.get(), "librariesMessage")));
        QVERIFY(visible(w.get(), "reconnectButton"));
        QVERIFY(visible(w.get(), "overviewError")); // "Not connected" or the failed refresh
        QCOMPARE(w->reconnectAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        QVERIFY(local.restart());
        w->reconnectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(stateText(w.get()).startsWith("Connected"), 8000);
        QTRY_VERIFY(!visible(w.get(), "reconnectButton"));
    }

    // A production window starts read-only and says so; typing the profile name unlocks it
    // for this session only.
    void productionStartsReadOnly()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Production);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        QVERIFY2(labelText(w.get(), "environmentStrip").contains("READ-ONLY"),
                 qPrintable(labelText(w.get(), "environmentStrip")));
        auto refused = w->session().sender().call({"SET", "smoke:key", "1"});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, redis::RedisError::Kind::NotSent);
        QVERIFY(w->session().client().call({"EXISTS", "smoke:key"})->toInteger() == 0);
        QVERIFY(!w->session().gate().unlock(QStringLiteral("wrong name")));
        QVERIFY(w->session().gate().unlock(QStringLiteral("smoke")));
        QTRY_VERIFY(labelText(w.get(), "environmentStrip").contains("WRITES UNLOCKED"));
        QVERIFY(w->session().sender().call({"SET", "smoke:key", "1"}).ok());
    }
    // "Local" is shown only with its proof (issue 28): the server the test started is local
    // and the strip's tooltip names its process; the same server through a loopback relay (a
    // tunnel, a port-forward) turns production, read-only, and the strip says why.
    void localIsShownOnlyWithItsProof()
    {
        auto direct = openWindow(m_redis.options(), profiles::Environment::Local);
        QTRY_VERIFY(!direct->session().gate().evidence().checking());
        QCOMPARE(direct->environment(), profiles::Environment::Local);
        auto *strip = direct->findChild<QLabel *>(QStringLiteral("environmentStrip"));
        QVERIFY2(strip->toolTip().contains(QLatin1String(" (process ")),
                 qPrintable(strip->toolTip()));
        // Every tab's confirmations follow the proof, not the label the window opened with
        // (the Deductions confirm said PRODUCTION on a proven local session).
        QCOMPARE(direct->findChild<ui::DeductionPanel *>()->environment(),
                 profiles::Environment::Local);

        testsupport::TcpRelay relay;
        QVERIFY(relay.start(m_redis.port()).isEmpty());
        auto o = m_redis.options();
        o.port = relay.port();
        auto tunnel = openWindow(o, profiles::Environment::Local);
        QTRY_VERIFY(!tunnel->session().gate().evidence().checking());
        QCOMPARE(tunnel->environment(), profiles::Environment::Production);
        QCOMPARE(tunnel->findChild<ui::DeductionPanel *>()->environment(),
                 profiles::Environment::Production);
        QTRY_VERIFY(labelText(tunnel.get(), "environmentStrip").contains("READ-ONLY"));
        QVERIFY2(labelText(tunnel.get(), "environmentStrip").contains("not proven local"),
                 qPrintable(labelText(tunnel.get(), "environmentStrip")));
        strip = tunnel->findChild<QLabel *>(QStringLiteral("environmentStrip"));
        QVERIFY2(strip->toolTip().contains(QLatin1String("a tunnel, port-forward or relay")),
                 qPrintable(strip->toolTip()));
        QVERIFY(!tunnel->session().sender().call({"SET", "smoke:tunnel", "1"}).ok());
    }

    // Deductions go through the same gate on connections of their own, read on the GUI
    // thread: refused while read-only, and answered while the shared transport thread is
    // held, so a deduction pays no thread hop.
    void deductionsHaveTheirOwnLaneThroughTheGate()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Production);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        auto refused = w->session().deductionSender().call({"SET", "smoke:lane", "1"});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, redis::RedisError::Kind::NotSent);
        QVERIFY(w->session().gate().unlock(QStringLiteral("smoke")));
        {
            testsupport::TransportThreadHold hold;
            std::optional<redis::ReplyResult> written;
            w->session().deductionSender().send({"SET", "smoke:lane", "2"}, this,
                                                [&](const redis::ReplyResult &r) { written = r; });
            QTRY_VERIFY_WITH_TIMEOUT(written.has_value(), 3000);
            QVERIFY2(written->ok(),
                     written->ok() ? "" : qPrintable(written->error().message.english));
        }
        QCOMPARE(w->session().client().call({"GET", "smoke:lane"})->bytes(), QByteArray("2"));
    }

    // The deduction lane opens on the first command sent through it: a session that never
    // deducts keeps no connection of it on the server.
    void theDeductionLaneOpensOnFirstUse()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        const auto lanes = [this](const QByteArray &name) {
            const auto list = m_redis.connect()->call({"CLIENT", "LIST"});
            return list->bytes().count("name=inventory-console-" + name + " ");
        };
        // The lane the session opens at start has connected; the deductions' lane was never
        // even opened, so no connection of it is on its way either (the server may still list
        // an earlier test's window's for a moment).
        QTRY_VERIFY_WITH_TIMEOUT(lanes("scans") >= 1, 10000);
        QVERIFY(!w->session().deductionRouter().opened());
        QTRY_COMPARE(lanes("deductions"), 0);
        const auto read = w->session().deductionSender().call({"GET", "smoke:lane"}, 5000);
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message.english));
        QVERIFY(w->session().deductionRouter().opened());
        QCOMPARE(lanes("deductions"), 1);
    }

    // The key browser reads through a lane of its own, on the GUI thread, open from the start
    // (its scan asks for the nodes to walk before sending anything).
    void theKeyBrowserScansThroughItsOwnLane()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        const auto lane = [this] {
            const auto list = m_redis.connect()->call({"CLIENT", "LIST"});
            for (const QByteArray &line : list->bytes().split('\n'))
                if (line.contains(" name=inventory-console-scans "))
                    return line;
            return QByteArray();
        };
        QTRY_VERIFY(!lane().isEmpty());
        const auto commandsOn = [&] {
            const QByteArray line = lane();
            const qsizetype at = line.indexOf(" cmd=");
            return at < 0 ? QByteArray() : line.mid(at + 5, line.indexOf(' ', at + 5) - at - 5);
        };
        ui::BrowserPanel *browser = w->findChild<ui::BrowserPanel *>();
        QVERIFY(browser);
        browser->rescan();
        QTRY_VERIFY_WITH_TIMEOUT(browser->inventoryScan().isComplete(), 10000);
        // CLIENT LIST names the last command each connection ran: the scan's, on this lane.
        const QByteArray last = commandsOn();
        QVERIFY2(last == "scan" || last == "pttl" || last == "get" || last == "exists"
                     || last == "dbsize" || last == "type" || last == "hmget",
                 last.constData());
        QVERIFY(w->session().scanRouter().seed().options().onCallerThread);
    }

    // Every table's column titles are words for people: a code name ("readiness::Verdict")
    // once leaked into the Readiness tab's header through a rename.
    void tableHeadersAreWordsNotCodeNames()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        int headers = 0;
        for (const QAbstractItemView *view : w->findChildren<QAbstractItemView *>()) {
            const QAbstractItemModel *model = view->model();
            if (!model)
                continue;
            for (int c = 0; c < model->columnCount(); ++c) {
                const QString title = model->headerData(c, Qt::Horizontal).toString();
                QVERIFY2(!title.contains(QLatin1String("::")) && !title.contains(QLatin1Char('_')),
                         qPrintable(view->objectName() + QLatin1String(": ") + title));
                headers += !title.isEmpty();
            }
        }
        QVERIFY2(headers > 40, qPrintable(QString::number(headers))); // every tab's tables
    }

    // "Show in audit log" in an order lookup lands on the Audit log tab, on that order.
    void orderLookupOpensItsAuditRecords()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        auto *browser = w->findChild<ui::BrowserPanel *>();
        auto *audit = w->findChild<ui::AuditViewerPanel *>();
        QVERIFY(browser && audit);
        QVERIFY(w->showTab("keys"));
        emit browser->auditRecordsRequested(QStringLiteral("sku-1001"), QStringLiteral("o-42"));
        QCOMPARE(w->tabs()->currentWidget(), audit);
        QCOMPARE(audit->orderShown(), QStringLiteral("o-42"));
    }

    // A deduction this console recorded on a server that then restarted is marked in the
    // audit viewer once the overview reads the new run_id: its receipt may be gone.
    void auditRowsWrittenBeforeARestartAreMarked()
    {
        StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const QString address = QStringLiteral("127.0.0.1:%1").arg(redis.port());
        const QByteArray info = redis.connect()->call({"INFO", "server"})->bytes();
        const QString runId =
            QString::fromLatin1(info.mid(info.indexOf("run_id:") + 7, 40)).trimmed();
        QCOMPARE(runId.size(), 40);

        auto w = openWindow(redis.options(), profiles::Environment::Local);
        auto *audit = w->findChild<ui::AuditViewerPanel *>();
        inventory::AuditRecord r;
        r.action = QStringLiteral("deduct");
        r.server = address;
        r.runId = runId;
        r.command = {"FCALL", "inventory_deduct_v1", "2", "stock:{7}:available", "idem:{7}:1", "1",
                     "60"};
        r.result = QStringLiteral("deducted: remaining 9");
        QVERIFY(inventory::AuditLog(audit->auditLogPath()).append(r).ok());
        audit->reload();
        const auto serverCell = [&] {
            return audit->model()->index(0, inventory::AuditTableModel::Server).data().toString();
        };
        QTRY_VERIFY(stateText(w.get()).startsWith("Connected"));
        QTRY_VERIFY(!labelText(w.get(), "uptimeValue").isEmpty());
        QCOMPARE(serverCell(), address); // the same process answers: nothing to say

        QVERIFY(redis.restart());
        QVERIFY(QTest::qWaitFor(
            [&] {
                w->refreshAction()->trigger();
                return serverCell() != address;
            },
            30000));
        QCOMPARE(serverCell(), address + " (run_id changed since)");
        QVERIFY2(labelText(audit, "auditStatus")
                     .contains("1 written on a server process that no "
                               "longer answers there"),
                 qPrintable(labelText(audit, "auditStatus")));
    }

    // Ctrl+F from any tab opens the order lookup with its input focused; Help > Keyboard
    // shortcuts lists every shortcut, read from the actions themselves.
    void findOrderFromAnyTabAndTheShortcutList()
    {
        auto w = openWindow(m_redis.options(), profiles::Environment::Local);
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QCOMPARE(w->findOrderAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F));
        QVERIFY(w->showTab("deductions"));
        QTest::keyClick(w.get(), Qt::Key_F, Qt::ControlModifier);
        auto *browser = w->findChild<ui::BrowserPanel *>();
        QCOMPARE(w->tabs()->currentWidget(), browser);
        QCOMPARE(browser->tabs()->currentWidget(), browser->orderView());
        auto *input = browser->orderView()->findChild<QLineEdit *>("orderIdInput");
        QTRY_VERIFY(input->hasFocus());

        const QList<ui::ShortcutEntry> entries = ui::collectShortcuts(w.get());
        auto has = [&](const QString &keys, const QString &what) {
            for (const ui::ShortcutEntry &e : entries)
                if (e.keys == keys && e.description == what)
                    return true;
            return false;
        };
        QVERIFY(has(QKeySequence(Qt::CTRL | Qt::Key_F).toString(QKeySequence::NativeText),
                    "Find order"));
        QVERIFY(has("F5", "Refresh"));
        QVERIFY(has(QKeySequence(Qt::CTRL | Qt::Key_2).toString(QKeySequence::NativeText),
                    "Show the Keys tab"));
        // Every action that has a shortcut is listed: none is left out or nameless.
        int withShortcut = 0;
        for (const QAction *a : w->findChildren<QAction *>())
            withShortcut += !a->shortcut().isEmpty();
        QCOMPARE(entries.size(), withShortcut);
        ui::ShortcutsDialog dialog(w.get());
        QCOMPARE(dialog.table()->rowCount(), int(entries.size()));
    }
};

QTEST_MAIN(TstMainWindowSmoke)
#include "tst_main_window_smoke.moc"
