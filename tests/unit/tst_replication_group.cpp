// SPDX-License-Identifier: GPL-3.0-or-later
// INFO replication as a standalone server's replication group: a primary's replicas, a
// replica's primary, and what is refused (a line Redis would not write is an error, never a
// node with port 0).
#include "overview/ReplicationGroup.h"

#include <QTest>

using overview::decodeReplicationGroup;

class TstReplicationGroup : public QObject
{
    Q_OBJECT

private slots:
    void primaryWithReplicas()
    {
        const auto g =
            decodeReplicationGroup("# Server\r\nrun_id:4f0c\r\n# Replication\r\nrole:master\r\n"
                                   "connected_slaves:2\r\n"
                                   "slave0:ip=10.0.0.5,port=6380,state=online,offset=42,lag=0\r\n"
                                   "slave1:ip=::1,port=6381,state=wait_bgsave,offset=0,lag=0\r\n"
                                   "master_failover_state:no-failover\r\n"
                                   "master_replid:9a1b\r\n");
        QVERIFY2(g.ok(), qPrintable(g.ok() ? QString() : g.error()));
        QVERIFY(!g->isReplica);
        QCOMPARE(g->replicas.size(), 2);
        QCOMPARE(g->replicas.at(0).address(), QStringLiteral("10.0.0.5:6380"));
        QCOMPARE(g->replicas.at(0).state, QStringLiteral("online"));
        QCOMPARE(g->replicas.at(1).address(), QStringLiteral("[::1]:6381"));
        QCOMPARE(g->replicas.at(1).state, QStringLiteral("wait_bgsave"));
        QCOMPARE(g->replicationId, QByteArray("9a1b"));
        QCOMPARE(g->runId, QByteArray("4f0c"));
    }

    void primaryAlone()
    {
        const auto g =
            decodeReplicationGroup("role:master\r\nconnected_slaves:0\r\nmaster_replid:9a1b\r\n");
        QVERIFY(g.ok());
        QVERIFY(!g->isReplica);
        QVERIFY(g->replicas.isEmpty());
    }

    void replica()
    {
        const auto g = decodeReplicationGroup("role:slave\r\nmaster_host:primary.example\r\n"
                                              "master_port:6379\r\nmaster_link_status:down\r\n"
                                              "master_replid:77ee\r\n");
        QVERIFY(g.ok());
        QVERIFY(g->isReplica);
        QCOMPARE(g->primary.address(), QStringLiteral("primary.example:6379"));
        QCOMPARE(g->primary.state, QStringLiteral("down"));
        QCOMPARE(g->replicationId, QByteArray("77ee"));
        QVERIFY(g->runId.isEmpty()); // INFO server was not asked for
        QVERIFY(g->replicas.isEmpty());
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("info");
        QTest::addColumn<QString>("names");
        QTest::newRow("no role") << QByteArray("connected_slaves:0\r\n") << "role";
        QTest::newRow("unknown role") << QByteArray("role:sentinel\r\n") << "role";
        QTest::newRow("count not a number")
            << QByteArray("role:master\r\nmaster_replid:ab\r\nconnected_slaves:x\r\n")
            << "connected_slaves";
        QTest::newRow("a replica line missing")
            << QByteArray("role:master\r\nmaster_replid:ab\r\nconnected_slaves:2\r\n"
                          "slave0:ip=10.0.0.5,port=6380,state=online\r\n")
            << "slave1";
        QTest::newRow("port zero")
            << QByteArray("role:master\r\nmaster_replid:ab\r\nconnected_slaves:1\r\n"
                          "slave0:ip=10.0.0.5,port=0,state=online\r\n")
            << "slave0";
        QTest::newRow("port too large")
            << QByteArray("role:master\r\nmaster_replid:ab\r\nconnected_slaves:1\r\n"
                          "slave0:ip=10.0.0.5,port=70000,state=online\r\n")
            << "slave0";
        QTest::newRow("no ip") << QByteArray(
            "role:master\r\nmaster_replid:ab\r\nconnected_slaves:1\r\n"
            "slave0:port=6380,state=online\r\n")
                               << "slave0";
        QTest::newRow("replica without its primary")
            << QByteArray("role:slave\r\nmaster_replid:ab\r\nmaster_port:6379\r\n")
            << "master_host";
        QTest::newRow("no replication id")
            << QByteArray("role:master\r\nconnected_slaves:0\r\n") << "master_replid";
    }
    void refused()
    {
        QFETCH(QByteArray, info);
        QFETCH(QString, names);
        const auto g = decodeReplicationGroup(info);
        QVERIFY(!g.ok());
        QVERIFY2(g.error().contains(names), qPrintable(g.error()));
        QVERIFY2(g.error().startsWith(QStringLiteral("INFO replication: ")), qPrintable(g.error()));
    }
};

QTEST_GUILESS_MAIN(TstReplicationGroup)
#include "tst_replication_group.moc"
