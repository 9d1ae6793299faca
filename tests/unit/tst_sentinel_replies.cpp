// SPDX-License-Identifier: GPL-3.0-or-later
#include "sentinel/SentinelReplies.h"

#include <QTest>

using redis::Reply;
using namespace sentinel;

namespace {
Reply bulks(const QList<QByteArray> &items)
{
    QList<Reply> out;
    for (const QByteArray &i : items)
        out << Reply::bulk(i);
    return Reply::array(out);
}
} // namespace

class TstSentinelReplies : public QObject
{
    Q_OBJECT

private slots:
    void masterAddress()
    {
        const auto named = decodeMasterAddress(bulks({"127.0.0.1", "7001"}));
        QVERIFY(named.ok() && named.value());
        QCOMPARE(named.value()->toString(), QStringLiteral("127.0.0.1:7001"));

        const auto unknown = decodeMasterAddress(Reply::nil());
        QVERIFY(unknown.ok());
        QVERIFY(!unknown.value());

        QVERIFY(!decodeMasterAddress(bulks({"127.0.0.1"})).ok());
        QVERIFY(!decodeMasterAddress(bulks({"127.0.0.1", "0"})).ok());
        QVERIFY(!decodeMasterAddress(bulks({"", "7001"})).ok());
        const auto status = decodeMasterAddress(Reply::status("OK"));
        QVERIFY(!status.ok());
        QVERIFY2(status.error().message.english.contains(QLatin1String("nil or an array")),
                 qPrintable(status.error().message.english));
    }

    void masterState()
    {
        const auto state =
            decodeMasterState(bulks({"name", "mymaster", "ip", "127.0.0.1", "port", "7002", "flags",
                                     "master", "config-epoch", "3"}));
        QVERIFY(state.ok());
        QCOMPARE(state->address.toString(), QStringLiteral("127.0.0.1:7002"));
        QCOMPARE(state->configEpoch, 3);

        // No epoch, a negative one, an odd count or another shape: said, never a default.
        const auto noEpoch = decodeMasterState(bulks({"ip", "127.0.0.1", "port", "7002"}));
        QVERIFY(!noEpoch.ok());
        QVERIFY2(noEpoch.error().message.english.contains(QLatin1String("config-epoch")),
                 qPrintable(noEpoch.error().message.english));
        QVERIFY(!decodeMasterState(bulks({"ip", "127.0.0.1", "port", "7002", "config-epoch", "-1"}))
                     .ok());
        QVERIFY(!decodeMasterState(bulks({"ip", "127.0.0.1", "port", "7002", "config-epoch", "x"}))
                     .ok());
        QVERIFY(!decodeMasterState(bulks({"ip", "127.0.0.1", "port"})).ok());
        QVERIFY(!decodeMasterState(Reply::nil()).ok());
    }

    void role()
    {
        const auto primary =
            decodeRole(Reply::array({Reply::bulk("master"), Reply::integer(42), Reply::array({})}));
        QVERIFY(primary.ok());
        QCOMPARE(primary->kind, NodeRole::Kind::Primary);

        const auto replica = decodeRole(
            Reply::array({Reply::bulk("slave"), Reply::bulk("10.1.1.1"), Reply::integer(6379),
                          Reply::bulk("connected"), Reply::integer(7)}));
        QVERIFY(replica.ok());
        QCOMPARE(replica->kind, NodeRole::Kind::Replica);
        QCOMPARE(replica->follows.toString(), QStringLiteral("10.1.1.1:6379"));
        QCOMPARE(replica->linkState, QStringLiteral("connected"));

        const auto sentinelRole =
            decodeRole(Reply::array({Reply::bulk("sentinel"), Reply::array({})}));
        QVERIFY(sentinelRole.ok());
        QCOMPARE(sentinelRole->kind, NodeRole::Kind::Sentinel);

        QVERIFY(!decodeRole(Reply::array({Reply::bulk("leader")})).ok());
        QVERIFY(!decodeRole(Reply::integer(1)).ok());
        QVERIFY(!decodeRole(Reply::array({Reply::bulk("slave"), Reply::bulk("h")})).ok());
    }

    void replicas()
    {
        const Reply reply = Reply::array(
            {bulks({"name", "127.0.0.1:7002", "ip", "127.0.0.1", "port", "7002", "flags", "slave"}),
             bulks({"ip", "127.0.0.1", "port", "7003", "flags", "s_down,slave,disconnected"})});
        const auto list = decodeReplicas(reply);
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 2);
        QCOMPARE(list->at(0).address.toString(), QStringLiteral("127.0.0.1:7002"));
        QVERIFY(!list->at(0).isDown());
        QVERIFY(list->at(1).isDown());

        QVERIFY(decodeReplicas(Reply::array({})).ok());
        QVERIFY(!decodeReplicas(Reply::array({bulks({"ip", "127.0.0.1"})})).ok());
        QVERIFY(!decodeReplicas(Reply::array({bulks({"ip"})})).ok());
        QVERIFY(!decodeReplicas(Reply::nil()).ok());
    }

    void switchMaster()
    {
        const auto m = parseSwitchMaster("orders 127.0.0.1 7001 127.0.0.1 7002");
        QVERIFY(m);
        QCOMPARE(m->masterName, QStringLiteral("orders"));
        QCOMPARE(m->from.toString(), QStringLiteral("127.0.0.1:7001"));
        QCOMPARE(m->to.toString(), QStringLiteral("127.0.0.1:7002"));
        QVERIFY(!parseSwitchMaster("orders 127.0.0.1 7001 127.0.0.1"));
        QVERIFY(!parseSwitchMaster("orders 127.0.0.1 x 127.0.0.1 7002"));
        QVERIFY(!parseSwitchMaster(""));
    }
};

QTEST_APPLESS_MAIN(TstSentinelReplies)
#include "tst_sentinel_replies.moc"
