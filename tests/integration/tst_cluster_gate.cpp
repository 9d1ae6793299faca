// SPDX-License-Identifier: GPL-3.0-or-later
// D15: the write gate follows the node a write lands on, not the seed. A local session (its
// seed proven to run here) writes to a cluster node only when that node is proven local too;
// a node reached through something else (here a loopback relay in the announced-address map,
// which is what a tunnel or a container's port map looks like) is production, and a write to
// it is refused until the session is unlocked. The same node given as the seed makes the whole
// session production.
#include "CliRunner.h"
#include "RedisFixture.h"
#include "TcpRelay.h"
#include "gate/GatedSender.h"
#include "gate/ReadOnlySender.h"
#include "gate/WriteGate.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QTemporaryDir>
#include <QTest>

using gate::GatedSender;
using gate::WriteGate;

class TstClusterGate : public QObject
{
    Q_OBJECT

    static constexpr int Far = 2; // the node reached through the relay

    testsupport::RedisCluster m_cluster;
    testsupport::TcpRelay m_relay;
    QTemporaryDir m_dir;

    quint16 port(int node) const { return m_cluster.nodes().at(node).port; }
    QString farMapping() const
    {
        return QStringLiteral("127.0.0.1:%1=127.0.0.1:%2").arg(port(Far)).arg(m_relay.port());
    }
    std::unique_ptr<redis::ClusterRouter> router(quint16 seedPort) const
    {
        redis::ClusterRouter::Options o;
        o.seed = m_cluster.nodes().at(0);
        o.seed.port = seedPort;
        o.addressMap = redis::AnnouncedAddressMap::parse(farMapping()).value();
        auto r = std::make_unique<redis::ClusterRouter>(o);
        r->open();
        return r->waitUntilDiscovered(10000) ? std::move(r) : nullptr;
    }
    // A SKU whose stock key lives on `node` (its primary answers GET instead of MOVED).
    QByteArray skuOn(int node) const
    {
        auto client = m_cluster.connectNode(node);
        for (int i = 0;; ++i) {
            const QByteArray sku = "d15-" + QByteArray::number(i);
            if (client->call({"GET", "stock:{" + sku + "}:available"}).ok())
                return sku;
        }
    }
    profiles::ConnectionProfile profile(quint16 seedPort) const
    {
        profiles::ConnectionProfile p; // unlabelled, 127.0.0.1: a Local claim
        p.name = QStringLiteral("d15");
        p.port = seedPort;
        return p;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        const QString relay = m_relay.start(port(Far));
        QVERIFY2(relay.isEmpty(), qPrintable(relay));
        const QByteArray lib = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        for (int n : m_cluster.primaries())
            QVERIFY(m_cluster.connectNode(n)->call({"FUNCTION", "LOAD", "REPLACE", lib}).ok());
    }

