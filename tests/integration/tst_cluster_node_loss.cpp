// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "browse/InventoryScan.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace redis;
using testsupport::RedisCluster;

// A primary lost in the middle of a key scan, stopped (kill -STOP) or killed (SIGKILL): the
// scan names that node and still shows the others' keys. A killed primary's replica takes
// over after the node timeout, and the router finds the new primary by itself.
class TstClusterNodeLoss : public QObject
{
    Q_OBJECT

    static constexpr int Skus = 2000;

    static QByteArray stockKey(int i)
    {
        return "stock:{sku-" + QByteArray::number(i) + "}:available";
    }

    static bool seed(ClusterRouter &r)
    {
        QList<Command> seed;
        for (int i = 0; i < Skus; ++i) {
            seed << Command{"SET", stockKey(i), "100"};
            seed << Command{"SET", "idem:{sku-" + QByteArray::number(i) + "}:o-1", "99", "EX",
                            "3600"};
        }
        for (const auto &result : r.callBatch(seed, 20000))
            if (!result.ok())
                return false;
        return true;
    }

    // The node index of the primary that owns sku-0 (as the router sees it).
    static int ownerOfFirstSku(const RedisCluster &cluster, ClusterRouter &r)
    {
        const int owner = r.topology().ownerOf(keySlot(stockKey(0)));
        for (int i = 0; owner >= 0 && i < cluster.size(); ++i)
            if (cluster.nodes().at(i).port == r.topology().nodes().at(owner).port)
                return i;
        return -1;
    }

    // A seeded stock key whose slot the node on `port` owns (as the router sees it), or empty.
    static QByteArray stockKeyServedBy(ClusterRouter &r, quint16 port)
    {
        for (int i = 0; i < Skus; ++i) {
            const int owner = r.topology().ownerOf(keySlot(stockKey(i)));
            if (owner >= 0 && r.topology().nodes().at(owner).port == port)
                return stockKey(i);
        }
        return {};
    }

    // 3+3, a replica taking over 1.5 s after its primary went silent.
    static RedisCluster::Options withReplicas()
    {
        RedisCluster::Options o;
        o.replicasPerPrimary = 1;
        o.nodeTimeoutMs = 1500;
        return o;
    }

    static qint64 stockKeysOn(const RedisCluster &cluster, int node)
    {
        auto keys = cluster.connectNode(node)->call({"KEYS", "stock:*"});
        return keys.ok() ? keys->size() : -1;
    }

    // Scans with small pages, one in flight per node, and runs `strike` on the first page.
    struct ScanResult
    {
        bool complete = true;
        QString error;
        qint64 skus = 0;
        qint64 nodeNamedKeysSeen = -1;
    };
    static ScanResult scanStriking(ClusterRouter &r, const std::function<void()> &strike,
                                   int timeoutMs)
    {
        browse::InventoryScan scan(r, inventory::KeySchema());
        QSignalSpy finished(&scan, &browse::InventoryScan::finished);
        bool struck = false;
        QObject::connect(&scan, &browse::InventoryScan::progress, &scan, [&] {
            if (!struck) {
                struck = true;
                strike();
            }
        });
        browse::InventoryScan::Options o;
        o.count = 50;
        o.pagesInFlight = 1;
        o.timeoutMs = timeoutMs;
        scan.start(o);
        ScanResult out;
        if (!finished.wait(30000)) {
            out.error = QStringLiteral("the scan did not finish");
            return out;
        }
        out.complete = finished.first().at(0).toBool();
        out.error = finished.first().at(1).toString();
        out.skus = qint64(scan.store().skuCount());
        return out;
    }

private slots:
    void aPrimaryStoppedMidScanIsNamed()
    {
        RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto r = cluster.router(800);
        QVERIFY(seed(*r));
        const int stopped = ownerOfFirstSku(cluster, *r);
        QVERIFY(stopped >= 0);
        qint64 elsewhere = 0;
        for (int i = 0; i < cluster.size(); ++i)
            if (i != stopped)
                elsewhere += stockKeysOn(cluster, i);
        const qint64 pid = cluster.pid(stopped);
        const auto resume = qScopeGuard([pid] { ::kill(pid_t(pid), SIGCONT); });

        const ScanResult s = scanStriking(
            *r, [pid] { QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0); }, 800);
        QVERIFY(!s.complete);
        const QString name = cluster.nodes().at(stopped).address();
        QVERIFY2(s.error.contains(name), qPrintable(s.error));
        QVERIFY2(s.error.contains(QLatin1String("other nodes are shown")), qPrintable(s.error));
        for (int i = 0; i < cluster.size(); ++i)
            if (i != stopped)
                QVERIFY2(!s.error.contains(cluster.nodes().at(i).address()), qPrintable(s.error));
        // Every key of the other primaries, and only what the stopped one gave before.
        QVERIFY2(s.skus >= elsewhere && s.skus < Skus,
                 qPrintable(QStringLiteral("%1 SKUs, %2 elsewhere").arg(s.skus).arg(elsewhere)));

