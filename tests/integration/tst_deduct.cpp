// SPDX-License-Identifier: GPL-3.0-or-later
// Manual deductions (inventory::deduct) against a real redis-server: every outcome in both
// modes, retries, refusals before sending, NOSCRIPT recovery, unknown outcomes (a write-paused
// server, a server killed after the call was sent) resolved by a receipt check, and the audit
// record each write leaves on disk.
#include "AuditTrail.h"
#include "RedisFixture.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "inventory/Deducer.h"
#include "inventory/RedisCliCommand.h"
#include "inventory/RetryProtection.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;
using testsupport::render;
using testsupport::StandaloneRedis;

class TstDeduct : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_dir;
    DeductionContext m_ctx;

    void loadLibrary()
    {
        const QByteArray source = testsupport::functionSource("inventory_lib_v1.lua");
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE", source})),
                 QStringLiteral("\"inventory_lib_v1\""));
    }
    DeductionPlan plan(const QByteArray &sku, const QByteArray &order, const QByteArray &quantity,
                       DeductionMode mode = DeductionMode::Function, const QByteArray &ttl = "60")
    {
        return planDeduction({sku, order, quantity, ttl, mode}, m_ctx.schema);
    }
    // One record per write: each attempt paired with its outcome.
    QList<AuditRecord> audit() const
    {
        const auto trail = testsupport::readAuditTrail(m_ctx.auditLogPath);
        if (!trail.problem.isEmpty())
            qWarning() << trail.problem;
        return trail.writes;
    }
    QByteArray get(const QByteArray &key) { return m_c->call({"GET", key})->bytes(); }
    QString runId()
    {
        for (const QByteArray &l : m_c->call({"INFO", "server"})->bytes().split('\n'))
            if (l.startsWith("run_id:"))
                return QString::fromLatin1(l.mid(7).trimmed());
        return {};
    }
    // The last audit record describes this result's deciding write, and follows the attempt
    // record that was on disk before it was sent.
    void verifyLastRecord(const DeductionResult &r, bool unknown)
    {
        const auto trail = testsupport::readAuditTrail(m_ctx.auditLogPath);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.raw.size(), 2 * trail.writes.size());
        QCOMPARE(trail.raw.last().phase, AuditRecord::Phase::Outcome);
        const AuditRecord &attempt = trail.raw.at(trail.raw.size() - 2);
        QCOMPARE(attempt.phase, AuditRecord::Phase::Attempt);
        QCOMPARE(attempt.attemptId, trail.raw.last().attemptId);
        QCOMPARE(attempt.command, r.plan.command);
        QVERIFY(attempt.timeUtc <= trail.raw.last().timeUtc); // the outcome's: when sent
        const auto records = trail.writes;
        QVERIFY(!records.isEmpty());
        const AuditRecord &last = records.last();
        QCOMPARE(last.action, QStringLiteral("deduct"));
        QCOMPARE(last.command, r.plan.command);
        QCOMPARE(last.result, r.outcome.summary());
        QCOMPARE(last.outcomeUnknown, unknown);
        QCOMPARE(last.profile, QStringLiteral("test-profile"));
        QCOMPARE(last.server, m_c->address());
        QVERIFY(!last.osUser.isEmpty());
        QVERIFY(last.durationMs >= 0);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(m_c->state(), redis::ConnectionState::Ready);
        loadLibrary();
        m_ctx.profileName = "test-profile";
        m_ctx.serverAddress = m_c->address();
        m_ctx.auditLogPath = m_dir.filePath("audit.jsonl");
        m_ctx.timeoutMs = 3000;
    }

    void init()
    {
        QCOMPARE(render(m_c->call({"FLUSHALL", "SYNC"})), QStringLiteral("+OK"));
        QFile::remove(m_ctx.auditLogPath);
    }

    void functionOutcomes()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        const QString id = runId();

        DeductionResult r = deductBlocking(*m_c, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Deducted);
        QCOMPARE(r.outcome.remaining, 7);
        QCOMPARE(r.stockBefore.text(), QStringLiteral("10"));
        QCOMPARE(r.stockAfter.text(), QStringLiteral("7"));
        QVERIFY(r.receiptAfter && r.receiptAfter->ok() && r.receiptAfter->exists);
        QCOMPARE(r.receiptAfter->remaining, 7);
        QVERIFY(r.receiptAfter->ttlSeconds > 55 && r.receiptAfter->ttlSeconds <= 60);
        QCOMPARE(r.runId, id);
        QCOMPARE(audit().size(), 1);
        QCOMPARE(audit().last().runId, id);
        verifyLastRecord(r, false);

        // The same order again: nothing changes, the first remaining comes back.
        r = deductBlocking(*m_c, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(r.outcome.remaining, 7);
        QCOMPARE(get("stock:{42}:available"), QByteArray("7"));
        QCOMPARE(audit().size(), 2);
        verifyLastRecord(r, false);

        r = deductBlocking(*m_c, m_ctx, plan("42", "9002", "30"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Insufficient);
        QCOMPARE(r.outcome.stock, 7);
        QVERIFY(r.receiptAfter && !r.receiptAfter->exists); // insufficiency is not recorded
        QCOMPARE(audit().size(), 3);
        verifyLastRecord(r, false);

        r = deductBlocking(*m_c, m_ctx, plan("43", "9002", "1"));
        QCOMPARE(r.outcome.kind, OutcomeKind::StockMissing);
        QCOMPARE(r.stockBefore.text(), QStringLiteral("missing"));
        QCOMPARE(m_c->call({"EXISTS", "stock:{43}:available"})->toInteger(), 0);
        verifyLastRecord(r, false);

        QVERIFY(m_c->call({"SET", "stock:{44}:available", "01"}).ok());
        r = deductBlocking(*m_c, m_ctx, plan("44", "1", "1"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Rejected);
        QCOMPARE(r.outcome.serverError.english, QStringLiteral("ERR invalid stock"));
        QCOMPARE(get("stock:{44}:available"), QByteArray("01"));
        QCOMPARE(audit().size(), 5);
        verifyLastRecord(r, false);
    }

    void scriptOutcomesAndNoscriptRecovery()
    {
        QCOMPARE(render(m_c->call({"SCRIPT", "FLUSH", "SYNC"})), QStringLiteral("+OK"));
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        // NOSCRIPT: load, then the same EVALSHA once more; it deducts exactly once.
        DeductionResult r = deductBlocking(*m_c, m_ctx, plan("42", "", "3", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::Deducted);
        QCOMPARE(r.outcome.remaining, 7);
        QVERIFY(r.scriptLoaded);
        QCOMPARE(get("stock:{42}:available"), QByteArray("7"));
        QCOMPARE(r.sent.size(), 3);
        QCOMPARE(r.sent.at(1).mid(0, 2), (redis::Command{"SCRIPT", "LOAD"}));
        auto records = audit();
        QCOMPARE(records.size(), 3);
        QCOMPARE(records[0].action, QStringLiteral("deduct"));
        QVERIFY(records[0].result.contains(QLatin1String("NOSCRIPT")));
        QCOMPARE(records[1].action, QStringLiteral("script-load"));
        QVERIFY(records[1].result.contains(QString::fromLatin1(deductScriptSha1())));
        QCOMPARE(records[1].command.at(2), deductScriptSource());
        verifyLastRecord(r, false);

        // Loaded now: one EVALSHA, one record. The script has no receipt: it deducts again.
        r = deductBlocking(*m_c, m_ctx, plan("42", "", "3", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::Deducted);
        QCOMPARE(r.outcome.remaining, 4);
        QVERIFY(!r.scriptLoaded);
        QVERIFY(!r.receiptAfter);
        QCOMPARE(audit().size(), 4);

        r = deductBlocking(*m_c, m_ctx, plan("42", "", "5", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::Insufficient);
        QCOMPARE(r.outcome.stock, 4);
        r = deductBlocking(*m_c, m_ctx, plan("43", "", "5", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::StockMissing);
        QVERIFY(m_c->call({"HSET", "stock:{45}:available", "a", "1"}).ok());
        r = deductBlocking(*m_c, m_ctx, plan("45", "", "1", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::Rejected);
        QCOMPARE(r.outcome.serverError.english, QStringLiteral("ERR invalid stock"));
        QCOMPARE(audit().size(), 7);
        verifyLastRecord(r, false);
    }

    // An invalid quantity never reaches the server: no command, no audit record.
    void badQuantityIsRefusedBeforeSending()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QVERIFY(m_c->call({"CONFIG", "RESETSTAT"}).ok());
        for (const QByteArray &q : {QByteArray("03"), QByteArray("0"), QByteArray("1000001"),
                                    QByteArray("-1"), QByteArray("1e3")}) {
            const DeductionResult r = deductBlocking(*m_c, m_ctx, plan("42", "9001", q));
            QCOMPARE(r.outcome.kind, OutcomeKind::NotSent);
            QVERIFY(r.outcome.transportError.english.contains(QLatin1String("quantity")));
            QVERIFY(r.sent.isEmpty());
        }
        const QByteArray stats = m_c->call({"INFO", "commandstats"})->bytes();
        QVERIFY2(!stats.contains("cmdstat_fcall"), stats.constData());
        QVERIFY(!stats.contains("cmdstat_get:"));
        QVERIFY(!QFile::exists(m_ctx.auditLogPath));
        QCOMPARE(get("stock:{42}:available"), QByteArray("10"));
    }

    // A read-only (production) session refuses the write: nothing is sent, and says so.
    void readOnlySessionSendsNothing()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        profiles::ConnectionProfile profile;
        profile.name = "prod";
        profile.environment = "production";
        gate::WriteGate gate(*m_c, profile);
        gate::GatedSender gated(*m_c, gate);
        QVERIFY(gate.isReadOnly());
        DeductionResult r = deductBlocking(gated, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::NotSent);
        QVERIFY2(r.outcome.meaning(DeductionMode::Function).contains("Nothing was sent"),
                 qPrintable(r.outcome.transportError.english));
        QCOMPARE(r.stockBefore.text(), QStringLiteral("10")); // reads pass the gate
        QCOMPARE(get("stock:{42}:available"), QByteArray("10"));
        QCOMPARE(m_c->call({"EXISTS", "idem:{42}:9001"})->toInteger(), 0);
        QCOMPARE(audit().size(), 1); // the refused attempt is recorded as not sent
        QVERIFY(audit().last().result.startsWith(QLatin1String("not sent")));
        QVERIFY(gate.unlock("prod"));
        r = deductBlocking(gated, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Deducted);
    }

    // CLIENT PAUSE WRITE longer than the timeout: the FCALL is held, the client gives up, the
    // outcome is unknown. When the pause ends the server runs it, and the receipt says so.
    void unknownOutcomeFromPausedServerThenCheckReceipt()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        auto admin = m_redis.connect();
        QCOMPARE(render(admin->call({"CLIENT", "PAUSE", "2500", "WRITE"})), QStringLiteral("+OK"));
        DeductionContext ctx = m_ctx;
        ctx.timeoutMs = 700;
        const DeductionResult r = deductBlocking(*m_c, ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Unknown);
        QVERIFY2(r.outcome.transportError.english.startsWith(QLatin1String("timeout")),
                 qPrintable(r.outcome.transportError.english));
        QVERIFY(!r.stockAfter.read); // no reads queued behind the held call
        QVERIFY(!r.receiptAfter);
        verifyLastRecord(r, true);
        QVERIFY(audit().last().result.startsWith(QLatin1String("outcome unknown")));

        QCOMPARE(render(admin->call({"CLIENT", "UNPAUSE"})), QStringLiteral("+OK"));
        const ReceiptStatus s = checkReceiptBlocking(*m_c, "idem:{42}:9001", 3000);
        QVERIFY2(s.ok(), qPrintable(s.error.english));
        QCOMPARE(s.verdictName(), QStringLiteral("happened"));
        QCOMPARE(s.remaining, 7);
        QVERIFY(s.verdict().startsWith(QLatin1String("The deduction happened")));
        // Retrying with the same order id is safe: it does not deduct again.
        const DeductionResult again = deductBlocking(*m_c, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(again.outcome.kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(get("stock:{42}:available"), QByteArray("7"));
    }

    // The same in Script mode: no receipt; the stock against the stock read before tells.
    void unknownScriptOutcomeThenCheckStock()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QVERIFY(m_c->call({"SCRIPT", "LOAD", deductScriptSource()}).ok());
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "2000", "WRITE"}).ok());
        DeductionContext ctx = m_ctx;
        ctx.timeoutMs = 500;
        const DeductionResult r =
            deductBlocking(*m_c, ctx, plan("42", "", "3", DeductionMode::Script));
        QCOMPARE(r.outcome.kind, OutcomeKind::Unknown);
        QVERIFY(r.outcome.nextStep(DeductionMode::Script).contains(QLatin1String("twice")));
        verifyLastRecord(r, true);
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        KeyReading now;
        QEventLoop loop;
        readKey(*m_c, "stock:{42}:available", &loop, [&](const KeyReading &k) {
            now = k;
            loop.quit();
        });
        loop.exec();
        QCOMPARE(now.text(), QStringLiteral("7"));
        QVERIFY(scriptCheckVerdict(r, now).contains(QLatin1String("most likely happened")));
    }

    // The server dies while the call is held (paused, so it never ran): unknown; after a
    // restart the receipt check finds no receipt, and says so without claiming it did not
    // happen (issue 28: absence is not proof; here the restart itself could have lost it).
    void unknownOutcomeFromKilledServerThenCheckReceipt()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "20000", "WRITE"}).ok());
        std::optional<DeductionResult> result;
        QObject context;
        deduct(*m_c, m_ctx, plan("42", "9001", "3"), &context,
               [&](const DeductionResult &r) { result = r; });
        // Held by the server: the FCALL was sent and is blocked.
        QTRY_VERIFY_WITH_TIMEOUT(
            admin->call({"INFO", "clients"})->bytes().contains("blocked_clients:1"), 5000);
        m_redis.server().kill();
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 5000);
        QCOMPARE(result->outcome.kind, OutcomeKind::Unknown);
        QVERIFY2(
            result->outcome.transportError.english.startsWith(QLatin1String("connection lost")),
            qPrintable(result->outcome.transportError.english));
        verifyLastRecord(*result, true);

        QVERIFY2(m_redis.restart(), qPrintable(m_redis.errorString()));
        QTRY_COMPARE_WITH_TIMEOUT(m_c->state(), redis::ConnectionState::Ready, 15000);
        loadLibrary();
        const ReceiptStatus s = checkReceiptBlocking(*m_c, "idem:{42}:9001", 3000);
        QVERIFY2(s.ok(), qPrintable(s.error.english));
        QCOMPARE(s.verdictName(), QStringLiteral("not_found"));
        QVERIFY2(s.verdict().startsWith(QLatin1String("No receipt found: either")),
                 qPrintable(s.verdict()));
        QVERIFY(s.verdict().contains(QLatin1String("lost in a restart")));
        QVERIFY(!s.verdict().contains(QLatin1String("did not happen")));
    }

    // The caller goes away while the reply is pending: the record is still written.
    void auditRecordSurvivesTheCallerGoingAway()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "1000", "WRITE"}).ok());
        bool called = false;
        auto *context = new QObject;
        deduct(*m_c, m_ctx, plan("42", "9001", "3"), context,
               [&](const DeductionResult &) { called = true; });
        QTRY_VERIFY_WITH_TIMEOUT(
            admin->call({"INFO", "clients"})->bytes().contains("blocked_clients:1"), 5000);
        delete context;
        // The attempt is on disk already; its outcome follows when the reply comes.
        QTRY_COMPARE_WITH_TIMEOUT(AuditLog::read(m_ctx.auditLogPath).records.size(), 2, 5000);
        QCOMPARE(audit().size(), 1);
        QCOMPARE(audit().last().result, QStringLiteral("deducted: remaining 7"));
        // Replies come in order: once a later command's is in, the deduction's was handled.
        QVERIFY(m_c->call({"PING"}).ok());
        QVERIFY(!called);
    }

    // Write-ahead: while the call is held by the server, its attempt is already on disk, and
    // a reader shows it as "no outcome recorded"; the reply then adds the outcome.
    void attemptIsOnDiskBeforeTheReply()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        auto admin = m_redis.connect();
        const QString id = runId();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "1500", "WRITE"}).ok());
        std::optional<DeductionResult> result;
        QObject context;
        const DeductionPlan p = plan("42", "9001", "3");
        deduct(*m_c, m_ctx, p, &context, [&](const DeductionResult &r) { result = r; });
        QTRY_VERIFY_WITH_TIMEOUT(
            admin->call({"INFO", "clients"})->bytes().contains("blocked_clients:1"), 5000);
        const QList<AuditRecord> held = AuditLog::read(m_ctx.auditLogPath).records;
        QCOMPARE(held.size(), 1);
        QCOMPARE(held[0].phase, AuditRecord::Phase::Attempt);
        QVERIFY(!held[0].attemptId.isEmpty());
        QCOMPARE(held[0].command, p.command);
        QCOMPARE(held[0].action, QStringLiteral("deduct"));
        QCOMPARE(held[0].profile, QStringLiteral("test-profile"));
        QCOMPARE(held[0].server, m_c->address());
        QCOMPARE(held[0].runId, id);
        const QList<AuditRecord> shown = pairAttempts(held);
        QCOMPARE(shown.size(), 1);
        QCOMPARE(shown[0].result, noOutcomeRecordedText());
        QVERIFY(shown[0].outcomeUnknown);

        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 5000);
        QCOMPARE(result->outcome.kind, OutcomeKind::Deducted);
        verifyLastRecord(*result, false);
        QCOMPARE(audit().size(), 1);
        QCOMPARE(AuditLog::read(m_ctx.auditLogPath).records.first().attemptId, held[0].attemptId);
    }

    // The attempt record cannot be written (a directory stands where the log should be): the
    // write is refused, nothing reaches the server, and the error names the log and why.
    void unwritableAuditLogRefusesTheDeduction()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QVERIFY(m_c->call({"SCRIPT", "LOAD", deductScriptSource()}).ok());
        const QByteArray dumpBefore = m_c->call({"DUMP", "stock:{42}:available"})->bytes();
        QVERIFY(!dumpBefore.isEmpty());
        DeductionContext ctx = m_ctx;
        ctx.auditLogPath = m_dir.filePath("audit-is-a-directory");
        QVERIFY(QDir().mkpath(ctx.auditLogPath));
        QVERIFY(m_c->call({"CONFIG", "RESETSTAT"}).ok());
        for (const DeductionMode mode : {DeductionMode::Function, DeductionMode::Script}) {
            const DeductionResult r = deductBlocking(*m_c, ctx, plan("42", "9001", "3", mode));
            QCOMPARE(r.outcome.kind, OutcomeKind::NotSent);
            const QString why = r.outcome.transportError.english;
            QVERIFY2(why.startsWith(QStringLiteral("the audit log at %1 could not be written: ")
                                        .arg(ctx.auditLogPath)),
                     qPrintable(why));
            QVERIFY2(why.contains(QLatin1String("Is a directory")), qPrintable(why));
            QVERIFY2(why.contains(QLatin1String("Nothing was sent")), qPrintable(why));
            QVERIFY2(
                r.outcome.nextStep(mode).startsWith(QLatin1String("Make the audit log writable")),
                qPrintable(r.outcome.nextStep(mode)));
            QVERIFY(r.sent.isEmpty());
            QVERIFY(!r.stockAfter.read);
        }
        const QByteArray stats = m_c->call({"INFO", "commandstats"})->bytes();
        QVERIFY2(!stats.contains("cmdstat_fcall:"), stats.constData());
        QVERIFY2(!stats.contains("cmdstat_evalsha:"), stats.constData());
        QCOMPARE(get("stock:{42}:available"), QByteArray("10"));
        QCOMPARE(m_c->call({"DUMP", "stock:{42}:available"})->bytes(), dumpBefore);
        QCOMPARE(m_c->call({"EXISTS", "idem:{42}:9001"})->toInteger(), 0);
        QCOMPARE(QDir(ctx.auditLogPath).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList());
    }

    // Through FCALL_RO inventory_receipt_v1 when the server has it, else by reading the key;
    // both give the same answer. v2 hash receipts are read too.
    void receiptCheckBothWays()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QCOMPARE(deductBlocking(*m_c, m_ctx, plan("42", "9001", "3")).outcome.kind,
                 OutcomeKind::Deducted);
        const QByteArray list = render(m_c->call({"FUNCTION", "LIST"})).toUtf8();
        QByteArray helper;
        if (!list.contains("inventory_receipt_v1")) {
            // The shipped library predates the receipt function: a stand-in with its contract.
            helper = "helper_receipt";
            QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                               "#!lua name=helper_receipt\n"
                               "redis.register_function{function_name='inventory_receipt_v1', "
                               "flags={'no-writes'}, callback=function(k) "
                               "local v = redis.call('GET', k[1]) "
                               "if not v then return {0,0,-2,-1} end "
                               "return {1, tonumber(v), redis.call('TTL', k[1]), -1} end}"})
                        .ok());
        }
        const ReceiptStatus viaFunction = checkReceiptBlocking(*m_c, "idem:{42}:9001");
        QCOMPARE(viaFunction.source, QStringLiteral("FCALL_RO inventory_receipt_v1"));
        QCOMPARE(viaFunction.remaining, 7);
        QVERIFY(viaFunction.ttlSeconds > 0);
        QVERIFY(m_c->call({"FUNCTION", "FLUSH"}).ok());
        const ReceiptStatus direct = checkReceiptBlocking(*m_c, "idem:{42}:9001");
        QVERIFY(direct.source.startsWith(QLatin1String("direct read")));
        QCOMPARE(direct.remaining, 7);
        QCOMPARE(direct.type, QByteArray("string"));
        QCOMPARE(direct.verdictName(), viaFunction.verdictName());

        QVERIFY(m_c->call({"HSET", "idem:{42}:v2", "remaining", "5", "quantity", "2", "time",
                           "1700000000.000001"})
                    .ok());
        QVERIFY(m_c->call({"EXPIRE", "idem:{42}:v2", "100"}).ok());
        const ReceiptStatus hash = checkReceiptBlocking(*m_c, "idem:{42}:v2");
        QVERIFY(hash.exists);
        QCOMPARE(hash.remaining, 5);
        QCOMPARE(hash.quantity, 2);
        QVERIFY(hash.ttlSeconds > 90);
        const ReceiptStatus none = checkReceiptBlocking(*m_c, "idem:{42}:none");
        QVERIFY(none.ok() && !none.exists);
        loadLibrary();
    }

    // v2, which the shipped library provides: the same order with another quantity is told
    // apart, and decodes as already applied with the recorded quantity. The shipped library is
    // loaded here so that a library without v2 fails this test instead of skipping it.
    void v2CodesDecode()
    {
        loadLibrary();
        QVERIFY2(render(m_c->call({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"}))
                     .contains("\"inventory_deduct_v2\""),
                 "the shipped library must provide inventory_deduct_v2");
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        const redis::Command first{
            "FCALL", "inventory_deduct_v2", "2", "stock:{42}:available", "idem:{42}:1", "3", "60"};
        QCOMPARE(decodeFunctionReply(m_c->call(first), ReplyContract::FunctionV2, 3).kind,
                 OutcomeKind::Deducted);
        redis::Command other = first;
        other[5] = "4";
        const DeductionOutcome o =
            decodeFunctionReply(m_c->call(other), ReplyContract::FunctionV2, 4);
        QCOMPARE(o.kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(o.recordedQuantity, 3);
        const ReceiptStatus s = checkReceiptBlocking(*m_c, "idem:{42}:1");
        QCOMPARE(s.quantity, 3);
        QCOMPARE(s.remaining, 7);
    }

    // Issue 29, D3: "deducted ... a retry returns Already applied" while the read-back found
    // the receipt already gone (evicted right after the call). The read-back runs here on a
    // real server where the receipt was deleted after the call: the result must say that the
    // retry protection is gone, in the meaning and the next step the GUI and the CLI show.
    void receiptGoneAtTheReadBack()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        const DeductionResult r = deductBlocking(*m_c, m_ctx, plan("42", "9001", "3"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Deducted);
        QCOMPARE(retryProtection(r), RetryProtection::Held);
        QCOMPARE(resultNextStep(r), r.outcome.nextStep(DeductionMode::Function));

        QCOMPARE(m_c->call({"DEL", "idem:{42}:9001"})->toInteger(), 1);
        const DeductionResult gone = readBackBlocking(*m_c, r, m_ctx.timeoutMs);
        QVERIFY(gone.receiptAfter && gone.receiptAfter->ok() && !gone.receiptAfter->exists);
        QCOMPARE(gone.stockAfter.text(), QStringLiteral("7"));
        QCOMPARE(retryProtection(gone), RetryProtection::Lost);
        QCOMPARE(retryProtectionName(retryProtection(gone)), QStringLiteral("lost"));
        QVERIFY2(resultMeaning(gone).contains("the retry protection is already gone"),
                 qPrintable(resultMeaning(gone)));
        QVERIFY2(resultMeaning(gone).contains("would deduct again"),
                 qPrintable(resultMeaning(gone)));
        QVERIFY2(resultNextStep(gone).startsWith("Do not retry this order"),
                 qPrintable(resultNextStep(gone)));
        QVERIFY(!resultNextStep(gone).contains("returns Already applied"));

        // Script mode promises no retry protection; nothing to take back.
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        const DeductionResult script =
            deductBlocking(*m_c, m_ctx, plan("42", "", "3", DeductionMode::Script));
        QCOMPARE(retryProtection(script), RetryProtection::NotClaimed);
    }

    // "Copy as redis-cli command", pasted into a shell, sends exactly the same arguments.
    // A caller who may DECRBY but not SET, against the frozen 1.0.0 (no permission check):
    // the function decrements, then fails on SET. That is never "rejected, retrying is safe".
    // Against the shipped 1.2.0 the same call is refused before any write.
    void errorAfterAWriteIsNeverCalledSafe()
    {
        const auto partial =
            m_redis.connect(testsupport::setUpPartialWrite(*m_c, m_redis.options()));
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "100"}).ok());

        DeductionResult r = deductBlocking(*partial, m_ctx, plan("42", "9001", "5"));
        QCOMPARE(r.outcome.kind, OutcomeKind::MayHaveWritten);
        QVERIFY2(testsupport::saysScriptAclDenied(r.outcome.serverError.english),
                 qPrintable(r.outcome.serverError.english));
        QCOMPARE(r.outcome.stockMoved, QStringLiteral("100 → 95"));
        QCOMPARE(get("stock:{42}:available"), QByteArray("95")); // the write the error followed
        QVERIFY(r.receiptAfter && !r.receiptAfter->exists);
        const QString words = r.outcome.meaning(DeductionMode::Function)
                              + r.outcome.nextStep(DeductionMode::Function);
        QVERIFY2(!words.contains("safe") && !words.contains("Nothing was written"),
                 qPrintable(words));
        QVERIFY2(r.outcome.nextStep(DeductionMode::Function).startsWith("Do not retry yet"),
                 qPrintable(words));

        loadLibrary(); // 1.2.0: the permission is checked before the first write
        r = deductBlocking(*partial, m_ctx, plan("42", "9002", "5"));
        QCOMPARE(r.outcome.kind, OutcomeKind::Rejected);
        QCOMPARE(r.outcome.serverError.english,
                 QStringLiteral("NOPERM this user may not run SET on the keys of this deduction; "
                                "nothing was written"));
        QCOMPARE(get("stock:{42}:available"), QByteArray("95"));
        QVERIFY(r.outcome.meaning(DeductionMode::Function).contains("Nothing was written"));
        QVERIFY(testsupport::undoPartialWrite(*m_c));
    }

    void redisCliCommandWorksWhenPasted()
    {
        const QByteArray sku = "a b'c\"$(touch x)`*`";
        const QByteArray order = "o\\n 1";
        QVERIFY(m_c->call({"SET", m_ctx.schema.stockKey(sku), "10"}).ok());
        const DeductionPlan p = plan(sku, order, "3");
        QVERIFY(p.ok());
        const QString line = redisCliCommandLine(m_ctx.effectiveRedisCliArgs(), p.command);
        QProcess shell;
        shell.setWorkingDirectory(m_dir.path());
        shell.start("bash", {"-c", line});
        QVERIFY(shell.waitForFinished(10000));
        QCOMPARE(shell.exitCode(), 0);
        QCOMPARE(shell.readAllStandardOutput(), QByteArray("1\n7\n"));
        QCOMPARE(get(m_ctx.schema.stockKey(sku)), QByteArray("7"));
        QCOMPARE(get(m_ctx.schema.receiptKey(sku, order)), QByteArray("7"));
        QVERIFY(!QFile::exists(m_dir.filePath("x")));
    }
};

QTEST_GUILESS_MAIN(TstDeduct)
#include "tst_deduct.moc"
