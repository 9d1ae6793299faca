// SPDX-License-Identifier: GPL-3.0-or-later
#include "redis/ClusterTopology.h"
#include "redis/CommandKeys.h"
#include "redis/Slot.h"

#include <QTest>

using namespace redis;

namespace {
Reply str(const char *s)
{
    return Reply::bulk(QByteArray(s));
}
Reply node(const char *id, const char *endpoint, qint64 port, const char *role)
{
    return Reply::array({str("id"), str(id), str("port"), Reply::integer(port), str("ip"),
                         str("10.0.0.9"), str("endpoint"), str(endpoint), str("role"), str(role),
                         str("health"), str("online")});
}
Reply shard(qint64 first, qint64 last, QList<Reply> nodes)
{
    return Reply::array({str("slots"), Reply::array({Reply::integer(first), Reply::integer(last)}),
                         str("nodes"), Reply::array(std::move(nodes))});
}
} // namespace

// The decoders of CLUSTER SHARDS and CLUSTER SLOTS, the address map, and which keys a
// command names; the real-cluster behaviour is in tst_cluster_routing.
class TstClusterTopology : public QObject
{
    Q_OBJECT
private slots:
    void shardsGiveOwnersRolesAndMappedAddresses()
    {
        const Reply shards = Reply::array({shard(0, 8191,
                                                 {node("a", "10.0.0.1", 6379, "master"),
                                                  node("a2", "10.0.0.2", 6379, "replica")}),
                                           shard(8192, 16383, {node("b", "?", 7000, "master")})});
        auto map = AnnouncedAddressMap::parse(QStringLiteral("10.0.0.1:6379=127.0.0.1:7101"));
        QVERIFY(map.ok());
        auto t = ClusterTopology::fromShards(shards, map.value(), QStringLiteral("seed.local"));
        QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().english));
        QCOMPARE(t->primaries().size(), 2);
        QCOMPARE(t->uncoveredSlots(), 0);
        const ClusterNode &a = t->nodes().at(t->ownerOf(0));
        QCOMPARE(a.address(), QStringLiteral("127.0.0.1:7101"));
        QCOMPARE(a.announced, QStringLiteral("10.0.0.1:6379"));
        // "?" means "the address you reached me on".
        QCOMPARE(t->nodes().at(t->ownerOf(16383)).address(), QStringLiteral("seed.local:7000"));
        const int replica = t->indexOf(QStringLiteral("10.0.0.2"), 6379);
        QVERIFY(replica >= 0);
        QVERIFY(!t->nodes().at(replica).primary);
        QCOMPARE(t->nodes().at(replica).primaryId, QByteArray("a"));
    }

    // After a failover CLUSTER SHARDS still lists the dead primary, as a primary of a shard
    // with no slots: it is no longer among the primaries a scan visits.
    void aFailedPrimaryWithoutSlotsIsNotServing()
    {
        const Reply shards =
            Reply::array({shard(0, 16383,
                                {node("b", "127.0.0.1", 7002, "master"),
                                 node("b2", "127.0.0.1", 7005, "replica")}),
                          Reply::array({str("slots"), Reply::array({}), str("nodes"),
                                        Reply::array({node("a", "127.0.0.1", 7001, "master")})})});
        auto t = ClusterTopology::fromShards(shards, {}, QStringLiteral("seed"));
        QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().english));
        QCOMPARE(t->primaries().size(), 1);
        QCOMPARE(t->nodes().at(t->primaries().first()).port, quint16(7002));
        // A MOVED naming the replica: it serves that slot from now on.
        ClusterTopology moved = t.value();
        const int promoted = moved.moveSlot(5, QStringLiteral("127.0.0.1"), 7005);
        QVERIFY(moved.nodes().at(promoted).primary);
        QCOMPARE(moved.primaries().size(), 2);
    }

    void wrongShapesAreErrorsNotPartialMaps_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::newRow("not an array") << Reply::integer(3);
        QTest::newRow("shard without nodes")
            << Reply::array({Reply::array({str("slots"), Reply::array({})})});
        QTest::newRow("slot out of range")
            << Reply::array({shard(0, 16384, {node("a", "h", 1, "master")})});
        QTest::newRow("reversed range")
            << Reply::array({shard(9, 3, {node("a", "h", 1, "master")})});
        QTest::newRow("node without port") << Reply::array(
            {shard(0, 1, {Reply::array({str("id"), str("a"), str("role"), str("master")})})});
    }
    void wrongShapesAreErrorsNotPartialMaps()
    {
        QFETCH(Reply, reply);
        auto t = ClusterTopology::fromShards(reply, {}, QStringLiteral("seed"));
        QVERIFY(!t.ok());
        QVERIFY2(t.error().english.contains(QLatin1String("unexpected shape")),
                 qPrintable(t.error().english));
    }

    void slotsReplyOfOlderServers()
    {
        const Reply slotTable = Reply::array(
            {Reply::array({Reply::integer(0), Reply::integer(100),
                           Reply::array({str("127.0.0.1"), Reply::integer(7001), str("a")}),
                           Reply::array({str("127.0.0.1"), Reply::integer(7004), str("a2")})}),
             Reply::array({Reply::integer(101), Reply::integer(200),
                           Reply::array({str("127.0.0.1"), Reply::integer(7001), str("a")})})});
        auto t = ClusterTopology::fromSlots(slotTable, {}, QStringLiteral("seed"));
        QVERIFY(t.ok());
        QCOMPARE(t->primaries().size(), 1);
        QCOMPARE(t->nodes().at(t->ownerOf(150)).ranges.size(), 2);
        QCOMPARE(t->uncoveredSlots(), 16384 - 201);
        QCOMPARE(t->ownerOf(201), -1);
    }

    void addressMapRefusesWhatItCannotRead_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no equals") << QStringLiteral("10.0.0.1:6379");
        QTest::newRow("two equals") << QStringLiteral("a=b=c");
        QTest::newRow("port on one side") << QStringLiteral("node-a:6379=127.0.0.1");
        QTest::newRow("bad port") << QStringLiteral("a:70000=b:1");
    }
    void addressMapRefusesWhatItCannotRead()
    {
        QFETCH(QString, text);
        QVERIFY(!AnnouncedAddressMap::parse(text).ok());
    }

    void addressMapByHostKeepsThePort()
    {
        auto map = AnnouncedAddressMap::parse(QStringLiteral(" Node-A.internal = 127.0.0.1 ,"
                                                             "[fd00::1]:6379=[::1]:7000"));
        QVERIFY(map.ok());
        QCOMPARE(map->reachable(QStringLiteral("node-a.internal"), 7002),
                 qMakePair(QStringLiteral("127.0.0.1"), quint16(7002)));
        QCOMPARE(map->reachable(QStringLiteral("fd00::1"), 6379),
                 qMakePair(QStringLiteral("::1"), quint16(7000)));
        QCOMPARE(map->reachable(QStringLiteral("other"), 1),
                 qMakePair(QStringLiteral("other"), quint16(1)));
    }

    void commandKeysForRouting()
    {
        QCOMPARE(commandKeys({"FCALL", "inventory_deduct_v1", "2", "stock:{s}", "idem:{s}:o", "5"}),
                 (QList<QByteArray>{"stock:{s}", "idem:{s}:o"}));
        QCOMPARE(commandKeys({"get", "k"}), QList<QByteArray>{"k"});
        QCOMPARE(commandKeys({"MSET", "a", "1", "b", "2"}), (QList<QByteArray>{"a", "b"}));
        QCOMPARE(commandKeys({"OBJECT", "ENCODING", "k"}), QList<QByteArray>{"k"});
        QVERIFY(commandKeys({"PING"}).isEmpty());
        QVERIFY(commandKeys({"EVAL", "return 1", "9", "k"}).isEmpty()); // numkeys beyond args
        QCOMPARE(commandSlot({"FCALL", "f", "2", "stock:{s}", "idem:{s}:o"}).slot,
                 keySlot("stock:{s}"));
        const CommandSlot cross = commandSlot({"FCALL", "f", "2", "stock:{a}", "idem:{b}:o"});
        QVERIFY(cross.crossSlot.contains(QLatin1String("different cluster slots")));
        QCOMPARE(commandSlot({"INFO"}).slot, -1);
    }
};

QTEST_GUILESS_MAIN(TstClusterTopology)
#include "tst_cluster_topology.moc"
