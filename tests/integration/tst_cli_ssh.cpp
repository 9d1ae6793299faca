// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "Isolation.h"
#include "RedisFixture.h"
#include "SshdFixture.h"

#include <QDir>
#include <QFile>
#include <QTest>

using testsupport::Sshd;

// inventory-cli --ssh against a real sshd and redis-server on loopback: the host key is
// refused until --ssh-trust-host-key names it exactly, and then the verb runs through the
// tunnel, labelled production.
class TstCliSsh : public QObject
{
    Q_OBJECT

    Sshd m_sshd;
    testsupport::StandaloneRedis m_redis;

    testsupport::CliRun cli(const QStringList &extra, const QString &verb = QStringLiteral("ping"))
    {
        testsupport::CliOptions o;
        o.environment.remove(QStringLiteral("QT_LOGGING_RULES"));
        o.environment.remove(QStringLiteral("SSH_AUTH_SOCK"));
        o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        return testsupport::runCli(
            QStringList{verb, QStringLiteral("--url"),
                        QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
                        QStringLiteral("--ssh"),
                        QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(m_sshd.port()),
                        QStringLiteral("--ssh-identity"), m_sshd.clientKey()}
                + extra,
            o);
    }

    static QString knownHosts()
    {
        return qEnvironmentVariable("INVENTORY_DATA_DIR") + QStringLiteral("/ssh_known_hosts");
    }

private slots:
    void initTestCase()
    {
        INVENTORY_REQUIRE_ISOLATION();
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.errorString()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    }

    void unknownHostKeyIsRefusedWithTheFlagToTrustIt()
    {
        const auto r = cli({});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(
            err.contains(QStringLiteral("--ssh-trust-host-key ") + m_sshd.hostKeyFingerprint()),
            qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(knownHosts()));
    }

    void wrongFingerprintTrustsNothing()
    {
        const QString other =
            testsupport::keygenFingerprint(m_sshd.clientKey() + QStringLiteral(".pub"));
        const auto r = cli({QStringLiteral("--ssh-trust-host-key"), other});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("nothing was trusted"), r.err.constData());
        QVERIFY(!QFile::exists(knownHosts()));
    }

    void rightFingerprintRunsTheVerbThroughTheTunnel()
    {
        auto r = cli({QStringLiteral("--ssh-trust-host-key"), m_sshd.hostKeyFingerprint()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("standalone"), r.out.constData());
        QVERIFY(QFile::exists(knownHosts()));
        // Trusted now: no flag needed.
        r = cli({});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // Loopback on the bastion is not this machine: production until labelled, so a
        // deduction is refused until unlocked with the address as written in the URL.
        auto admin = m_redis.connect();
        const QByteArray source = testsupport::functionSource("inventory_lib_v1.lua");
        QVERIFY(admin->call({"FUNCTION", "LOAD", "REPLACE", source}).ok());
        QVERIFY(admin->call({"SET", "stock:{42}:available", "10"}).ok());
        const QStringList deduct{QStringLiteral("--sku"),      QStringLiteral("42"),
                                 QStringLiteral("--quantity"), QStringLiteral("3"),
                                 QStringLiteral("--order"),    QStringLiteral("9001"),
                                 QStringLiteral("--json")};
        r = cli(deduct, QStringLiteral("deduct"));
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("not_sent"), r.out.constData());
        QCOMPARE(admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        r = cli(deduct
                    + QStringList{QStringLiteral("--unlock"),
                                  QStringLiteral("127.0.0.1:%1").arg(m_redis.port())},
                QStringLiteral("deduct"));
        QVERIFY2(r.exitCode == 0, r.err.constData() + r.out);
        QVERIFY2(r.out.contains("deducted"), r.out.constData());
        QCOMPARE(admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));
        r = cli({QStringLiteral("--environment"), QStringLiteral("local")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("does not run on this machine"), r.err.constData());
    }

    // Every node of a cluster is reached through the tunnel, not only the one in the URL:
    // the key walk visits each primary, and sshd (LogLevel DEBUG) names each one as the target
    // of a forwarded connection.
    void everyClusterNodeGoesThroughTheTunnel()
    {
        testsupport::RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        const auto router = cluster.router();
        for (int i = 0; i < 30; ++i)
            QVERIFY(router->call({"SET", "stock:{s" + QByteArray::number(i) + "}:available", "5"})
                        .ok());
        testsupport::CliOptions o;
        o.environment.remove(QStringLiteral("SSH_AUTH_SOCK"));
        const auto r = testsupport::runCli(
            {QStringLiteral("keys"), QStringLiteral("--summary"), QStringLiteral("--json"),
             QStringLiteral("--url"),
             QStringLiteral("redis://127.0.0.1:%1").arg(cluster.nodes().first().port),
             QStringLiteral("--ssh"),
             QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(m_sshd.port()),
             QStringLiteral("--ssh-identity"), m_sshd.clientKey(),
             QStringLiteral("--ssh-trust-host-key"), m_sshd.hostKeyFingerprint()},
            o);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("\"skus\":30"), r.out.constData());
        const QString log = m_sshd.fullLog();
        for (const auto &node : cluster.nodes())
            QVERIFY2(log.contains(QStringLiteral("target 127.0.0.1 port %1").arg(node.port)),
                     qPrintable(QStringLiteral("node %1 not reached through sshd").arg(node.port)));
    }

    void optionLikeTargetsAreRefused()
    {
        testsupport::CliOptions o;
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        auto r = testsupport::runCli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                                      QStringLiteral("--ssh=-oProxyCommand=touch_x")},
                                     o);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("begins with '-'"), r.err.constData());
        r = testsupport::runCli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                                 QStringLiteral("--ssh-jump"), QStringLiteral("j@h")},
                                o);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("need --ssh"), r.err.constData());
        QVERIFY(!QFile::exists(QDir::current().filePath(QStringLiteral("touch_x"))));
    }
};

QTEST_GUILESS_MAIN(TstCliSsh)
#include "tst_cli_ssh.moc"
