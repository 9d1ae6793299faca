// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "browse/InventoryScan.h"
#include "redis/ClusterRouter.h"

#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace redis;

// The key browser's scan on a 3-primary cluster: every primary walked with its own cursor,
// the union of their keys in one store, and a node that stops answering named while the
// others' keys still show.
class TstClusterScan : public QObject
{
    Q_OBJECT

    testsupport::RedisCluster m_cluster;
    static constexpr int Skus = 600;

    // Keys of one family on one node, asked of that node.
    qint64 keysOnNode(int node, const QByteArray &pattern)
    {
        auto keys = m_cluster.connectNode(node)->call({"KEYS", pattern});
        return keys.ok() ? keys->size() : -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        auto r = m_cluster.router(1000);
        QList<Command> seed;
        for (int i = 0; i < Skus; ++i) {
            const QByteArray sku = "sku-" + QByteArray::number(i);
            seed << Command{"SET", "stock:{" + sku + "}", QByteArray::number(100 + i)};
            seed << Command{"SET", "idem:{" + sku + "}:o-1", QByteArray::number(99 + i), "EX",
                            "3600"};
        }
        for (const auto &result : r->callBatch(seed, 10000))
            QVERIFY(result.ok());
    }

    void everyPrimaryIsWalkedAndTheUnionShown()
    {
        auto r = m_cluster.router(1000);
        QCOMPARE(r->scanNodes().size(), 3);
        browse::InventoryScan scan(*r, inventory::KeySchema());
        QSignalSpy finished(&scan, &browse::InventoryScan::finished);
        scan.start({});
        QVERIFY(finished.wait(20000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QCOMPARE(int(scan.store().skuCount()), Skus);
        QCOMPARE(int(scan.store().receiptCount()), Skus);
        QCOMPARE(scan.scanner().dbSize(), qint64(2 * Skus));
        const auto nodes = scan.scanner().nodeProgress();
        QCOMPARE(nodes.size(), 3);
        qint64 seen = 0;
        for (const auto &n : nodes) {
            QVERIFY(n.done);
            QVERIFY(n.failure.isEmpty());
            QVERIFY2(n.keysSeen > 0, qPrintable(n.name));
            seen += n.keysSeen;
        }
        QCOMPARE(seen, qint64(2 * Skus));
    }

    void aStoppedNodeIsNamedAndTheOthersStillShow()
    {
        auto r = m_cluster.router(1000);
        const auto nodes = m_cluster.nodes();
        const int stopped = 1;
        const qint64 pid = m_cluster.pid(stopped);
        QVERIFY(pid > 0);
        const qint64 elsewhere = keysOnNode(0, "stock:*") + keysOnNode(2, "stock:*");
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        const auto resume = qScopeGuard([pid] { ::kill(pid_t(pid), SIGCONT); });

        browse::InventoryScan scan(*r, inventory::KeySchema());
        QSignalSpy finished(&scan, &browse::InventoryScan::finished);
        browse::InventoryScan::Options o;
        o.timeoutMs = 800;
        scan.start(o);
        QVERIFY(finished.wait(20000));
        QVERIFY(!finished.first().at(0).toBool());
        const QString error = finished.first().at(1).toString();
        QVERIFY2(error.contains(nodes.at(stopped).address()), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("other nodes are shown")), qPrintable(error));
        for (int i : {0, 2})
            QVERIFY2(!error.contains(nodes.at(i).address()), qPrintable(error));
        QCOMPARE(qint64(scan.store().skuCount()), elsewhere);
    }
};

QTEST_GUILESS_MAIN(TstClusterScan)
#include "tst_cluster_scan.moc"
