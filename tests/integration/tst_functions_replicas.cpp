// SPDX-License-Identifier: GPL-3.0-or-later
// Function libraries on a standalone primary with two replicas (real servers, the replicas
// started with --replicaof): `functions status` reads the whole group, from the primary's URL
// or a replica's, finds a replica that was changed on its own, leaves out a server that answers
// at an address INFO names but is not in the group (and closes its connection to it), reaches a
// replica announced at an address of its own through the announced-address map, and says so
// when the user may not ask INFO.
#include "CliRunner.h"
#include "RedisFixture.h"
#include "demo/LocalRedisServer.h"
#include "functions/StandaloneGroup.h"
#include "redis/LibraryList.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using testsupport::runCli;

class TstFunctionsReplicas : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_primary;
    testsupport::StandaloneRedis m_replica;
    testsupport::StandaloneRedis m_sibling; // the second replica
    QByteArray m_shipped;

    QString primaryAddress() const { return QStringLiteral("127.0.0.1:%1").arg(m_primary.port()); }
    QString replicaAddress() const { return QStringLiteral("127.0.0.1:%1").arg(m_replica.port()); }
    QString siblingAddress() const { return QStringLiteral("127.0.0.1:%1").arg(m_sibling.port()); }

    static QByteArray codeOn(testsupport::StandaloneRedis &server)
    {
        auto r = server.connect()->call(
            {"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1", "WITHCODE"});
        auto libs = redis::decodeFunctionList(*r);
        return libs && !libs.value().isEmpty() ? libs.value().first().code : QByteArray();
    }

    static QJsonObject json(const testsupport::CliRun &r)
    {
        return QJsonDocument::fromJson(r.out).object();
    }
    static QStringList addresses(const QJsonArray &nodes)
    {
        QStringList out;
        for (const QJsonValue &n : nodes)
            out << n.toObject().value("address").toString();
        return out;
    }
    // The replicas the primary lists (INFO replication), as host:port.
    QStringList replicasNamed()
    {
        const auto r = m_primary.connect()->call({"INFO", "replication"});
        QStringList out;
        for (const QByteArray &line : r->bytes().split('\n')) {
            if (!line.startsWith("slave") || !line.contains("ip="))
                continue;
            const QByteArray fields = line.mid(line.indexOf(':') + 1);
            QString ip, port;
            for (const QByteArray &f : fields.trimmed().split(',')) {
                if (f.startsWith("ip="))
                    ip = QString::fromLatin1(f.mid(3));
                if (f.startsWith("port="))
                    port = QString::fromLatin1(f.mid(5));
            }
            out << ip + QLatin1Char(':') + port;
        }
        out.sort();
        return out;
    }
    QStringList sorted(QStringList list)
    {
        list.sort();
        return list;
    }
    // Makes the sibling announce this port (0: its own) to its primary.
    void siblingAnnounces(quint16 port)
    {
        QVERIFY(m_sibling.connect()
                    ->call({"CONFIG", "SET", "replica-announce-port", QByteArray::number(port)})
                    .ok());
        // Announced when the replica connects: make both reconnect.
        QVERIFY(m_primary.connect()->call({"CLIENT", "KILL", "TYPE", "replica"}).ok());
    }
    static qint64 connectedClients(testsupport::StandaloneRedis &server)
    {
        const auto r = server.connect()->call({"INFO", "clients"});
        for (const QByteArray &line : r->bytes().split('\n'))
            if (line.startsWith("connected_clients:"))
                return line.mid(18).trimmed().toLongLong();
        return -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_primary.start(), qPrintable(m_primary.errorString()));
        QVERIFY2(m_replica.startReplicaOf(m_primary), qPrintable(m_replica.errorString()));
        QVERIFY2(m_sibling.startReplicaOf(m_primary), qPrintable(m_sibling.errorString()));
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), siblingAddress()}),
                                  10000);
        m_shipped = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
    }

    void init()
    {
        // The replica follows, read-only, and holds what the primary holds.
        QVERIFY(m_replica.connect()->call({"CONFIG", "SET", "replica-read-only", "yes"}).ok());
        QVERIFY(m_primary.connect()->call({"FUNCTION", "LOAD", "REPLACE", m_shipped}).ok());
        QTRY_COMPARE_WITH_TIMEOUT(codeOn(m_replica), m_shipped, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(codeOn(m_sibling), m_shipped, 10000);
    }

    void coreListsTheReplicasAfterThePrimary()
    {
        auto seed = m_primary.connect();
        functions::StandaloneGroup group(*seed, seed->address(), seed->options());
        QCOMPARE(group.nodes().size(), 1); // not asked yet: the server alone
        QCOMPARE(group.readBlocking(), QString());
        const QList<functions::MatrixNode> nodes = group.nodes();
        QCOMPARE(nodes.size(), 3);
        QCOMPARE(nodes.at(0).address, primaryAddress());
        QVERIFY(nodes.at(0).primary);
        QCOMPARE(nodes.at(0).reader, seed.get());
        QStringList replicas;
        for (int i = 1; i < 3; ++i) {
            QVERIFY(!nodes.at(i).primary);
            QCOMPARE(nodes.at(i).primaryAddress, primaryAddress());
            QVERIFY(nodes.at(i).reader != seed.get()); // a connection of its own
            replicas << nodes.at(i).address;
        }
        QCOMPARE(sorted(replicas), sorted({replicaAddress(), siblingAddress()}));
    }

    // From a replica, its primary names the whole group; the replica itself is read over the
    // seed's own connection, at its place in the primary's list.
    void coreFromAReplicaListsItsSiblings()
    {
        auto seed = m_replica.connect();
        functions::StandaloneGroup group(*seed, seed->address(), seed->options());
        QCOMPARE(group.readBlocking(), QString());
        const QList<functions::MatrixNode> nodes = group.nodes();
        QCOMPARE(nodes.size(), 3);
        QCOMPARE(nodes.at(0).address, primaryAddress());
        QVERIFY(nodes.at(0).primary);
        int seedRows = 0;
        QStringList replicas;
        for (int i = 1; i < 3; ++i) {
            QCOMPARE(nodes.at(i).primaryAddress, primaryAddress());
            replicas << nodes.at(i).address;
            seedRows += nodes.at(i).reader == seed.get() ? 1 : 0;
            if (nodes.at(i).reader == seed.get())
                QCOMPARE(nodes.at(i).address, replicaAddress());
        }
        QCOMPARE(seedRows, 1);
        QCOMPARE(sorted(replicas), sorted({replicaAddress(), siblingAddress()}));
    }

    void statusReadsTheWholeGroup_data()
    {
        QTest::addColumn<QString>("seed");
        QTest::newRow("from the primary") << primaryAddress();
        QTest::newRow("from a replica") << replicaAddress();
    }
    void statusReadsTheWholeGroup()
    {
        QFETCH(QString, seed);
        const auto r = runCli(
            {"functions", "status", "--url", QStringLiteral("redis://%1").arg(seed), "--json"});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        const QJsonArray nodes = json(r).value("nodes").toArray();
        QCOMPARE(nodes.size(), 3);
        QCOMPARE(nodes.at(0).toObject().value("address").toString(), primaryAddress());
        QCOMPARE(nodes.at(0).toObject().value("role").toString(), QStringLiteral("primary"));
        for (int i = 1; i < 3; ++i) {
            QCOMPARE(nodes.at(i).toObject().value("role").toString(), QStringLiteral("replica"));
            QCOMPARE(nodes.at(i).toObject().value("primary").toString(), primaryAddress());
        }
        QCOMPARE(sorted(addresses(nodes).mid(1)), sorted({replicaAddress(), siblingAddress()}));
        QCOMPARE(json(r).value("state").toString(), QStringLiteral("in-line"));
        QVERIFY(!json(r).contains("replication_note"));

        const auto text =
            runCli({"functions", "status", "--url", QStringLiteral("redis://%1").arg(seed)});
        QVERIFY2(text.exitCode == 0, text.out + text.err);
        QVERIFY2(text.out.contains("Libraries by node (1 primary, 2 replicas)"), text.out);
        QVERIFY2(text.out.contains("in line: 3 nodes hold the same libraries"), text.out);
    }

    // A writable replica changed on its own: drift on the replica, and the advice is not to
    // align the primaries (which would change nothing there).
    void aReplicaChangedOnItsOwnIsNamed()
    {
        auto replica = m_replica.connect();
        QVERIFY(replica->call({"CONFIG", "SET", "replica-read-only", "no"}).ok());
        QVERIFY(replica->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());

        const auto r = runCli({"functions", "status", "--url",
                               QStringLiteral("redis://%1").arg(primaryAddress()), "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r).value("state").toString(), QStringLiteral("drift"));
        const QJsonArray drift = json(r).value("drift").toArray();
        QCOMPARE(drift.size(), 1);
        QCOMPARE(drift.at(0).toObject().value("node").toString(), replicaAddress());
        QCOMPARE(drift.at(0).toObject().value("kind").toString(), QStringLiteral("missing"));

        const auto text = runCli(
            {"functions", "status", "--url", QStringLiteral("redis://%1").arg(primaryAddress())});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(replicaAddress().toUtf8()
                                   + " differs from its primary, although replication copies"),
                 text.out);
        QVERIFY2(!text.out.contains("functions align"), text.out);
    }

    // A session user who may not run INFO: the server alone is read, and the note says why.
    void withoutInfoTheNoteSaysWhy()
    {
        auto admin = m_primary.connect();
        QVERIFY(admin->call({"ACL", "SETUSER", "noinfo", "on", ">pw", "~*", "&*", "+@all", "-info"})
                    .ok());
        const auto r =
            runCli({"functions", "status", "--url",
                    QStringLiteral("redis://noinfo:pw@%1").arg(primaryAddress()), "--json"});
        QVERIFY(admin->call({"ACL", "DELUSER", "noinfo"}).ok());
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QCOMPARE(json(r).value("nodes").toArray().size(), 1);
        const QString note = json(r).value("replication_note").toString();
        QVERIFY2(note.startsWith(QStringLiteral("replicas not checked: ")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("NOPERM")) || note.contains(QStringLiteral("info")),
                 qPrintable(note));
    }

    // INFO replication gives the addresses the servers announce, and from here one of them
    // can be another server (a NAT, the server's own loopback). The sibling announces the
    // port of a server outside the group: that server is asked who it is and left out, never
    // read as the replica, and the note names it. A stranger that is itself a replica (of
    // another primary) is told apart by its replication id alone.
    void aServerOutsideTheGroupIsLeftOut_data()
    {
        QTest::addColumn<bool>("strangerIsAReplica");
        QTest::newRow("a primary") << false;
        QTest::newRow("a replica of another primary") << true;
    }
    void aServerOutsideTheGroupIsLeftOut()
    {
        QFETCH(bool, strangerIsAReplica);
        testsupport::StandaloneRedis otherPrimary;
        testsupport::StandaloneRedis stranger;
        if (strangerIsAReplica) {
            QVERIFY2(otherPrimary.start(), qPrintable(otherPrimary.errorString()));
            QVERIFY2(stranger.startReplicaOf(otherPrimary), qPrintable(stranger.errorString()));
            QTRY_VERIFY_WITH_TIMEOUT(stranger.connect()
                                         ->call({"INFO", "replication"})
                                         ->bytes()
                                         .contains("master_link_status:up"),
                                     10000);
        } else {
            QVERIFY2(stranger.start(), qPrintable(stranger.errorString()));
        }
        const QString strangerAddress = QStringLiteral("127.0.0.1:%1").arg(stranger.port());
        siblingAnnounces(stranger.port());
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), strangerAddress}),
                                  10000);

        const auto r = runCli({"functions", "status", "--url",
                               QStringLiteral("redis://%1").arg(primaryAddress()), "--json"});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QCOMPARE(addresses(json(r).value("nodes").toArray()),
                 QStringList({primaryAddress(), replicaAddress()}));
        const QString note = json(r).value("replication_note").toString();
        QVERIFY2(note.contains(QStringLiteral("replica %1 is left out").arg(strangerAddress)),
                 qPrintable(note));

        // A long-lived group (the Libraries tab's) does not stay connected to the outsider.
        // Its clients before: this ask, and, for a replica, its own primary's link.
        const qint64 clientsBefore = connectedClients(stranger);
        {
            auto seed = m_primary.connect();
            functions::StandaloneGroup group(*seed, seed->address(), seed->options());
            QVERIFY(group.readBlocking().contains(strangerAddress));
            QCOMPARE(group.nodes().size(), 2);
            QTRY_COMPARE_WITH_TIMEOUT(connectedClients(stranger), clientsBefore, 5000);
        }
        siblingAnnounces(0);
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), siblingAddress()}),
                                  10000);
    }

    // A replica announcing an address this machine does not reach it at (a NAT, a container's
    // port mapping) is reached through the profile's map, and still checked as a member.
    void anAnnouncedAddressIsMappedToTheReachableOne()
    {
        const quint16 announced = demo::LocalRedisServer::freePort(); // nothing listens there
        const QString announcedAddress = QStringLiteral("127.0.0.1:%1").arg(announced);
        siblingAnnounces(announced);
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), announcedAddress}),
                                  10000);
        const QString url = QStringLiteral("redis://%1").arg(primaryAddress());

        // Unmapped: the announced address answers nobody, and the matrix says so.
        const auto unmapped = runCli({"functions", "status", "--url", url, "--json"});
        QVERIFY2(addresses(json(unmapped).value("nodes").toArray()).contains(announcedAddress),
                 unmapped.out + unmapped.err);
        QCOMPARE(json(unmapped).value("state").toString(), QStringLiteral("unreadable"));
        // ... and what to do about it.
        const QString hint = json(unmapped).value("replication_note").toString();
        QVERIFY2(hint.contains(QStringLiteral("replica %1 could not be reached at the address "
                                              "INFO replication gives")
                                   .arg(announcedAddress))
                     && hint.contains(QStringLiteral("--announced-map")),
                 qPrintable(hint));

        const auto r = runCli({"functions", "status", "--url", url, "--json", "--announced-map",
                               QStringLiteral("%1=%2").arg(announcedAddress, siblingAddress())});
        siblingAnnounces(0);
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QCOMPARE(sorted(addresses(json(r).value("nodes").toArray()).mid(1)),
                 sorted({replicaAddress(), siblingAddress()}));
        QCOMPARE(json(r).value("state").toString(), QStringLiteral("in-line"));
        QVERIFY2(!json(r).contains("replication_note"), r.out);

        // Mapped onto a server outside the group, it is left out: the check still decides.
        testsupport::StandaloneRedis stranger;
        QVERIFY2(stranger.start(), qPrintable(stranger.errorString()));
        siblingAnnounces(announced);
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), announcedAddress}),
                                  10000);
        const QString strangerAddress = QStringLiteral("127.0.0.1:%1").arg(stranger.port());
        const auto wrong = runCli({"functions", "status", "--url", url, "--json", "--announced-map",
                                   QStringLiteral("%1=%2").arg(announcedAddress, strangerAddress)});
        siblingAnnounces(0);
        QVERIFY2(wrong.exitCode == 0, wrong.out + wrong.err);
        QCOMPARE(addresses(json(wrong).value("nodes").toArray()),
                 QStringList({primaryAddress(), replicaAddress()}));
        const QString note = json(wrong).value("replication_note").toString();
        QVERIFY2(note.contains(QStringLiteral("replica %1 (announced as %2) is left out")
                                   .arg(strangerAddress, announcedAddress)),
                 qPrintable(note));
        QTRY_COMPARE_WITH_TIMEOUT(replicasNamed(), sorted({replicaAddress(), siblingAddress()}),
                                  10000);
    }
};

QTEST_GUILESS_MAIN(TstFunctionsReplicas)
#include "tst_functions_replicas.moc"