        // Resumed, it answers again and a second scan is complete.
        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(r->call({"GET", stockKey(0)}).ok(), 10000);
        const ScanResult again = scanStriking(
            *r, [] {}, 5000);
        QVERIFY2(again.complete, qPrintable(again.error));
        QCOMPARE(again.skus, qint64(Skus));
    }

    void aPrimaryKilledMidScanIsNamedAndItsReplicaTakesOver()
    {
        RedisCluster cluster;
        QVERIFY2(cluster.start(withReplicas()), qPrintable(cluster.errorString()));
        auto r = cluster.router(800);
        QVERIFY(seed(*r));
        QVERIFY(cluster.waitUntilReplicated().isEmpty());
        const int killed = ownerOfFirstSku(cluster, *r);
        QVERIFY(killed >= 0);
        const int replica = cluster.replicaOf(killed);
        QVERIFY(replica >= 0);
        qint64 elsewhere = 0;
        for (int i : cluster.primaries())
            if (i != killed)
                elsewhere += stockKeysOn(cluster, i);
        const qint64 pid = cluster.pid(killed);
        const QString name = cluster.nodes().at(killed).address();

        const ScanResult s = scanStriking(
            *r, [pid] { QCOMPARE(::kill(pid_t(pid), SIGKILL), 0); }, 800);
        cluster.kill(killed); // reaps it
        QVERIFY(!s.complete);
        QVERIFY2(s.error.contains(name), qPrintable(s.error));
        QVERIFY2(s.error.contains(QLatin1String("other nodes are shown")), qPrintable(s.error));
        QVERIFY2(s.skus >= elsewhere && s.skus < Skus,
                 qPrintable(QStringLiteral("%1 SKUs, %2 elsewhere").arg(s.skus).arg(elsewhere)));

        // The router does not call the dead node healthy.
        QVERIFY(r->node(r->topology().indexOf(QStringLiteral("127.0.0.1"),
                                              cluster.nodes().at(killed).port))
                    .state()
                != ConnectionState::Ready);

        // The replica takes over; the router finds it without being told, and the shard's
        // keys are served again, the replica's copy of them.
        const QString promoted = cluster.waitUntilPrimary(replica, 20000);
        QVERIFY2(promoted.isEmpty(), qPrintable(promoted));
        QElapsedTimer sinceFailover;
        sinceFailover.start();
        QTRY_VERIFY_WITH_TIMEOUT(r->call({"GET", stockKey(0)}).ok(), 10000);
        qInfo("the router served the promoted replica %lld ms after the cluster agreed",
              sinceFailover.elapsed());
        const int owner = r->topology().ownerOf(keySlot(stockKey(0)));
        QCOMPARE(r->topology().nodes().at(owner).port, cluster.nodes().at(replica).port);
        // The dead primary serves nothing now: a scan visits the three that do.
        QSet<quint16> serving;
        for (int i : r->topology().primaries())
            serving << r->topology().nodes().at(i).port;
        QCOMPARE(serving.size(), 3);
        QVERIFY(!serving.contains(cluster.nodes().at(killed).port));
        const ScanResult again = scanStriking(
            *r, [] {}, 5000);
        QVERIFY2(again.complete, qPrintable(again.error));
        QCOMPARE(again.skus, qint64(Skus));
    }

    // A primary stopped long enough for its replica to take over: a write to it is outcome
    // unknown within the command timeout, the router then finds the promoted replica, and
    // after kill -CONT the old primary rejoins as a replica while the router keeps serving.
    void aStoppedPrimaryIsReplacedAndRejoinsAsAReplica()
    {
        RedisCluster cluster;
        QVERIFY2(cluster.start(withReplicas()), qPrintable(cluster.errorString()));
        auto router = cluster.router(testsupport::quickFailure({}));
        ClusterRouter &r = *router;
        QVERIFY(r.discovered());
        QVERIFY(seed(r));
        QVERIFY(cluster.waitUntilReplicated().isEmpty());
        const int stopped = ownerOfFirstSku(cluster, r);
        QVERIFY(stopped >= 0);
        const int replica = cluster.replicaOf(stopped);
        QVERIFY(replica >= 0);
        const qint64 pid = cluster.pid(stopped);
        const auto resume = qScopeGuard([pid] { ::kill(pid_t(pid), SIGCONT); });

        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        QElapsedTimer waited;
        waited.start();
        const auto first = r.call({"INCRBY", stockKey(0), "-1"});
        QVERIFY(!first.ok());
        QVERIFY2(first.error().mayHaveRun(), qPrintable(first.error().toString().english));
        QVERIFY2(waited.elapsed() < 300 + 1500, qPrintable(QString::number(waited.elapsed())));

        const QString promoted = cluster.waitUntilPrimary(replica, 20000);
        QVERIFY2(promoted.isEmpty(), qPrintable(promoted));
        QTRY_VERIFY_WITH_TIMEOUT(r.call({"GET", stockKey(0)}).ok(), 5000);
        const QByteArray atPromotion = r.call({"GET", stockKey(0)})->bytes();

        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(cluster.replicaOf(replica) == stopped, 20000);
        // The old primary's view does not win: the shard keeps the promoted replica's data.
        QCOMPARE(r.call({"GET", stockKey(0)})->bytes(), atPromotion);
        QVERIFY(r.call({"INCRBY", stockKey(0), "-1"}).ok());
        QCOMPARE(r.call({"GET", stockKey(0)})->bytes(),
                 QByteArray::number(atPromotion.toLongLong() - 1));
        const ScanResult again = scanStriking(
            r, [] {}, 5000);
        QVERIFY2(again.complete, qPrintable(again.error));
        QCOMPARE(again.skus, qint64(Skus));
    }

    // The router has only ever talked to its seed, and the seed dies: it still knows the
    // other nodes from the topology, asks one of them, and finds the seed's promoted replica.
    void theSeedKilledItsReplicaIsFound()
    {
        RedisCluster cluster;
        QVERIFY2(cluster.start(withReplicas()), qPrintable(cluster.errorString()));
        QVERIFY(cluster.primaries().contains(0));
        const int replica = cluster.replicaOf(0);
        QVERIFY(replica >= 0);
        {
            auto writer = cluster.router();
            QVERIFY(seed(*writer));
            QVERIFY(cluster.waitUntilReplicated().isEmpty());
        }
        auto router = cluster.router(testsupport::quickFailure({}));
        ClusterRouter &r = *router;
        QVERIFY(r.discovered());
        const QByteArray key = stockKeyServedBy(r, cluster.nodes().first().port); // the seed
        QVERIFY(!key.isEmpty());
        QCOMPARE(r.call({"GET", key})->bytes(), QByteArray("100"));

        cluster.kill(0);
        const QString promoted = cluster.waitUntilPrimary(replica, 20000);
        QVERIFY2(promoted.isEmpty(), qPrintable(promoted));
        QTRY_VERIFY_WITH_TIMEOUT(r.call({"GET", key}).ok(), 5000);
        QCOMPARE(r.call({"GET", key})->bytes(), QByteArray("100"));
    }

    // A node that leaves the cluster for good (its slots handed to its replica, then killed
    // and forgotten by every node) is closed, not reconnected to every few seconds for the
    // rest of the session.
    void aForgottenNodeIsClosedNotRetried()
    {
        RedisCluster cluster;
        QVERIFY2(cluster.start(withReplicas()), qPrintable(cluster.errorString()));
        QVERIFY(cluster.primaries().contains(1));
        const int replica = cluster.replicaOf(1);
        QVERIFY(replica >= 0);
        auto router = cluster.router(); // seeded with node 0
        ClusterRouter &r = *router;
        QVERIFY(r.discovered());
        QVERIFY(seed(r));
        // A key node 1 serves: the router opens a connection to it.
        const QByteArray key = stockKeyServedBy(r, cluster.nodes().at(1).port);
        QVERIFY(!key.isEmpty());
        QCOMPARE(r.call({"GET", key})->bytes(), QByteArray("100"));
        const QString gone = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(1).port);
        QVERIFY2(r.openConnections().contains(gone), qPrintable(r.openConnections().join(' ')));

        QVERIFY(cluster.waitUntilReplicated().isEmpty());
        const QString took = cluster.failover(replica);
        QVERIFY2(took.isEmpty(), qPrintable(took));
        const QByteArray id = cluster.connectNode(1)->call({"CLUSTER", "MYID"})->bytes();
        cluster.kill(1);
        for (int i = 0; i < cluster.size(); ++i)
            if (i != 1)
                QVERIFY(cluster.connectNode(i)->call({"CLUSTER", "FORGET", id}).ok());
        // A refresh already on its way may have read the old map: ask until one has not.
        QTRY_VERIFY_WITH_TIMEOUT((r.refreshTopology(), !r.openConnections().contains(gone)), 10000);
        QCOMPARE(r.call({"GET", key})->bytes(), QByteArray("100")); // from the new primary
        QVERIFY(!r.openConnections().contains(gone));
    }

    // A dead node's shard refuses every command unsent, and each refusal asks for a fresh
    // topology; the router still reads it at most once per refreshGapMs (250 ms).
    void refreshesAreSpacedWhileANodeIsDown()
    {
        RedisCluster cluster;
        RedisCluster::Options options;
        options.requireFullCoverage = false;
        QVERIFY2(cluster.start(options), qPrintable(cluster.errorString()));
        auto r = cluster.router(800);
        QVERIFY(seed(*r));
        const int dead = ownerOfFirstSku(cluster, *r);
        QVERIFY(dead >= 0);
        const auto shardsAsked = [&] {
            qint64 total = 0;
            for (int i = 0; i < cluster.size(); ++i) {
                if (i == dead)
                    continue;
                const auto stats = cluster.connectNode(i)->call({"INFO", "commandstats"});
                for (const QByteArray &line :
                     stats.ok() ? stats->bytes().split('\n') : QList<QByteArray>())
                    if (line.startsWith("cmdstat_cluster|shards:calls="))
                        total += line.mid(29, line.indexOf(',') - 29).toLongLong();
            }
            return total;
        };
        cluster.kill(dead);
        const qint64 before = shardsAsked();
        QElapsedTimer t;
        t.start();
        int refused = 0;
        while (t.elapsed() < 1500) {
            const auto get = r->call({"GET", stockKey(0)});
            QVERIFY(!get.ok());
            QVERIFY2(!get.error().mayHaveRun(), qPrintable(get.error().toString().english));
            ++refused;
        }
        const qint64 asked = shardsAsked() - before;
        qInfo("%d commands refused in %lld ms; the topology was read %lld times", refused,
              t.elapsed(), asked);
        QVERIFY(refused > 20);
        QVERIFY2(asked >= 1 && asked <= t.elapsed() / 250 + 2, qPrintable(QString::number(asked)));
        // The other shards are served all along.
        for (int i = 1; i < 40; ++i)
            if (r->topology().ownerOf(keySlot(stockKey(i)))
                != r->topology().ownerOf(keySlot(stockKey(0))))
                QVERIFY(r->call({"GET", stockKey(i)}).ok());
    }
};

QTEST_GUILESS_MAIN(TstClusterNodeLoss)
#include "tst_cluster_node_loss.moc"
