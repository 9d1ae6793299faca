// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "TcpRelay.h"
#include "overview/ClusterHealth.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QScopeGuard>
#include <QTest>
#include <map>

#include <optional>

using namespace redis;
using testsupport::RedisCluster;

// Routing on a real 3-primary cluster: discovery, one connection per primary, MOVED and ASK
// during a slot migration, the redirect limit, keys in two slots, and announced addresses
// that only resolve through the profile's map.
class TstClusterRouting : public QObject
{
    Q_OBJECT

    RedisCluster m_cluster;

    std::unique_ptr<ClusterRouter> router(const QString &addressMap = {})
    {
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        auto map = AnnouncedAddressMap::parse(addressMap);
        if (map.ok())
            o.addressMap = map.value();
        auto r = std::make_unique<ClusterRouter>(o);
        r->open();
        r->waitUntilDiscovered(5000);
        return r;
    }

    // How many times `command` reached the nodes, run or refused with a redirect
    // (INFO commandstats: calls plus rejected_calls, summed over the primaries).
    qint64 arrivals(const QByteArray &command)
    {
        qint64 total = 0;
        for (int i = 0; i < 3; ++i) {
            const QByteArray info =
                m_cluster.connectNode(i)->call({"INFO", "commandstats"})->bytes();
            for (const QByteArray &line : info.split('\n')) {
                if (!line.startsWith("cmdstat_" + command + ":"))
                    continue;
                for (const QByteArray &field : line.trimmed().mid(command.size() + 9).split(',')) {
                    if (field.startsWith("calls=") || field.startsWith("rejected_calls="))
                        total += field.mid(field.indexOf('=') + 1).toLongLong();
                }
            }
        }
        return total;
    }

    QByteArray nodeId(int index)
    {
        return m_cluster.connectNode(index)->call({"CLUSTER", "MYID"})->bytes();
    }

    // A key whose slot is served by `owner`, with a given prefix.
    QByteArray keyOn(RedisClient &owner, const QByteArray &prefix)
    {
        for (int i = 0; i < 10000; ++i) {
            const QByteArray key = prefix + ":{" + QByteArray::number(i) + "}";
            auto r = owner.call({"EXISTS", key});
            if (r.ok())
                return key;
        }
        return {};
    }

