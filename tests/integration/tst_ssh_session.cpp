// SPDX-License-Identifier: GPL-3.0-or-later
#include "Isolation.h"
#include "RedisFixture.h"
#include "TrustedTunnel.h"
#include "session/ConsoleSession.h"
#include "session/TunnelRoute.h"

#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using testsupport::Sshd;

// A console session behind an SSH bastion (a real sshd on loopback): every connection of the
// session goes through the tunnel, a cluster's nodes included, and a node promoted after the
// session opened; a dead tunnel is named and reconnect brings it back; a node the tunnel
// cannot forward to fails without being tried directly. The sshd log (LogLevel DEBUG) names
// the target of every forwarded connection, which is how the tests see what went through.
class TstSshSession : public QObject
{
    Q_OBJECT

    Sshd m_sshd;
    QTemporaryDir m_data;

    std::shared_ptr<ssh::SshTunnel> tunnel()
    {
        return testsupport::trustedTunnel<std::shared_ptr<ssh::SshTunnel>>(
            m_sshd, m_data.filePath(QStringLiteral("known_hosts")));
    }

    profiles::ConnectionProfile profile(quint16 port) const
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("behind the bastion");
        p.host = QStringLiteral("127.0.0.1");
        p.port = port;
        p.environment = QStringLiteral("test");
        p.ssh.bastion = QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(m_sshd.port());
        p.timeoutMs = 3000;
        return p;
    }

    // The ports sshd opened a forwarded connection to.
    QSet<quint16> forwardedPorts() const
    {
        static const QRegularExpression target(
            QStringLiteral("target 127\\.0\\.0\\.1 port (\\d+)"));
        QSet<quint16> ports;
        const QString log = m_sshd.fullLog();
        for (auto it = target.globalMatch(log); it.hasNext();)
            ports.insert(quint16(it.next().captured(1).toUInt()));
        return ports;
    }

    static bool answers(redis::CommandSender &sender, const QByteArray &key)
    {
        const auto r = sender.call({"SET", key, "1"}, 3000);
        return r.ok() && r->bytes() == "OK";
    }

