// SPDX-License-Identifier: GPL-3.0-or-later
// The embedded demo's server is never left behind: it stops with the DemoServer object, with
// the console (asked to quit or killed), and a stale one is removed on the next start.
#include "RedisFixture.h"
#include "core/BuildInfo.h"
#include "demo/DemoSeeder.h"
#include "demo/DemoServer.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using testsupport::processExists;

namespace {

// A live process, not a zombie waiting for a parent that does not reap.
bool running(qint64 pid)
{
    if (!processExists(pid))
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close > 0 && s.size() > close + 2 && s.at(close + 2) != 'Z';
}

QJsonObject readState(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()
                                       : QJsonObject();
}

QStringList stateFiles(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("demo-*.json")}, QDir::Files);
}

} // namespace

class TstDemoLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void demoStartsSeedsAndStopsWithItsObject()
    {
        QTemporaryDir stateDir;
        qint64 pid = 0;
        QString dir, stateFile;
        {
            demo::DemoServer server;
            demo::DemoServer::Options o;
            o.stateDir = stateDir.path();
            QVERIFY2(server.start(o), qPrintable(server.error().english));
            pid = server.pid();
            dir = server.directory();
            stateFile = server.stateFile();
            QVERIFY(running(pid));
            QVERIFY(QFileInfo(dir).isDir());
            const QJsonObject state = readState(stateFile);
            QCOMPARE(state.value("redis_pid").toInteger(), pid);
            QCOMPARE(state.value("port").toInt(), int(server.port()));
            QCOMPARE(state.value("dir").toString(), dir);

            redis::RedisClient client(server.connectionOptions());
            client.open();
            QVERIFY(client.waitUntilReady(3000));
            const auto seeded = demo::seedDemoBlocking(client);
            QVERIFY2(seeded.ok(), seeded.ok() ? "" : qPrintable(seeded.error().english));
            QCOMPARE(seeded->stockKeys, 240);
            QVERIFY(seeded->receipts >= 200);
            QCOMPARE(client.call({"CONFIG", "GET", "save"})->at(1).bytes(), QByteArray());
            QCOMPARE(client.call({"CONFIG", "GET", "appendonly"})->at(1).bytes(), QByteArray("no"));
            // A second console's cleanup leaves a demo whose owner is alive alone.
            QCOMPARE(demo::DemoServer::removeStale(stateDir.path()), 0);
            QVERIFY(running(pid));
        }
        QVERIFY(!processExists(pid));
        QVERIFY(!QFileInfo::exists(dir));
        QVERIFY(!QFileInfo::exists(stateFile));
    }

    // A console that died without cleaning up left a redis-server (not our child, so no
    // PDEATHSIG) and a directory; the next start kills it and removes both.
    void staleDemoIsRemovedOnNextStart()
    {
        QTemporaryDir stateDir;
        QTemporaryDir leftDir(QDir::tempPath() + QStringLiteral("/inventory-redis-XXXXXX"));
        leftDir.setAutoRemove(false);
        const quint16 port = demo::LocalRedisServer::freePort();
        qint64 pid = 0;
        QProcess left; // detached: not our child, so no PDEATHSIG, like an orphan
        left.setProgram(demo::LocalRedisServer::findExecutable());
        left.setArguments({"--port", QString::number(port), "--bind", "127.0.0.1", "--dir",
                           leftDir.path(), "--save", "", "--appendonly", "no"});
        left.setStandardOutputFile(QProcess::nullDevice());
        left.setStandardErrorFile(QProcess::nullDevice());
        QVERIFY(left.startDetached(&pid));
        auto cleanup = qScopeGuard([pid] {
            if (running(pid))
                ::kill(pid_t(pid), SIGKILL);
        });
        QTRY_VERIFY([&] {
            QTcpSocket probe;
            probe.connectToHost(QHostAddress::LocalHost, port);
            return probe.waitForConnected(100);
        }());
        const QJsonObject state{{"owner_pid", QCoreApplication::applicationPid()},
                                {"owner_start", "not-this-process"}, // a reused pid
                                {"redis_pid", pid},
                                {"port", int(port)},
                                {"dir", leftDir.path()}};
        QSaveFile f(QDir(stateDir.path()).filePath("demo-1-2.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(state).toJson());
        QVERIFY(f.commit());

        demo::DemoServer next;
        demo::DemoServer::Options o;
        o.stateDir = stateDir.path();
        QVERIFY2(next.start(o), qPrintable(next.error().english));
        QTRY_VERIFY(!running(pid));
        QVERIFY(!QFileInfo::exists(leftDir.path()));
        QCOMPARE(stateFiles(stateDir.path()), QStringList{QFileInfo(next.stateFile()).fileName()});
        QVERIFY(next.isRunning());
    }

    // The real binary: with --demo it starts a server, and SIGTERM (quit) stops it and
    // removes its files; SIGKILL leaves it to PDEATHSIG, and the state file tells the next
    // start what to clean.
    void consoleStopsItsDemo_data()
    {
        QTest::addColumn<bool>("kill");
        QTest::newRow("terminate") << false;
        QTest::newRow("kill") << true;
    }
    void consoleStopsItsDemo()
    {
        QFETCH(bool, kill);
        const QString console = qEnvironmentVariable("INVENTORY_CONSOLE");
        if (console.isEmpty() || !QFileInfo(console).isExecutable())
            QSKIP("INVENTORY_CONSOLE is not set to the built console");
        QTemporaryDir runtime;
        QFile::setPermissions(runtime.path(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString stateDir = runtime.path() + QStringLiteral("/inventory-console");
        QProcess app;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_RUNTIME_DIR", runtime.path());
        env.insert("QT_QPA_PLATFORM", "offscreen");
        app.setProcessEnvironment(env);
        app.setProcessChannelMode(QProcess::ForwardedChannels);
        app.start(console, {"--demo"});
        QVERIFY(app.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(stateFiles(stateDir).size(), 1, 15000);
        const QString stateFile = QDir(stateDir).filePath(stateFiles(stateDir).first());
        QJsonObject state;
        QTRY_VERIFY((state = readState(stateFile)).contains("redis_pid"));
        const qint64 pid = state.value("redis_pid").toInteger();
        const QString dir = state.value("dir").toString();
        QVERIFY(running(pid));
        if (kill) {
            app.kill();
        } else {
            app.terminate();
        }
        QVERIFY(app.waitForFinished(10000));
        if (!kill)
            QCOMPARE(app.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 5000);
        if (!kill) {
            QVERIFY(!QFileInfo::exists(stateFile));
            QVERIFY(!QFileInfo::exists(dir));
            return;
        }
        QVERIFY(QFileInfo::exists(stateFile)); // nobody could clean up: the next start does
        QCOMPARE(demo::DemoServer::removeStale(stateDir), 1);
        QVERIFY(!QFileInfo::exists(stateFile));
        QVERIFY(!QFileInfo::exists(dir));
    }

    void versionAndHelp()
    {
        const QString console = qEnvironmentVariable("INVENTORY_CONSOLE");
        if (console.isEmpty() || !QFileInfo(console).isExecutable())
            QSKIP("INVENTORY_CONSOLE is not set to the built console");
        QProcess p;
        p.start(console, {"--version"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray version = p.readAllStandardOutput();
        QVERIFY2(version.contains(core::projectVersion().toUtf8()), version.constData());
        // A build from a git checkout names its commit, so a bug report says which build.
        QVERIFY2(version.contains("(commit ") == !core::buildCommit().isEmpty(),
                 version.constData());
        p.start(console, {"--help"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("--demo"));
    }
};

QTEST_MAIN(TstDemoLifecycle)
#include "tst_demo_lifecycle.moc"
