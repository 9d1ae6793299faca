// SPDX-License-Identifier: GPL-3.0-or-later
#include "FailoverStream.h"
#include "RedisFixture.h"
#include "SentinelFixture.h"
#include "TrustedTunnel.h"
#include "functions/ClusterNodes.h"
#include "functions/StandaloneGroup.h"
#include "sentinel/SentinelResolver.h"
#include "sentinel/SentinelWatcher.h"
#include "session/ConsoleSession.h"
#include "session/SentinelConfig.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using testsupport::SentinelGroup;

// A console session on a Sentinel profile (a real primary, replica and sentinel trio): every
// lane follows the primary when Sentinel names another one, without a reconnect and without
// resending anything; a write that meets READONLY makes the session ask the sentinels again;
// behind an SSH bastion the sentinels, their subscriptions and the primary are all tunnelled.
class TstSentinelSession : public QObject
{
    Q_OBJECT

    SentinelGroup m_group;
    static constexpr qint64 InitialStock = 1000000;
    static constexpr const char *Stock = "stock:{sku-q}:available";

    profiles::ConnectionProfile profile(int primaryIndex) const
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("orders behind sentinel");
        p.environment = QStringLiteral("test");
        p.sentinel.masterName = QStringLiteral("mymaster");
        QStringList sentinels;
        for (int i = 0; i < m_group.sentinelCount(); ++i)
            sentinels << QStringLiteral("127.0.0.1:%1").arg(m_group.sentinelPort(i));
        p.sentinel.sentinels = sentinels.join(QLatin1Char(','));
        p.port = m_group.dataPort(primaryIndex);
        p.timeoutMs = 3000;
        return p;
    }

    // A session on `p` following its sentinels, opened, its subscriptions up.
    static std::unique_ptr<session::ConsoleSession>
    followingSession(const profiles::ConnectionProfile &p,
                     std::shared_ptr<ssh::SshTunnel> tunnel = {})
    {
        auto s = std::make_unique<session::ConsoleSession>(p, QString(), QString(), tunnel);
        auto config = session::sentinelConfig(s->profile(), QString(), QString());
        if (!config.ok())
            qFatal("%s", qPrintable(config.error()));
        s->followSentinels(config.value());
        s->open();
        return s;
    }

    // The data node that alone says master (after a failover, the old primary says so until
    // the sentinels turn it into a replica); -1 when none does within 20 s.
    int settledPrimary() const
    {
        QElapsedTimer waited;
        waited.start();
        while (m_group.primary() < 0 && waited.elapsed() < 20000)
            QTest::qWait(50);
        return m_group.primary();
    }
    static QString role(session::ConsoleSession &s)
    {
        const auto role = s.client().call({"ROLE"}, 3000);
        return role.ok() ? QString::fromLatin1(role->at(0).bytes()) : testsupport::render(role);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_group.start(), qPrintable(m_group.errorString()));
        const QString settled = m_group.waitUntilSettled();
        QVERIFY2(settled.isEmpty(), qPrintable(settled));
        QCOMPARE(m_group.primary(), 0);
        auto admin = m_group.connectData(0);
        QVERIFY(admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"))})
                    .ok());
        QVERIFY(admin->call({"SET", Stock, QByteArray::number(InitialStock)}).ok());
        QVERIFY(admin->call({"WAIT", "1", "5000"}).ok());
    }

    // Unlabelled, a Sentinel profile is production: the primary may move to any host.
    void anUnlabelledSentinelProfileIsProduction()
    {
        profiles::ConnectionProfile p = profile(0);
        p.environment.clear();
        QCOMPARE(p.environmentKind(), profiles::Environment::Production);
        QVERIFY(p.validate().isEmpty());
        p.environment = QStringLiteral("local");
        QVERIFY(!p.validate().isEmpty());
    }

    // SENTINEL FAILOVER while deductions stream through the session's deduction lane: one
    // primaryMoved from A to B, every lane (the same connection objects) aimed at B, the stream
    // goes on there, and stock and receipts on B account for each deduction once; none ever
    // finds its own receipt already there (nothing was resent).
    void everyLaneFollowsAFailoverAndNothingIsResent()
    {
        const int a = settledPrimary();
        QVERIFY(a >= 0);
        const int b = 1 - a;
        auto session = followingSession(profile(a));
        QTRY_COMPARE_WITH_TIMEOUT(session->sentinelWatcher()->subscribedCount(), 3, 10000);
        QVERIFY(session->router().waitUntilDiscovered(5000));
        QSignalSpy moved(session.get(), &session::ConsoleSession::primaryMoved);
        redis::RedisClient *seed = &session->client();
        const QString bAddress = QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(b));

        testsupport::FailoverStream stream(
            this, Stock, "idem:{sku-q}:o",
            [&] {
                return testsupport::FailoverStream::Target{&session->deductionSender(),
                                                           session->deductionRouter().address()};
            },
            [&] {
                auto s = m_group.connectSentinel(1);
                const auto asked = s->call({"SENTINEL", "FAILOVER", "mymaster"});
                QVERIFY2(asked.ok(), qPrintable(testsupport::render(asked)));
            });
        connect(session.get(), &session::ConsoleSession::primaryMoved, this,
                [&] { stream.moved(); });
        stream.start();
        QTRY_VERIFY_WITH_TIMEOUT(stream.finished(), 60000);
        QCOMPARE(moved.size(), 1);
        QCOMPARE(moved.first().at(0).toString(),
                 QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(a)));
        QCOMPARE(moved.first().at(1).toString(), bAddress);
        QVERIFY(moved.first().at(2).toDateTime().isValid());

        // The same objects, aimed at B: whoever held them follows.
        QCOMPARE(&session->client(), seed);
        QCOMPARE(session->client().address(), bAddress);
        QCOMPARE(session->scanRouter().address(), bAddress);
        QCOMPARE(session->deductionRouter().address(), bAddress);
        QCOMPARE(session->profile().port, int(m_group.dataPort(b)));
        QTRY_COMPARE_WITH_TIMEOUT(session->client().state(), redis::ConnectionState::Ready, 10000);
        QCOMPARE(role(*session), QStringLiteral("master"));

        auto onB = m_group.connectData(b);
        testsupport::FailoverStream::Tally t;
        const QString wrong =
            stream.account(*onB, QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(a)), &t);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        const auto stock = onB->call({"GET", Stock});
        QVERIFY(stock.ok());
        QCOMPARE(stock->bytes().toLongLong(), InitialStock - t.receipted);
        qInfo("%lld deductions through the session: %d applied (%d lost with the old primary), "
              "%d outcome unknown",
              qint64(stream.orders().size()), t.applied, t.lost, t.unknown);
        const auto &orders = stream.orders();
        const bool someOnB = std::any_of(orders.cbegin(), orders.cend(), [&](const auto &o) {
            return o.sentTo == bAddress
                   && o.outcome == testsupport::FailoverStream::Outcome::Applied;
        });
        QVERIFY(someOnB);
    }

    // A session made for a node that is no longer the primary (the sentinels' message was
    // missed): its first write meets READONLY, is not resent, and the session asks the
    // sentinels, moves to the primary they name, and the next write lands there.
    void aWriteThatMeetsReadOnlyMovesTheSessionToThePrimary()
    {
        const int primary = settledPrimary();
        QVERIFY(primary >= 0);
        const int stale = 1 - primary;
        auto session = followingSession(profile(stale));
        QSignalSpy moved(session.get(), &session::ConsoleSession::primaryMoved);
        const redis::Command deduct{
            "FCALL", "inventory_deduct_v2", "2", Stock, "idem:{sku-q}:o900000", "1", "3600"};
        const auto refused = session->sender().call(deduct, 10000);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.english.startsWith(QLatin1String("READONLY")),
                 qPrintable(testsupport::render(refused)));
        QVERIFY(moved.wait(10000) || !moved.isEmpty());
        QCOMPARE(moved.first().at(0).toString(),
                 QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(stale)));
        QCOMPARE(moved.first().at(1).toString(),
                 QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(primary)));
        QTRY_COMPARE_WITH_TIMEOUT(session->client().state(), redis::ConnectionState::Ready, 10000);
        const auto applied = session->sender().call(deduct, 10000);
        QVERIFY2(applied.ok() && applied->at(0).toInteger() == 1,
                 qPrintable(testsupport::render(applied)));
    }

    // The libraries matrix of a Sentinel session takes its replicas from SENTINEL REPLICAS
    // too: one the primary's INFO does not list (its link down) is still shown, unreadable
    // when it cannot be reached, and one both name is listed once.
    void theLibrariesMatrixAsksTheSentinelsForReplicas()
    {
        const int primary = settledPrimary();
        QVERIFY(primary >= 0);
        // Until the old primary has synchronised with the new one, it reports another
        // replication id and is rightly left out of the group.
        const QString settled = m_group.waitUntilSettled();
        QVERIFY2(settled.isEmpty(), qPrintable(settled));
        auto session = followingSession(profile(primary));
        QTRY_COMPARE_WITH_TIMEOUT(session->client().state(), redis::ConnectionState::Ready, 10000);
        using Members = functions::StandaloneGroup::Members;
        std::optional<QString> problem;
        Members named;
        session->readSentinelReplicas(this, [&](const Members &m, const QString &why) {
            named = m;
            problem = why;
        });
        QTRY_VERIFY_WITH_TIMEOUT(problem.has_value(), 10000);
        QVERIFY2(problem->isEmpty(), qPrintable(*problem));
        QCOMPARE(named.size(), 1);
        QCOMPARE(named.first().port, m_group.dataPort(1 - primary));

        functions::ClusterNodes nodes(session->router());
        nodes.setReplicaSource([&](QObject *context, auto done) {
            session->readSentinelReplicas(context, [done](Members m, const QString &why) {
                m << overview::ReplicationGroup::Member{QStringLiteral("127.0.0.1"), 1,
                                                        QStringLiteral("slave,s_down")};
                done(m, why);
            });
        });
        const QString note = nodes.standaloneGroup().readBlocking();
        QVERIFY2(note.contains(QLatin1String("127.0.0.1:1 could not be reached at the address "
                                             "the replica source (SENTINEL REPLICAS) gives")),
                 qPrintable(note));
        QStringList addresses;
        for (const functions::MatrixNode &n : nodes.matrixNodes())
            addresses << n.address;
        QCOMPARE(addresses,
                 (QStringList{QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(primary)),
                              QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(1 - primary)),
                              QStringLiteral("127.0.0.1:1")}));
    }

    // Behind a bastion: the sentinels the resolver never asked are reached only by the
    // watcher's subscriptions, so their ports in sshd's log prove those went through the
    // tunnel; the primary too.
    void behindABastionTheSubscriptionsGoThroughTheTunnel()
    {
        testsupport::Sshd sshd;
        QVERIFY2(sshd.start(), qPrintable(sshd.errorString()));
        QTemporaryDir dir;
        auto tunnel = testsupport::trustedTunnel<std::shared_ptr<ssh::SshTunnel>>(
            sshd, dir.filePath(QStringLiteral("known_hosts")));
        QVERIFY(tunnel);
        const int primary = settledPrimary();
        QVERIFY(primary >= 0);
        auto session = followingSession(profile(primary), tunnel);
        QTRY_COMPARE_WITH_TIMEOUT(session->sentinelWatcher()->subscribedCount(), 3, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(session->client().state(), redis::ConnectionState::Ready, 10000);
        QCOMPARE(role(*session), QStringLiteral("master"));
        const QString log = sshd.fullLog();
        QList<quint16> ports{m_group.dataPort(primary)};
        for (int i = 0; i < m_group.sentinelCount(); ++i)
            ports << m_group.sentinelPort(i);
        for (quint16 port : ports)
            QVERIFY2(log.contains(QStringLiteral("target 127.0.0.1 port %1").arg(port)),
                     qPrintable(QStringLiteral("port %1 not reached through sshd").arg(port)));
    }
};

QTEST_MAIN(TstSentinelSession)
#include "tst_sentinel_session.moc"