private slots:
    void initTestCase()
    {
        INVENTORY_REQUIRE_ISOLATION();
        QVERIFY(m_data.isValid());
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.errorString()));
    }

    void everyClusterNodeGoesThroughTheTunnelAPromotedOneToo()
    {
        testsupport::RedisCluster cluster;
        testsupport::RedisCluster::Options o;
        o.replicasPerPrimary = 1;
        QVERIFY2(cluster.start(o), qPrintable(cluster.errorString()));
        const auto t = tunnel();
        QVERIFY(t);
        session::ConsoleSession session(profile(cluster.nodes().first().port), {}, {}, t);
        session.open();
        QVERIFY(session.router().waitUntilDiscovered(15000));
        // Keys spread over every primary's slots.
        for (int i = 0; i < 30; ++i)
            QVERIFY(answers(session.router(), "k" + QByteArray::number(i)));
        const QList<int> primaries = cluster.primaries();
        QCOMPARE(primaries.size(), 3);
        QSet<quint16> forwarded = forwardedPorts();
        for (int p : primaries)
            QVERIFY2(forwarded.contains(cluster.nodes().at(p).port),
                     qPrintable(QStringLiteral("primary on port %1 not reached through sshd")
                                    .arg(cluster.nodes().at(p).port)));

        // A replica the session never used is promoted: the session reaches it through the
        // tunnel too, without reconnecting.
        const int replica = cluster.replicaOf(primaries.first());
        QVERIFY(replica >= 0);
        const quint16 replicaPort = cluster.nodes().at(replica).port;
        QVERIFY(!forwarded.contains(replicaPort));
        QVERIFY2(cluster.waitUntilReplicated().isEmpty(), "replication behind");
        const QString failed = cluster.failover(replica);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        // Every key is written again: those of the old primary's slots go to the new one.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int i = 0; i < 30; ++i)
                    if (!answers(session.router(), "k" + QByteArray::number(i)))
                        return false;
                return true;
            }(),
            20000);
        QVERIFY2(forwardedPorts().contains(replicaPort),
                 "the promoted replica was not reached through sshd");
    }

    void aDeadTunnelIsNamedAndReconnectBringsItBack()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const auto t = tunnel();
        QVERIFY(t);
        session::ConsoleSession session(profile(redis.port()), {}, {}, t);
        session.open();
        QVERIFY(session.router().waitUntilDiscovered(15000));
        QVERIFY(answers(session.router(), "before"));

        QSignalSpy died(&session, &session::ConsoleSession::tunnelDied);
        QSignalSpy restored(&session, &session::ConsoleSession::tunnelRestored);
        QVERIFY(::kill(pid_t(t->masterPid()), SIGKILL) == 0);
        QTRY_COMPARE_WITH_TIMEOUT(died.count(), 1, 15000);
        const QString why = died.first().first().value<core::Sentence>().english;
        QVERIFY2(why.contains(QStringLiteral("SSH tunnel")) && why.contains("unknown outcome"),
                 qPrintable(why));
        // Nothing reaches the server while the tunnel is down: an error, never a reply.
        QVERIFY(!session.router().call({"SET", "during", "1"}, 1000).ok());

        session.reconnect();
        QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(answers(session.router(), "after"), 15000);
        QCOMPARE(*redis.connect()->call({"EXISTS", "during"})->integer(), qint64(0));
    }

    // ssh killed while deductions stream through the tunnel, eight in flight: each ends
    // applied, refused before it was sent, or outcome unknown; none is applied twice (nothing
    // was resent), and the receipts and the stock agree on every one.
    void sshKilledMidDeductionsLeavesEveryOneAccountedFor()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const auto admin = redis.connect();
        QVERIFY(admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        const qint64 initial = 1000000;
        QVERIFY(admin->call({"SET", "stock:{s}:available", QByteArray::number(initial)}).ok());
        const auto t = tunnel();
        QVERIFY(t);
        session::ConsoleSession session(profile(redis.port()), {}, {}, t);
        session.open();
        QVERIFY(session.router().waitUntilDiscovered(15000));

        enum class Outcome { Pending, Applied, NotSent, Unknown };
        QList<Outcome> outcomes;
        QStringList oddReplies;
        int inFlight = 0, done = 0;
        const auto receipt = [](qsizetype n) {
            return "idem:{s}:o" + QByteArray::number(n);
        };
        std::function<void()> next = [&] {
            while (inFlight < 8 && outcomes.size() < 600) {
                const qsizetype n = outcomes.size();
                outcomes << Outcome::Pending;
                ++inFlight;
                session.router().send(
                    {"FCALL", "inventory_deduct_v1", "2", "stock:{s}:available", receipt(n), "1",
                     "3600"},
                    this,
                    [&, n](const redis::ReplyResult &r) {
                        if (r.ok() && r->at(0).toInteger() == 1)
                            outcomes[n] = Outcome::Applied;
                        else if (!r.ok())
                            outcomes[n] =
                                r.error().mayHaveRun() ? Outcome::Unknown : Outcome::NotSent;
                        else
                            oddReplies << testsupport::render(r); // {2,...} would be a resend
                        --inFlight;
                        if (++done == 200)
                            ::kill(pid_t(t->masterPid()), SIGKILL);
                        next();
                    },
                    3000);
            }
        };
        next();
        QTRY_VERIFY_WITH_TIMEOUT(inFlight == 0 && outcomes.size() == 600, 60000);
        QVERIFY2(oddReplies.isEmpty(), qPrintable(oddReplies.join(QLatin1Char('\n'))));
        qint64 receipts = 0;
        int applied = 0, notSent = 0, unknown = 0;
        for (qsizetype n = 0; n < outcomes.size(); ++n) {
            const bool exists = *admin->call({"EXISTS", receipt(n)})->integer() == 1;
            receipts += exists;
            switch (outcomes[n]) {
            case Outcome::Applied:
                ++applied;
                QVERIFY2(exists, qPrintable(QStringLiteral("order %1 applied, no receipt").arg(n)));
                break;
            case Outcome::NotSent:
                ++notSent;
                QVERIFY2(!exists,
                         qPrintable(QStringLiteral("order %1 not sent, yet it ran").arg(n)));
                break;
            case Outcome::Unknown:
                ++unknown;
                break;
            case Outcome::Pending:
                QFAIL("a deduction never ended");
            }
        }
        qInfo("600 deductions: %d applied, %d not sent, %d outcome unknown", applied, notSent,
              unknown);
        QVERIFY(applied >= 200);
        QVERIFY2(notSent + unknown > 0, "the tunnel died after the stream had ended");
        QCOMPARE(admin->call({"GET", "stock:{s}:available"})->bytes().toLongLong(),
                 initial - receipts);
    }

    // TLS inside the tunnel verifies the certificate against the server's own address, not the
    // forward's 127.0.0.1: a certificate naming only 127.0.0.2 is refused directly at 127.0.0.1
    // and accepted through the tunnel when the profile names 127.0.0.2.
    void tlsThroughTheTunnelVerifiesTheServersOwnAddress()
    {
        testsupport::TlsRedis redis;
        QVERIFY2(redis.start(false, QStringLiteral("127.0.0.2")), qPrintable(redis.errorString()));
        redis::ConnectionOptions direct = redis.options();
        direct.tls.serverName.clear();
        redis::RedisClient refused(direct);
        refused.open();
        QTRY_COMPARE_WITH_TIMEOUT(refused.failure(), redis::ConnectFailure::Tls, 10000);

        const auto t = tunnel();
        QVERIFY(t);
        profiles::ConnectionProfile p = profile(redis.port());
        p.host = QStringLiteral("127.0.0.2");
        p.tls = direct.tls;
        session::ConsoleSession session(p, {}, {}, t);
        session.open();
        QVERIFY(session.router().waitUntilDiscovered(15000));
        QVERIFY(answers(session.router(), "over-tls"));
        QVERIFY(m_sshd.fullLog().contains(
            QStringLiteral("target 127.0.0.2 port %1").arg(redis.port())));
    }

    // A forward the tunnel cannot make (here: the tunnel is closed) fails the connection with
    // the reason, and the server is never tried directly.
    void aNodeTheTunnelCannotReachIsNotTriedDirectly()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const auto t = tunnel();
        QVERIFY(t);
        t->close();
        redis::ConnectionOptions options = profile(redis.port()).toConnectionOptions({});
        options.clientName = "never-direct";
        options.route = session::tunnelRoute(t);
        redis::RedisClient client(options);
        client.open();
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), redis::ConnectionState::Failed, 10000);
        QVERIFY2(
            client.stateDetail().english.contains(QStringLiteral("through the SSH tunnel via")),
            qPrintable(client.stateDetail().english));
        const auto clients = redis.connect()->call({"CLIENT", "LIST"});
        QVERIFY(clients.ok());
        QVERIFY2(!clients->bytes().contains("never-direct"), clients->bytes().constData());
    }
};

QTEST_GUILESS_MAIN(TstSshSession)
#include "tst_ssh_session.moc"