    void aWriteToANodeNotProvenLocalIsRefused()
    {
        auto r = router(port(0));
        QVERIFY(r);
        WriteGate gate(*r, profile(port(0)));
        gate.setAuditLogPath(m_dir.filePath(QStringLiteral("audit.jsonl")));
        GatedSender gated(*r, gate);
        const QByteArray nearKey = "stock:{" + skuOn(0) + "}:available";
        const QByteArray farKey = "stock:{" + skuOn(Far) + "}:available";
        QVERIFY(gated.call({"SET", nearKey, "5"}).ok()); // the seed: proven local
        QVERIFY2(gate.evidence().proven(), qPrintable(gate.evidence().reason.english));
        const auto refused = gated.call({"SET", farKey, "5"});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, redis::RedisError::Kind::NotSent);
        const QString message = refused.error().message.english;
        QVERIFY2(message.contains(QStringLiteral("node 127.0.0.1:%1 is production to this local "
                                                 "session (not proven local: ")
                                      .arg(m_relay.port())),
                 qPrintable(message));
        QCOMPARE(m_cluster.connectNode(Far)->call({"EXISTS", farKey})->toInteger(), 0);
        // Reads there pass; unlocked (typed, on record), the write goes.
        QVERIFY(gated.call({"GET", farKey}).ok());
        QVERIFY(gate.unlock(QStringLiteral("d15")));
        QVERIFY(gated.call({"SET", farKey, "5"}).ok());
        QCOMPARE(m_cluster.connectNode(Far)->call({"GET", farKey})->bytes(), QByteArray("5"));
    }

    // A MOVED is followed only where the label holds: an empty slot of the seed's is handed
    // to the far node behind the router's back, so the write goes to the seed (proven), whose
    // MOVED names the far node; the write is not sent there.
    void aMovedToANodeNotProvenLocalIsRefused()
    {
        auto r = router(port(0));
        QVERIFY(r);
        WriteGate gate(*r, profile(port(0)));
        GatedSender gated(*r, gate);
        QVERIFY(gate.waitForServer(5000));
        QVERIFY(gate.evidence().proven());
        QByteArray key;
        auto seed = m_cluster.connectNode(0);
        for (int i = 0; key.isEmpty(); ++i) {
            const QByteArray k = "stock:{moved-" + QByteArray::number(i) + "}:available";
            if (seed->call({"GET", k}).ok())
                key = k;
        }
        const QByteArray slot = QByteArray::number(redis::keySlot(key));
        const auto moveTo = [&](int node) {
            const QByteArray id = m_cluster.connectNode(node)->call({"CLUSTER", "MYID"})->bytes();
            for (int n : m_cluster.primaries())
                if (!m_cluster.connectNode(n)->call({"CLUSTER", "SETSLOT", slot, "NODE", id}).ok())
                    return false;
            return true;
        };
        QVERIFY(moveTo(Far));
        const auto refused = gated.call({"SET", key, "1"});
        // Nothing reached the node the slot is on now (before it goes back).
        const qint64 farHasIt = m_cluster.connectNode(Far)->call({"EXISTS", key})->toInteger();
        QVERIFY(moveTo(0));
        QCOMPARE(farHasIt, 0);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, redis::RedisError::Kind::NotSent);
        QVERIFY2(refused.error().message.english.contains(
                     QStringLiteral("node 127.0.0.1:%1").arg(m_relay.port())),
                 qPrintable(refused.error().message.english));
        QCOMPARE(seed->call({"EXISTS", key})->toInteger(), 0);
    }

    void theSameNodeAsTheSeedIsProduction()
    {
        auto r = router(m_relay.port());
        QVERIFY(r);
        WriteGate gate(*r, profile(m_relay.port()));
        GatedSender gated(*r, gate);
        const QByteArray farKey = "stock:{" + skuOn(Far) + "}:available";
        const auto refused = gated.call({"SET", farKey, "6"});
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.error().message.english.startsWith(QLatin1String("read-only session on profile "
                                                                     "'d15' (not proven local: ")),
            qPrintable(refused.error().message.english));
        QVERIFY(gate.isReadOnly());
        QCOMPARE(gate.environment(), QStringLiteral("production"));
    }

    void theCliDeductFollowsTheNode()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const QByteArray sku = skuOn(Far);
        QVERIFY(
            m_cluster.connectNode(Far)->call({"SET", "stock:{" + sku + "}:available", "10"}).ok());
        const QStringList deduct{"deduct",
                                 "--url",
                                 QStringLiteral("redis://127.0.0.1:%1").arg(port(0)),
                                 "--audit-log",
                                 m_dir.filePath(QStringLiteral("cli-audit.jsonl")),
                                 "--sku",
                                 QString::fromUtf8(sku),
                                 "--order",
                                 "o-1",
                                 "--quantity",
                                 "1"};
        auto run = testsupport::runCli(deduct + QStringList{"--announced-map", farMapping()});
        QCOMPARE(run.exitCode, 3); // nothing sent
        QVERIFY2((run.out + run.err).contains("is production to this local session"),
                 run.out + run.err);
        QCOMPARE(
            m_cluster.connectNode(Far)->call({"GET", "stock:{" + sku + "}:available"})->bytes(),
            QByteArray("10"));
        // Reached directly, the same node is proven local: the deduction runs.
        run = testsupport::runCli(deduct);
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QCOMPARE(
            m_cluster.connectNode(Far)->call({"GET", "stock:{" + sku + "}:available"})->bytes(),
            QByteArray("9"));
    }

    // A view that only reads walks every primary with its own cursor: each node's sender it
    // is handed refuses a write too, and reads still reach that node.
    void aReadOnlyViewCannotWriteThroughAnyNode()
    {
        auto r = router(port(0));
        QVERIFY(r);
        gate::ReadOnlySender reads(*r);
        const QList<redis::ScanNode> nodes = reads.scanNodes();
        QCOMPARE(nodes.size(), m_cluster.primaries().size());
        const QByteArray key = "stock:{" + skuOn(1) + "}:available";
        QVERIFY(m_cluster.connectNode(1)->call({"SET", key, "7"}).ok());
        for (const redis::ScanNode &node : nodes) {
            QVERIFY(node.sender != r.get());
            const redis::ReplyResult del = node.sender->call({"DEL", key});
            QVERIFY(!del.ok());
            QCOMPARE(del.error().refusal, redis::RedisError::Refusal::ReadOnlyView);
            QVERIFY2(node.sender->call({"DBSIZE"}).ok(), qPrintable(node.name));
        }
        QCOMPARE(reads.scanNodes().first().sender, nodes.first().sender); // wrapped once
        QCOMPARE(m_cluster.connectNode(1)->call({"GET", key})->bytes(), QByteArray("7"));
    }
};

QTEST_GUILESS_MAIN(TstClusterGate)
#include "tst_cluster_gate.moc"
