// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QElapsedTimer>
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
        return testsupport::quickFailure(redis.options());
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
        QVERIFY2(first.error().mayHaveRun(), qPrintable(first.error().toString().english));
        // Then the connection stops claiming to be ready, and says why.
        QTRY_VERIFY_WITH_TIMEOUT(c->state() != ConnectionState::Ready, 3000);
        QVERIFY2(c->stateDetail().english.contains(QLatin1String("stopped answering")),
                 qPrintable(c->stateDetail().english));
        QCOMPARE(c->failure(), ConnectFailure::Timeout);
        // While it cannot reach the server, a write is refused unsent, not left unknown.
        auto whileDown = c->call({"DECRBY", "t:stock", "1"});
        QVERIFY(!whileDown.ok());
        QCOMPARE(whileDown.error().kind, RedisError::Kind::NotSent);
        QVERIFY(!whileDown.error().mayHaveRun());

        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        QTRY_COMPARE_WITH_TIMEOUT(c->state(), ConnectionState::Ready, 5000);
        // The first write did run once the server resumed; the refused one never did.
        QCOMPARE(c->call({"GET", "t:stock"})->bytes(), QByteArray("9"));
    }

    // One stopped node of a cluster: a deduction routed to it is "outcome unknown" within the
    // command timeout, not a hang; the other primaries' deductions go on; its connection stops
    // claiming to be ready; once resumed it serves again, and the unknown write ran once.
    void oneStoppedClusterNodeIsBoundedAndTheOthersGoOn()
    {
        testsupport::RedisCluster cluster;
        testsupport::RedisCluster::Options co;
        co.requireFullCoverage = false; // the others keep serving once they mark it failed
        QVERIFY2(cluster.start(co), qPrintable(cluster.errorString()));
        const QByteArray library =
            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        for (int i = 0; i < cluster.size(); ++i)
            QVERIFY(cluster.connectNode(i)->call({"FUNCTION", "LOAD", "REPLACE", library}).ok());

        auto router = cluster.router(testsupport::quickFailure({}));
        ClusterRouter &r = *router;
        QVERIFY(r.discovered());
        // One SKU on each node, by the router's own map.
        QMap<int, QByteArray> skuOnNode;
        for (int i = 0; skuOnNode.size() < 3 && i < 1000; ++i) {
            const QByteArray sku = "sku-" + QByteArray::number(i);
            const int owner = r.topology().ownerOf(keySlot(sku));
            const quint16 port = r.topology().nodes().at(owner).port;
            for (int n = 0; n < cluster.size(); ++n)
                if (cluster.nodes().at(n).port == port && !skuOnNode.contains(n))
                    skuOnNode.insert(n, sku);
        }
        QCOMPARE(skuOnNode.size(), 3);
        const auto stock = [](const QByteArray &sku) {
            return "stock:{" + sku + "}:available";
        };
        for (const QByteArray &sku : skuOnNode)
            QVERIFY(r.call({"SET", stock(sku), "100"}).ok());
        int order = 0;
        const auto deduct = [&](const QByteArray &sku) {
            return r.call({"FCALL", "inventory_deduct_v1", "2", stock(sku),
                           "idem:{" + sku + "}:o-" + QByteArray::number(++order), "1", "3600"});
        };

        const int stoppedNode = 1;
        const qint64 pid = cluster.pid(stoppedNode);
        Resume resume{pid};
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        QElapsedTimer waited;
        waited.start();
        const auto first = deduct(skuOnNode[stoppedNode]);
        QVERIFY(!first.ok());
        QVERIFY2(first.error().mayHaveRun(), qPrintable(first.error().toString().english));
        QVERIFY2(waited.elapsed() < 300 + 1500, qPrintable(QString::number(waited.elapsed())));
        for (int n : {0, 2}) {
            const auto other = deduct(skuOnNode[n]);
            QVERIFY2(other.ok() && other->at(0).toInteger() == 1,
                     qPrintable(testsupport::render(other)));
        }
        const int index =
            r.topology().indexOf(QStringLiteral("127.0.0.1"), cluster.nodes().at(stoppedNode).port);
        QTRY_VERIFY_WITH_TIMEOUT(r.node(index).state() != ConnectionState::Ready, 3000);
        // While it cannot be reached, a deduction is refused unsent, never left unknown.
        const auto whileDown = deduct(skuOnNode[stoppedNode]);
        QVERIFY(!whileDown.ok());
        QVERIFY2(!whileDown.error().mayHaveRun(), qPrintable(whileDown.error().toString().english));
        for (int n : {0, 2})
            QVERIFY(deduct(skuOnNode[n]).ok());

        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(r.call({"EXISTS", stock(skuOnNode[stoppedNode])}).ok(), 10000);
        // The unknown one ran once the node resumed; the refused one never did.
        QCOMPARE(r.call({"GET", stock(skuOnNode[stoppedNode])})->bytes(), QByteArray("99"));
        const auto after = deduct(skuOnNode[stoppedNode]);
        QVERIFY2(after.ok() && after->at(0).toInteger() == 1,
                 qPrintable(testsupport::render(after)));
        for (int n : {0, 2})
            QCOMPARE(r.call({"GET", stock(skuOnNode[n])})->bytes(), QByteArray("98"));
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
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString().english));
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
