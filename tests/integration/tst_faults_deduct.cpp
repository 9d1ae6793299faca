// SPDX-License-Identifier: GPL-3.0-or-later
// The fault suite, deductions (issue 14): a real redis-server that pauses, sleeps, runs a busy
// script, runs out of memory or dies while `inventory-cli deduct` runs. Each case asserts what
// the user reads (outcome, exit code), that the audit log holds the attempt, and what the
// server holds afterwards: a refusal wrote nothing, and an unknown outcome is told by the
// receipt, never by a guess.
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using testsupport::render;
using testsupport::StandaloneRedis;

namespace {

const QByteArray StockKey = "stock:{42}:available";
const QByteArray ReceiptKey = "idem:{42}:9001";

} // namespace

class TstFaultsDeduct : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_audit;
    std::unique_ptr<StandaloneRedis> m_redis;
    std::unique_ptr<redis::RedisClient> m_admin;

    // A fresh server per case (some cases kill it) with the library and a stock of 10.
    bool startServer(const QStringList &extraArgs = {})
    {
        m_admin.reset();
        m_redis = std::make_unique<StandaloneRedis>();
        if (!m_redis->start(extraArgs))
            return false;
        m_admin = m_redis->connect();
        const QByteArray source = testsupport::functionSource("inventory_lib_v1.lua");
        return m_admin->call({"FUNCTION", "LOAD", "REPLACE", source}).ok()
               && m_admin->call({"SET", StockKey, "10"}).ok();
    }

    QStringList deductArgs(int timeoutMs) const
    {
        return {"deduct",
                "--url",
                QStringLiteral("redis://127.0.0.1:%1").arg(m_redis->port()),
                "--audit-log",
                m_audit,
                "--timeout-ms",
                QString::number(timeoutMs),
                "--sku",
                "42",
                "--order",
                "9001",
                "--quantity",
                "3",
                "--json"};
    }

    // The trail is complete (every attempt has its outcome) and holds exactly one write.
    QString oneWriteIn(const QString &expectedResultStart)
    {
        const auto trail = testsupport::readAuditTrail(m_audit);
        if (!trail.problem.isEmpty())
            return trail.problem;
        if (trail.writes.size() != 1)
            return QStringLiteral("%1 writes in the audit log").arg(trail.writes.size());
        if (!trail.writes.first().result.startsWith(expectedResultStart))
            return QStringLiteral("audit result: %1").arg(trail.writes.first().result);
        return {};
    }

    // Whether this client's connection is blocked on FCALL (CLIENT PAUSE holds it there).
    bool fcallIsWaiting()
    {
        const auto r = m_admin->call({"CLIENT", "LIST"});
        return r.ok() && r->bytes().contains("cmd=fcall");
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        m_audit = m_dir.filePath("audit.jsonl");
    }

    void init() { QFile::remove(m_audit); }

    void cleanup()
    {
        m_admin.reset();
        m_redis.reset(); // stops the server (and its SIGSTOPped or busy state with it)
    }

    // CLIENT PAUSE WRITE holds the FCALL: the client times out after sending it, so the
    // outcome is unknown (it may run when the pause ends), never "not sent". The receipt then
    // tells the truth.
    void pausedWriteTimesOutAsUnknown()
    {
        QVERIFY(startServer());
        QCOMPARE(render(m_admin->call({"CLIENT", "PAUSE", "10000", "WRITE"})),
                 QStringLiteral("+OK"));
        QElapsedTimer clock;
        clock.start();
        const auto r = testsupport::runCli(deductArgs(1000));
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(r.exitCode, 7);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value("outcome").toString(), QStringLiteral("unknown"));
        QVERIFY2(j.value("error").toString().contains("timeout"), r.out.constData());
        QVERIFY2(j.value("next_step").toString().contains("Check the receipt"), r.out.constData());
        QVERIFY2(oneWriteIn("outcome unknown").isEmpty(),
                 qPrintable(oneWriteIn("outcome unknown")));
        QVERIFY(m_admin->call({"CLIENT", "UNPAUSE"}).ok());
        // The client closed its connection: the held call is dropped or run, and the stock and
        // the receipt agree either way.
        const auto stock = m_admin->call({"GET", StockKey});
        const auto receipt = m_admin->call({"EXISTS", ReceiptKey});
        QVERIFY(stock.ok() && receipt.ok());
        QCOMPARE(receipt->toInteger() == 1, stock->bytes() == "7");
        QVERIFY(stock->bytes() == "7" || stock->bytes() == "10");
    }

    // The server dies while the FCALL waits: "connection lost", outcome unknown, exit 7, and
    // the attempt is in the audit log before anything was sent.
    void serverKilledDuringDeduction()
    {
        QVERIFY(startServer());
        QVERIFY(m_admin->call({"CLIENT", "PAUSE", "20000", "WRITE"}).ok());
        QProcess cli;
        cli.start(testsupport::cliPath(), deductArgs(15000));
        QVERIFY(cli.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(fcallIsWaiting(), 10000);
        const auto trail = testsupport::readAuditTrail(m_audit);
        QCOMPARE(trail.raw.size(), 1); // the attempt, fsynced before the FCALL left
        m_redis->server().kill();
        QVERIFY(cli.waitForFinished(10000));
        QCOMPARE(cli.exitCode(), 7);
        const QByteArray out = cli.readAllStandardOutput();
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j.value("outcome").toString(), QStringLiteral("unknown"));
        QVERIFY2(j.value("message").toString().contains("may or may not have happened"),
                 out.constData());
        QVERIFY2(oneWriteIn("outcome unknown").isEmpty(),
                 qPrintable(oneWriteIn("outcome unknown")));
    }

    // Out of memory with noeviction: Redis refuses the FCALL before it runs. That is a
    // pre-write refusal: "rejected", nothing written, and the keyspace is unchanged.
    void outOfMemoryIsRefusedBeforeAnyWrite()
    {
        QVERIFY(startServer({"--maxmemory-policy", "noeviction"}));
        // A 2 MB value puts the used memory over the 1 MB limit whatever the baseline.
        QVERIFY(m_admin->call({"SET", "filler", QByteArray(2 << 20, 'x')}).ok());
        QVERIFY(m_admin->call({"CONFIG", "SET", "maxmemory", "1mb"}).ok());
        const auto before = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        const auto r = testsupport::runCli(deductArgs(3000));
        QCOMPARE(r.exitCode, 6);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value("outcome").toString(), QStringLiteral("rejected"));
        QVERIFY2(j.value("error").toString().startsWith("OOM"), r.out.constData());
        QVERIFY2(j.value("message").toString().contains("Nothing was written"), r.out.constData());
        QVERIFY2(j.value("next_step").toString().contains("out of memory"), r.out.constData());
        const auto after = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        QVERIFY2(testsupport::snapshotDifference(before, after).isEmpty(),
                 qPrintable(testsupport::snapshotDifference(before, after)));
        QVERIFY2(oneWriteIn("rejected").isEmpty(), qPrintable(oneWriteIn("rejected")));
    }

    // Another client runs a long script: Redis answers BUSY, to the INFO read before the call
    // too. A role that could not be read is no primary (issue 29, D14): nothing is sent, and
    // the user reads why in words.
    void busyScriptIsExplainedAndWritesNothing()
    {
        QVERIFY(startServer({"--busy-reply-threshold", "100"}));
        const auto before = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        auto busy = m_redis->connect();
        QObject context;
        bool busyEnded = false;
        busy->send(
            {"EVAL", "while true do end", "0"}, &context,
            [&](const redis::ReplyResult &) { busyEnded = true; }, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            render(m_admin->call({"PING"})).startsWith(QLatin1String("error: BUSY")), 10000);
        QElapsedTimer clock;
        clock.start();
        const auto r = testsupport::runCli(deductArgs(2000));
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(r.exitCode, 3);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value("outcome").toString(), QStringLiteral("not_sent"));
        QVERIFY2(j.value("error").toString().contains("could not read the server's role"),
                 r.out.constData());
        QVERIFY2(j.value("error").toString().contains("BUSY"), r.out.constData());
        QVERIFY2(j.value("message").toString().contains("Nothing was sent"), r.out.constData());
        QVERIFY2(j.value("next_step").toString().contains("busy with a long script"),
                 r.out.constData());
        QCOMPARE(render(m_admin->call({"SCRIPT", "KILL"})), QStringLiteral("+OK"));
        QTRY_VERIFY_WITH_TIMEOUT(busyEnded, 10000);
        const auto after = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        QVERIFY2(testsupport::snapshotDifference(before, after).isEmpty(),
                 qPrintable(testsupport::snapshotDifference(before, after)));
    }

    // DEBUG SLEEP: the server answers nobody. The CLI gives up within its timeout with a
    // clear line, sent nothing, and the server holds what it held.
    void sleepingServerTimesOutWithinTheTimeout()
    {
        QVERIFY(startServer());
        const auto before = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        auto sleeper = m_redis->connect();
        auto probe = m_redis->connect(); // connected now: a connect during the sleep would wait
        QObject context;
        bool awake = false;
        // Long beside the CLI's 500 ms, so that neither bound below is a race on a loaded
        // machine: a CLI that waited for the server would take most of it.
        constexpr int SleepS = 8;
        QElapsedTimer asleepFor;
        asleepFor.start();
        sleeper->send(
            {"DEBUG", "SLEEP", QByteArray::number(SleepS)}, &context,
            [&](const redis::ReplyResult &) { awake = true; }, 60000);
        // Asleep once a PING goes unanswered for 200 ms.
        QTRY_VERIFY_WITH_TIMEOUT(!probe->call({"PING"}, 200).ok(), 10000);
        QElapsedTimer clock;
        clock.start();
        const auto r = testsupport::runCli(deductArgs(500));
        const qint64 elapsed = clock.elapsed();
        // asleepFor started before DEBUG SLEEP was sent: the server still slept throughout.
        QVERIFY2(asleepFor.elapsed() < SleepS * 1000,
                 "the server may have woken before the CLI ended");
        QVERIFY2(elapsed < SleepS * 1000 / 2, qPrintable(QString::number(elapsed)));
        QCOMPARE(r.exitCode, 3);
        // "no answer from <address> within 500 ms", or "no answer to the connection setup from
        // <address>": which depends on when the timer fires, both say what happened.
        QVERIFY2(
            r.err.contains("no answer")
                && r.err.contains(QStringLiteral("127.0.0.1:%1").arg(m_redis->port()).toUtf8()),
            r.err.constData());
        QVERIFY(r.out.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(awake, SleepS * 1000 + 20000);
        const auto after = testsupport::snapshot(*m_admin, {StockKey, ReceiptKey});
        QVERIFY2(testsupport::snapshotDifference(before, after).isEmpty(),
                 qPrintable(testsupport::snapshotDifference(before, after)));
    }
};

QTEST_GUILESS_MAIN(TstFaultsDeduct)
#include "tst_faults_deduct.moc"
