#include "RedisFixture.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace redis;
using testsupport::StandaloneRedis;

// A server that stops answering without closing its sockets (a partition, `kill -STOP`) must
// not leave the connection "ready" with every later write "outcome unknown" forever.
class TstSilentServer : public QObject
{
    Q_OBJECT

    // Resumes the server whatever a failed assertion left behind, so that teardown can stop it.
    struct Resume
    {
        qint64 pid;
        ~Resume() { ::kill(pid_t(pid), SIGCONT); }
    };

    static ConnectionOptions quickOptions(const StandaloneRedis &redis)
    {
        auto o = redis.options();
        o.commandTimeoutMs = 300;
        o.connectTimeoutMs = 400;
        o.silentCloseMs = 600;
        o.reconnectMinMs = 100;
        o.reconnectMaxMs = 400;
        return o;
    }

private slots:
    void stoppedServerClosesTheConnectionThenComesBack()
    {
        StandaloneRedis local;
        QVERIFY2(local.start(), qPrintable(local.errorString()));
        auto c = local.connect(quickOptions(local));
        QVERIFY(c->call({"SET", "t:stock", "10"}).ok());

        const qint64 pid = local.server().pid();
        Resume resume{pid};
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        // Written, then silence: the caller hears "outcome unknown", as before.
        auto first = c->call({"DECRBY", "t:stock", "1"});
        QVERIFY(!first.ok());
        QVERIFY2(first.error().outcomeUnknown(), qPrintable(first.error().toString()));
        // Then the connection stops claiming to be ready, and says why.
        QTRY_VERIFY_WITH_TIMEOUT(c->state() != ConnectionState::Ready, 3000);
        QVERIFY2(c->stateDetail().contains(QLatin1String("stopped answering")),
                 qPrintable(c->stateDetail()));
        QCOMPARE(c->failure(), ConnectFailure::Timeout);
        // While it cannot reach the server, a write is refused unsent, not left unknown.
        auto whileDown = c->call({"DECRBY", "t:stock", "1"});
        QVERIFY(!whileDown.ok());
        QCOMPARE(whileDown.error().kind, RedisError::Kind::NotSent);
        QVERIFY(!whileDown.error().outcomeUnknown());

        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        QTRY_COMPARE_WITH_TIMEOUT(c->state(), ConnectionState::Ready, 5000);
        // The first write did run once the server resumed; the refused one never did.
        QCOMPARE(c->call({"GET", "t:stock"})->bytes(), QByteArray("9"));
    }

    // A command slower than the silence limit but within its own timeout is not silence.
    void slowCommandWithinItsTimeoutKeepsTheConnection()
    {
        StandaloneRedis local;
        QVERIFY2(local.start(), qPrintable(local.errorString()));
        auto o = quickOptions(local);
        auto c = local.connect(o);
        QSignalSpy states(c.get(), &RedisClient::stateChanged);
        auto r = c->call({"BLPOP", "t:never", "1"}, 3000);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QVERIFY(r->isNil());
        QCOMPARE(states.count(), 0);
        QCOMPARE(c->state(), ConnectionState::Ready);
    }

    // Keepalive is on, with a probe time of seconds rather than the kernel's two hours. Read
    // from the kernel's own table of this process's sockets, so it cannot pass by assumption.
    void keepAliveProbesAnIdleConnection()
    {
        StandaloneRedis local;
        QVERIFY2(local.start(), qPrintable(local.errorString()));
        auto o = local.options();
        o.keepAliveIdleS = 7;
        auto c = local.connect(o);
        QVERIFY(c->call({"PING"}).ok());
        const QString remotePort =
            QStringLiteral("%1").arg(local.port(), 4, 16, QLatin1Char('0')).toUpper();
        QFile table(QStringLiteral("/proc/self/net/tcp"));
        QVERIFY(table.open(QIODevice::ReadOnly));
        bool found = false;
        for (const QByteArray &raw : table.readAll().split('\n')) {
            const QList<QByteArray> f = raw.simplified().split(' ');
            // sl local rem st tx:rx tr:when ...; our side has the server's port as remote
            if (f.size() < 6 || !f[2].endsWith(':' + remotePort.toLatin1()) || f[3] != "01")
                continue;
            const QList<QByteArray> timer = f[5].split(':');
            QCOMPARE(timer.value(0), QByteArray("02")); // 2: the keepalive timer is armed
            bool ok = false;
            const qint64 ticks = timer.value(1).toLongLong(&ok, 16);
            QVERIFY(ok);
            QVERIFY2(ticks > 0 && ticks <= 7 * 100, qPrintable(QString::number(ticks)));
            found = true;
        }
        QVERIFY2(found, "no established socket to the server in /proc/self/net/tcp");
    }
};

QTEST_GUILESS_MAIN(TstSilentServer)
#include "tst_silent_server.moc"
