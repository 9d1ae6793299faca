// SPDX-License-Identifier: GPL-3.0-or-later
// "Local" is a claim that must rest on evidence (issue 28): a server the test started itself is
// proven local (its process runs here and owns the port); the same server reached through a
// loopback relay (what ssh -L, kubectl port-forward or a container's port map look like) is
// not, so the session is production, read-only until unlocked, in the core, the console's
// session and every inventory-cli verb.
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "TcpRelay.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "profiles/ProfileStore.h"
#include "session/ConsoleSession.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using gate::GatedSender;
using gate::WriteGate;
using profiles::ConnectionProfile;
using profiles::Environment;
using session::ConsoleSession;
using testsupport::StandaloneRedis;
using testsupport::TcpRelay;

namespace {

// What the connection dialog saves when nobody picks a label: the host decides.
ConnectionProfile unlabelled(const QString &name, quint16 port)
{
    ConnectionProfile p;
    p.name = name;
    p.host = QStringLiteral("127.0.0.1");
    p.port = port;
    return p;
}

} // namespace

class TstLocalProof : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    TcpRelay m_relay;
    std::unique_ptr<redis::RedisClient> m_admin;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }
    QString runId()
    {
        for (const QByteArray &line : m_admin->call({"INFO", "server"})->bytes().split('\n'))
            if (line.startsWith("run_id:"))
                return QString::fromLatin1(line.mid(7).trimmed());
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        const QString relay = m_relay.start(m_redis.port());
        QVERIFY2(relay.isEmpty(), qPrintable(relay));
        m_admin = m_redis.connect();
        QVERIFY(m_admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"))})
                    .ok());
    }

    void init() { QVERIFY(m_admin->call({"SET", "stock:{42}:available", "10"}).ok()); }

    void aServerStartedHereIsProvenLocal()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, unlabelled(QStringLiteral("direct"), m_redis.port()));
        QCOMPARE(gate.claimedEnvironment(), Environment::Local);
        QVERIFY(gate.waitForServer(5000));
        QVERIFY2(gate.evidence().proven(), qPrintable(gate.evidence().reason.english));
        QCOMPARE(gate.environmentKind(), Environment::Local);
        QVERIFY(!gate.isReadOnly());
        const QString expected = QStringLiteral("(process %1, ").arg(m_redis.server().pid());
        QVERIFY2(gate.environmentReason().startsWith("local: redis-server " + expected)
                     || gate.environmentReason().startsWith("local: valkey-server " + expected),
                 qPrintable(gate.environmentReason()));
        QVERIFY2(
            gate.environmentReason().endsWith(QStringLiteral(" owns port %1").arg(m_redis.port())),
            qPrintable(gate.environmentReason()));
        QCOMPARE(gate.evidence().runId, runId());
        GatedSender gated(*client, gate);
        QVERIFY(gated.call({"SET", "stock:{42}:available", "9"}).ok());
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("9"));
    }

    void aWriteWaitsForTheProof()
    {
        // No waitForServer: the first write itself waits for the evidence, then passes.
        auto client = m_redis.connect();
        WriteGate gate(*client, unlabelled(QStringLiteral("direct"), m_redis.port()));
        GatedSender gated(*client, gate);
        QVERIFY(gated.call({"SET", "stock:{42}:available", "8"}).ok());
        QVERIFY(gate.evidence().proven());
    }

    void aLoopbackRelayIsNotProvenLocal_data()
    {
        QTest::addColumn<QString>("label");
        QTest::newRow("unlabelled") << QString();
        QTest::newRow("labelled local") << QStringLiteral("local");
    }

    void aLoopbackRelayIsNotProvenLocal()
    {
        QFETCH(QString, label);
        auto o = m_redis.options();
        o.port = m_relay.port();
        auto client = m_redis.connect(o);
        ConnectionProfile p = unlabelled(QStringLiteral("tunnel"), m_relay.port());
        p.environment = label;
        WriteGate gate(*client, p);
        GatedSender gated(*client, gate);
        const auto r = gated.call({"SET", "stock:{42}:available", "0"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, redis::RedisError::Kind::NotSent);
        QVERIFY2(r.error().message.english.contains(
                     QStringLiteral("not proven local: the server's process %1 (")
                         .arg(m_redis.server().pid())),
                 qPrintable(r.error().message.english));
        QVERIFY2(r.error().message.english.contains(
                     QStringLiteral("does not own the socket listening on "
                                    "port %1")
                         .arg(m_relay.port())),
                 qPrintable(r.error().message.english));
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        QCOMPARE(gate.environmentKind(), Environment::Production);
        QCOMPARE(gate.environment(), QStringLiteral("production"));
        QVERIFY(gate.isReadOnly());
        // Reads pass; an unlock (typed, audited) allows the write.
        QCOMPARE(gated.call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        gate.setAuditLogPath(auditPath());
        QVERIFY2(gate.unlock(QStringLiteral("tunnel")), qPrintable(gate.unlockError()));
        QVERIFY(gated.call({"SET", "stock:{42}:available", "7"}).ok());
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));
    }

    void theConsoleSessionOnARelayIsProduction()
    {
        ConsoleSession session(unlabelled(QStringLiteral("tunnel"), m_relay.port()), {});
        QCOMPARE(session.gate().claimedEnvironment(), Environment::Local);
        QCOMPARE(session.environment(), Environment::Production); // until proven
        QVERIFY(session.gate().evidence().checking());
        QSignalSpy changed(&session.gate(), &WriteGate::environmentChanged);
        session.open();
        QTRY_VERIFY_WITH_TIMEOUT(!session.gate().evidence().checking(), 10000);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(session.environment(), Environment::Production);
        QVERIFY(session.gate().isReadOnly());
        QVERIFY2(session.gate().environmentReason().startsWith(QLatin1String("not proven local:")),
                 qPrintable(session.gate().environmentReason()));
    }

    void theConsoleSessionOnTheServerItselfIsLocal()
    {
        ConsoleSession session(unlabelled(QStringLiteral("direct"), m_redis.port()), {});
        session.open();
        QTRY_VERIFY_WITH_TIMEOUT(!session.gate().evidence().checking(), 10000);
        QCOMPARE(session.environment(), Environment::Local);
        QVERIFY(!session.gate().isReadOnly());
    }

    void theCliRefusesToWriteThroughARelay()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(m_relay.port());
        const QStringList deduct{"deduct", "--url",   url,    "--audit-log", auditPath(), "--sku",
                                 "42",     "--order", "9001", "--quantity",  "1"};
        auto run = testsupport::runCli(deduct);
        QCOMPARE(run.exitCode, 3); // nothing sent
        QVERIFY2(run.out.contains("not proven local") || run.err.contains("not proven local"),
                 run.out + run.err);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        // --env local does not make it local: a label is a claim, proof is what counts.
        run = testsupport::runCli(deduct + QStringList{"--env", "local"});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        // Unlocked by its address, it writes, and the unlock is on record with the run_id.
        run = testsupport::runCli(
            deduct + QStringList{"--unlock", QStringLiteral("127.0.0.1:%1").arg(m_relay.port())});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("9"));
        const auto trail = testsupport::readAuditTrail(auditPath());
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QVERIFY(!trail.gateEvents.isEmpty());
        const inventory::AuditRecord &unlock = trail.gateEvents.last();
        QCOMPARE(unlock.action, QStringLiteral("unlock"));
        QCOMPARE(unlock.runId, runId());
        QCOMPARE(unlock.profile, QStringLiteral("127.0.0.1:%1").arg(m_relay.port()));
        QVERIFY(!unlock.osUser.isEmpty());
    }

    // Reads follow the same label: a scan through the relay goes at production's gentle
    // pace, and says why; the server itself is scanned fast.
    void aScanThroughARelayIsGentle()
    {
        auto run = testsupport::runCli(
            {"keys", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_relay.port())});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(run.err.contains("scan pace gentle") && run.err.contains("(not proven local: "),
                 run.err);
        run = testsupport::runCli(
            {"keys", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port())});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(!run.err.contains("scan pace"), run.err);
    }

    // A server saved as production keeps its label when opened by URL, though the server the
    // URL reaches is proven local; --env local on it is refused, with the reason.
    void aSavedProductionProfileLabelsAUrl()
    {
        QTemporaryDir config;
        QSettings settings(
            config.filePath(QStringLiteral("InventoryConsole/inventory-console.conf")),
            QSettings::IniFormat);
        ConnectionProfile saved =
            unlabelled(QStringLiteral("prod-%1").arg(m_redis.port()), m_redis.port());
        saved.environment = QStringLiteral("production");
        QVERIFY(profiles::ProfileStore(&settings).save(saved).ok());
        settings.sync();
        testsupport::CliOptions options;
        options.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        const QStringList deduct{
            "deduct",      "--url",     QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
            "--audit-log", auditPath(), "--sku",
            "42",          "--order",   "9003",
            "--quantity",  "1"};
        auto run = testsupport::runCli(deduct, options);
        QCOMPARE(run.exitCode, 3); // read-only: nothing sent
        QVERIFY2((run.out + run.err).contains("production"), run.out + run.err);
        run = testsupport::runCli(deduct + QStringList{"--env", "local"}, options);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("would lower the server's saved label: profile "
                                                 "'prod-%1'")
                                      .arg(m_redis.port())
                                      .toUtf8()),
                 run.err);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        // Without the saved profile, the same URL is local (proven) and writes.
        run = testsupport::runCli(deduct);
        QCOMPARE(run.exitCode, 0);
    }

    void theCliWritesToAServerProvenLocal()
    {
        const QStringList deduct{
            "deduct",      "--url",     QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
            "--audit-log", auditPath(), "--sku",
            "42",          "--order",   "9002",
            "--quantity",  "1"};
        const auto run = testsupport::runCli(deduct);
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("9"));
    }
};

QTEST_GUILESS_MAIN(TstLocalProof)
#include "tst_local_proof.moc"