    // Moves a key's slot from node `from` to node `to` the way redis-cli --cluster reshard
    // does, stopping after `stage`: 1 = migrating/importing set and the key moved (ASK), 2 =
    // the slot handed over everywhere (MOVED).
    bool migrate(int slot, const QByteArray &key, int from, int to, int stage)
    {
        auto src = m_cluster.connectNode(from);
        auto dst = m_cluster.connectNode(to);
        const QByteArray s = QByteArray::number(slot);
        const QByteArray srcId = nodeId(from), dstId = nodeId(to);
        const auto dstOptions = m_cluster.nodes().at(to);
        bool ok = dst->call({"CLUSTER", "SETSLOT", s, "IMPORTING", srcId}).ok()
                  && src->call({"CLUSTER", "SETSLOT", s, "MIGRATING", dstId}).ok()
                  && src->call({"MIGRATE", dstOptions.host.toUtf8(),
                                QByteArray::number(dstOptions.port), "", "0", "5000", "KEYS", key})
                         .ok();
        if (!ok || stage == 1)
            return ok;
        for (int i = 0; i < 3; ++i)
            ok =
                ok && m_cluster.connectNode(i)->call({"CLUSTER", "SETSLOT", s, "NODE", dstId}).ok();
        return ok;
    }

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString())); }

    void discoversThreePrimariesCoveringEverySlot()
    {
        auto r = router();
        QVERIFY2(r->discovered(), qPrintable(r->discoveryError().english));
        QVERIFY(r->isCluster());
        QCOMPARE(r->topology().primaries().size(), 3);
        QCOMPARE(r->topology().uncoveredSlots(), 0);
        QSet<quint16> ports;
        for (const auto &n : m_cluster.nodes())
            ports << n.port;
        for (int i : r->topology().primaries())
            QVERIFY(ports.contains(r->topology().nodes().at(i).port));
    }

    // The slot function is the server's: checked against CLUSTER KEYSLOT on tricky keys.
    void slotsAgreeWithTheServer()
    {
        auto c = m_cluster.connectNode(0);
        const QList<QByteArray> keys{"stock:{sku-1001}",
                                     "idem:{sku-1001}:o-1",
                                     "plain",
                                     "{}empty-tag",
                                     "a{b}{c}",
                                     "{{x}}",
                                     "x}{y",
                                     "é{ü}",
                                     ""};
        for (const QByteArray &key : keys) {
            auto server = c->call({"CLUSTER", "KEYSLOT", key});
            QVERIFY(server.ok());
            QCOMPARE(qint64(keySlot(key)), server->toInteger());
        }
    }

    void routesEachKeyToItsPrimary()
    {
        auto r = router();
        QList<Command> writes;
        for (int i = 0; i < 300; ++i)
            writes << Command{"SET", "route:{sku-" + QByteArray::number(i) + "}", "v"};
        for (const auto &result : r->callBatch(writes))
            QVERIFY2(result.ok(),
                     qPrintable(result.ok() ? QString() : result.error().toString().english));
        // Every primary got some, and together exactly the 300: no key went twice or astray.
        qint64 total = 0;
        for (int i = 0; i < 3; ++i) {
            auto scan = m_cluster.connectNode(i)->call({"KEYS", "route:*"});
            QVERIFY(scan.ok());
            QVERIFY2(scan->size() > 0, "a primary got no key");
            total += scan->size();
        }
        QCOMPARE(total, qint64(300));
    }

    void keysInTwoSlotsAreRefusedUnsent()
    {
        auto r = router();
        QVERIFY(r->call({"SET", "two:{a}", "1"}).ok());
        QVERIFY(r->call({"SET", "two:{b}", "1"}).ok());
        QVERIFY(keySlot("two:{a}") != keySlot("two:{b}"));
        auto del = r->call({"DEL", "two:{a}", "two:{b}"});
        QVERIFY(!del.ok());
        QCOMPARE(del.error().kind, RedisError::Kind::NotSent);
        QVERIFY2(del.error().message.english.contains(QLatin1String("different cluster slots")),
                 qPrintable(del.error().message.english));
        QCOMPARE(r->call({"EXISTS", "two:{a}"})->toInteger(), 1);
        QCOMPARE(r->call({"EXISTS", "two:{b}"})->toInteger(), 1);
    }

    // A refusal made before anything is sent still arrives from the event loop, after
    // sendBatch returned: a caller never runs its callback inside its own send.
    void crossSlotRefusalArrivesAfterSendReturns()
    {
        auto r = router();
        QObject context;
        bool sending = true, ranDuringSend = false;
        std::optional<ReplyResult> got;
        r->send({"DEL", "late:{a}", "late:{b}"}, &context, [&](const ReplyResult &result) {
            ranDuringSend = sending;
            got = result;
        });
        sending = false;
        QTRY_VERIFY(got.has_value());
        QVERIFY(!ranDuringSend);
        QCOMPARE(got->error().refusal, RedisError::Refusal::CrossSlot);
        QCOMPARE(got->error().delivery, RedisError::Delivery::NotSent);
    }

    // A session's lanes route by one topology: the server is asked once, not once per lane.
    void lanesShareOneTopologyRead()
    {
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        o.refreshIntervalMs = 0; // no periodic read to blur the count
        ClusterRouter first(o);
        first.open();
        QVERIFY(first.waitUntilDiscovered(5000));
        const qint64 readsBefore = arrivals("cluster|shards");

        ConnectionOptions laneSeed = o.seed;
        laneSeed.clientName = "lane-under-test";
        laneSeed.onCallerThread = true;
        ClusterRouter lane(first.topologySource(), laneSeed);
        auto node2 = m_cluster.connectNode(2);
        const QByteArray key = keyOn(*node2, "lane");
        QVERIFY(!key.isEmpty());
        QVERIFY(lane.call({"SET", key, "v"}).ok());
        QCOMPARE(arrivals("cluster|shards"), readsBefore);
        QVERIFY(lane.opened());
        // The lane's own connection ran it, on the slot's owner.
        QVERIFY(node2->call({"CLIENT", "LIST"})->bytes().contains("name=lane-under-test"));

        // One map: a MOVED the lane follows (noteMoved) is the session's.
        QCOMPARE(&lane.topologySource(), &first.topologySource());
        QCOMPARE(&lane.topology(), &first.topology());
    }

    // Every connection of a session, in every lane, is made by the session's client factory
    // and kept under the node's announced address: what a tunnel needs (here each node is
    // reached through a relay of its own, as through an `ssh -L` forward).
    void everyLaneConnectsThroughTheSessionsFactory()
    {
        std::map<quint16, std::unique_ptr<testsupport::TcpRelay>> relays; // outlive the clients
        QStringList asked;
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        o.clientFactory = [&](const ConnectionOptions &node) {
            asked << node.address();
            std::unique_ptr<testsupport::TcpRelay> &relay = relays[node.port];
            if (!relay) {
                relay = std::make_unique<testsupport::TcpRelay>();
                if (!relay->start(node.port).isEmpty())
                    return std::make_unique<RedisClient>(node); // shows below as not relayed
            }
            ConnectionOptions relayed = node;
            relayed.port = relay->port();
            return std::make_unique<RedisClient>(relayed);
        };
        ClusterRouter first(o);
        first.open();
        QVERIFY(first.waitUntilDiscovered(5000));
        ConnectionOptions laneSeed = o.seed;
        laneSeed.clientName = "lane-relayed";
        ClusterRouter lane(first.topologySource(), laneSeed);
        auto node2 = m_cluster.connectNode(2);
        const QByteArray key = keyOn(*node2, "relayed");
        QVERIFY(!key.isEmpty());
        QVERIFY(lane.call({"SET", key, "v"}).ok());
        QCOMPARE(node2->call({"GET", key})->bytes(), QByteArray("v"));

        const QString seed = o.seed.address();
        const QString owner = m_cluster.nodes().at(2).address();
        QCOMPARE(asked.count(seed), 2);  // each lane's seed connection
        QCOMPARE(asked.count(owner), 1); // the lane's connection to the slot's owner
        QVERIFY2(lane.openConnections().contains(owner),
                 qPrintable(lane.openConnections().join(' ')));
        // The factory made the owner's connection to its relay (it falls back to the node's
        // own port only when the relay did not start), so the write went through the relay.
        QVERIFY(relays.at(m_cluster.nodes().at(2).port)->port() != 0);
    }

    void movedAfterTheSlotWasHandedOver()
    {
        auto r = router();
        auto node0 = m_cluster.connectNode(0);
        const QByteArray key = keyOn(*node0, "moved");
        QVERIFY(!key.isEmpty());
        QVERIFY(r->call({"SET", key, "before"}).ok());
        const int slot = keySlot(key);
        const int ownerBefore = r->topology().ownerOf(slot);
        QVERIFY(migrate(slot, key, 0, 1, 2));
        // The router still thinks node 0 owns it: MOVED, map updated, answered by node 1.
        auto got = r->call({"GET", key});
        QVERIFY2(got.ok(), qPrintable(got.ok() ? QString() : got.error().toString().english));
        QCOMPARE(got->bytes(), QByteArray("before"));
        const int ownerAfter = r->topology().ownerOf(slot);
        QVERIFY(ownerAfter != ownerBefore);
        QCOMPARE(r->topology().nodes().at(ownerAfter).port, m_cluster.nodes().at(1).port);
        // A write goes straight to the new owner and runs once.
        QCOMPARE(r->call({"APPEND", key, "!"})->toInteger(), qint64(7));
        QCOMPARE(m_cluster.connectNode(1)->call({"GET", key})->bytes(), QByteArray("before!"));
    }

    void askDuringAMigrationRunsTheWriteOnce()
    {
        auto r = router();
        auto node0 = m_cluster.connectNode(0);
        const QByteArray key = keyOn(*node0, "ask");
        QVERIFY(!key.isEmpty());
        QVERIFY(r->call({"SET", key, "10"}).ok());
        const int slot = keySlot(key);
        QVERIFY(migrate(slot, key, 0, 2, 1)); // the key is on node 2, the slot still node 0's
        auto decr = r->call({"DECRBY", key, "3"});
        QVERIFY2(decr.ok(), qPrintable(decr.ok() ? QString() : decr.error().toString().english));
        QCOMPARE(decr->toInteger(), qint64(7));
        // ASK is not MOVED: the slot still belongs to node 0 in the router's map.
        QCOMPARE(r->topology().nodes().at(r->topology().ownerOf(slot)).port,
                 m_cluster.nodes().at(0).port);
        // Finish the move so that the cluster is whole for the next tests.
        const QByteArray dstId = nodeId(2);
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)
                        ->call({"CLUSTER", "SETSLOT", QByteArray::number(slot), "NODE", dstId})
                        .ok());
        QCOMPARE(r->call({"GET", key})->bytes(), QByteArray("7"));
    }

    // ASK to a node that is not importing answers MOVED back: a loop the router must end.
    void redirectLoopEndsUnsentWithAReason()
    {
        auto r = router();
        auto node0 = m_cluster.connectNode(0);
        const QByteArray key = keyOn(*node0, "loop");
        QVERIFY(!key.isEmpty());
        const int slot = keySlot(key);
        const QByteArray s = QByteArray::number(slot);
        QVERIFY(node0->call({"CLUSTER", "SETSLOT", s, "MIGRATING", nodeId(1)}).ok());
        auto got = r->call({"INCR", key});
        QVERIFY(node0->call({"CLUSTER", "SETSLOT", s, "STABLE"}).ok());
        QVERIFY(!got.ok());
        QCOMPARE(got.error().kind, RedisError::Kind::NotSent);
        QVERIFY2(
            got.error().message.english.contains(QLatin1String("redirected this command 5 times")),
            qPrintable(got.error().message.english));
        QCOMPARE(r->call({"EXISTS", key})->toInteger(), 0);
    }

    // The bound is a count of sends, not a number in a sentence: with maxRedirects 2 a command
    // bounced between two nodes reaches them exactly 3 times. A loop the bound does not end
    // never calls back; the test's own deadline turns that into a failure, not a hang.
    void redirectBoundCountsSends()
    {
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        o.maxRedirects = 2;
        ClusterRouter r(o);
        r.open();
        QVERIFY(r.waitUntilDiscovered(5000));
        auto node0 = m_cluster.connectNode(0);
        const QByteArray key = keyOn(*node0, "bound");
        QVERIFY(!key.isEmpty());
        const QByteArray s = QByteArray::number(keySlot(key));
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)->call({"CONFIG", "RESETSTAT"}).ok());
        // node 0 answers ASK node 1, which does not import the slot and answers MOVED node 0.
        QVERIFY(node0->call({"CLUSTER", "SETSLOT", s, "MIGRATING", nodeId(1)}).ok());
        auto stable = qScopeGuard([&] { node0->call({"CLUSTER", "SETSLOT", s, "STABLE"}); });
        std::optional<ReplyResult> got;
        r.send({"INCR", key}, this, [&](const ReplyResult &reply) { got = reply; });
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        const qint64 sends = arrivals("incr");
        stable.dismiss();
        QVERIFY(node0->call({"CLUSTER", "SETSLOT", s, "STABLE"}).ok());
        QVERIFY(!got->ok());
        QCOMPARE(got->error().kind, RedisError::Kind::NotSent);
        QCOMPARE(sends, qint64(3));
        QCOMPARE(r.call({"EXISTS", key})->toInteger(), 0);
    }

    // The cluster still calls a primary healthy, but this console cannot reach it (here: the
    // profile maps it to a port nothing listens on): ClusterHealth names it down all the same.
    void aPrimaryThisConsoleCannotReachIsDown()
    {
        const quint16 port2 = m_cluster.nodes().at(2).port;
        const quint16 closed = demo::LocalRedisServer::freePort();
        auto r = router(QStringLiteral("127.0.0.1:%1=127.0.0.1:%2").arg(port2).arg(closed));
        QVERIFY(r->isCluster());
        overview::ClusterHealth health(*r);
        // Named by the address the console tried: the one the map gives.
        const QString tried = QStringLiteral("127.0.0.1:%1").arg(closed);
        QTRY_COMPARE_WITH_TIMEOUT(health.downPrimaries(), QStringList{tried}, 10000);
        QVERIFY2(health.summary().endsWith(QStringLiteral("1 down: ") + tried),
                 qPrintable(health.summary()));
        // Healthy in the cluster's own view: no FAIL flag, cluster_state ok.
        auto node0 = m_cluster.connectNode(0);
        QVERIFY(node0->call({"CLUSTER", "INFO"})->bytes().contains("cluster_state:ok"));
        for (const QByteArray &line : node0->call({"CLUSTER", "NODES"})->bytes().split('\n')) {
            if (line.contains(":" + QByteArray::number(port2) + "@"))
                QVERIFY2(!line.contains("fail"), line.constData());
        }
    }

    void standaloneServerIsAPassThrough()
    {
        testsupport::StandaloneRedis s;
        QVERIFY2(s.start(), qPrintable(s.errorString()));
        ClusterRouter::Options o;
        o.seed = s.options();
        ClusterRouter r(o);
        r.open();
        QVERIFY(r.waitUntilDiscovered(5000));
        QVERIFY(!r.isCluster());
        QVERIFY(r.call({"SET", "a:{1}", "x"}).ok());
        // No slot rule on a standalone server: two slots in one command are fine there.
        QCOMPARE(r.call({"DEL", "a:{1}", "b:{2}"})->toInteger(), qint64(1));
    }

    // Nodes that announce host names this machine cannot resolve are reached through the
    // profile's address map. Last, since it changes what the whole cluster announces.
    void announcedHostNamesGoThroughTheAddressMap()
    {
        QStringList mapping;
        for (int i = 0; i < 3; ++i) {
            auto c = m_cluster.connectNode(i);
            const QByteArray name = "node-" + QByteArray::number(i) + ".cluster.invalid";
            QVERIFY(c->call({"CONFIG", "SET", "cluster-announce-hostname", name}).ok());
            QVERIFY(c->call({"CONFIG", "SET", "cluster-preferred-endpoint-type", "hostname"}).ok());
            mapping << QStringLiteral("%1=127.0.0.1").arg(QString::fromLatin1(name));
        }
        // Gossip carries the names to every node within a few pings.
        const auto announcedEverywhere = [&] {
            auto shards = m_cluster.connectNode(0)->call({"CLUSTER", "SHARDS"});
            return shards.ok() && shards->debugString(100000).count("cluster.invalid") >= 6;
        };
        QTRY_VERIFY_WITH_TIMEOUT(announcedEverywhere(), 10000);

        auto mapped = router(mapping.join(QLatin1Char(',')));
        QVERIFY2(mapped->discovered(), qPrintable(mapped->discoveryError().english));
        for (int i : mapped->topology().primaries()) {
            const auto &n = mapped->topology().nodes().at(i);
            QVERIFY2(n.announced.contains(QLatin1String(".cluster.invalid")),
                     qPrintable(n.announced));
            QCOMPARE(n.host, QStringLiteral("127.0.0.1"));
        }
        QList<Command> writes;
        for (int i = 0; i < 30; ++i)
            writes << Command{"SET", "mapped:{" + QByteArray::number(i) + "}", "v"};
        for (const auto &result : mapped->callBatch(writes, 3000))
            QVERIFY2(result.ok(),
                     qPrintable(result.ok() ? QString() : result.error().toString().english));

        // Without the map, a key on another node cannot be reached, and says so unsent.
        auto unmapped = router();
        int failures = 0;
        for (const auto &result : unmapped->callBatch(writes, 3000))
            failures += result.ok() ? 0 : 1;
        QVERIFY(failures > 0);

        for (int i = 0; i < 3; ++i)
            m_cluster.connectNode(i)->call(
                {"CONFIG", "SET", "cluster-preferred-endpoint-type", "ip"});
    }
};

QTEST_GUILESS_MAIN(TstClusterRouting)
#include "tst_cluster_routing.moc"
