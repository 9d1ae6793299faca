// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli deduct against a real redis-server: the outcome of each case in text and
// JSON, its exit code, the audit record it leaves, and that the record is on disk by the time
// the outcome is printed (the process is then killed with SIGKILL).
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "inventory/AuditQuery.h"
#include "inventory/DeductionRequest.h"
#include "redis/Slot.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using testsupport::render;
using testsupport::StandaloneRedis;

class TstCliDeduct : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_dir;
    QString m_cli;
    QString m_audit;

    struct Run
    {
        int exitCode = -1;
        QByteArray out, err;
        QJsonObject json;
    };
    QStringList base() const
    {
        return {"deduct", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
                "--audit-log", m_audit};
    }
    Run run(const QStringList &args)
    {
        const testsupport::CliRun c = testsupport::runCli(args);
        return Run{c.exitCode, c.out, c.err, QJsonDocument::fromJson(c.out).object()};
    }
    Run deduct(const QString &sku, const QString &order, const QString &quantity,
               const QStringList &extra = {})
    {
        QStringList args = base() + QStringList{"--sku", sku, "--quantity", quantity, "--json"};
        if (!order.isEmpty())
            args << "--order" << order;
        return run(args + extra);
    }
    // One record per write: each attempt paired with its outcome.
    QList<inventory::AuditRecord> audit() const
    {
        const auto trail = testsupport::readAuditTrail(m_audit);
        if (!trail.problem.isEmpty())
            qWarning() << trail.problem;
        return trail.writes;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        m_cli = testsupport::cliPath();
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        const QByteArray source = testsupport::functionSource("inventory_lib_v1.lua");
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE", source})),
                 QStringLiteral("\"inventory_lib_v1\""));
        m_audit = m_dir.filePath("audit.jsonl");
    }

    void init()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QFile::remove(m_audit);
    }

    void helpDocumentsExitCodes()
    {
        const Run r = run({"deduct", "--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char *line :
             {"0  deducted, or already applied", "4  insufficient stock", "5  stock key missing",
              "6  rejected by the server", "7  outcome unknown"})
            QVERIFY2(r.out.contains(line), line);
    }

    void functionOutcomesAndExitCodes()
    {
        Run r = deduct("42", "9001", "3");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("deducted"));
        QCOMPARE(r.json.value("remaining").toInt(), 7);
        QCOMPARE(r.json.value("stock_key").toString(), QStringLiteral("stock:{42}:available"));
        QCOMPARE(r.json.value("receipt_key").toString(), QStringLiteral("idem:{42}:9001"));
        QCOMPARE(r.json.value("slot").toInt(), redis::keySlot("stock:{42}:available"));
        QCOMPARE(r.json.value("receipt").toObject().value("ttl").toInt(), 604800);
        // The receipt read back stands behind the retry promise (issue 29, D3), and the node
        // that ran the call is named with its run_id (issue 28).
        QCOMPARE(r.json.value("retry_protection").toString(), QStringLiteral("held"));
        QCOMPARE(r.json.value("server").toString(),
                 QStringLiteral("127.0.0.1:%1").arg(m_redis.port()));
        QCOMPARE(r.json.value("run_id").toString().size(), 40);
        const auto trail = testsupport::readAuditTrail(m_audit);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.raw.size(), 2); // the attempt, then its outcome
        QCOMPARE(audit().size(), 1);
        QCOMPARE(audit().last().result, QStringLiteral("deducted: remaining 7"));
        QCOMPARE(audit().last().profile, QStringLiteral("127.0.0.1:%1").arg(m_redis.port()));
        QCOMPARE(audit().last().command.last(), QByteArray("604800")); // the default TTL

        r = deduct("42", "9001", "3");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("already_applied"));
        QCOMPARE(r.json.value("remaining").toInt(), 7);

        r = deduct("42", "9002", "30", {"--ttl", "120"});
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("insufficient"));
        QCOMPARE(r.json.value("stock").toInt(), 7);

        r = deduct("43", "9002", "1");
        QCOMPARE(r.exitCode, 5);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("stock_missing"));

        QVERIFY(m_c->call({"SET", "stock:{44}:available", "x"}).ok());
        r = deduct("44", "9002", "1");
        QCOMPARE(r.exitCode, 6);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("rejected"));
        QCOMPARE(r.json.value("error").toString(), QStringLiteral("ERR invalid stock"));
        QCOMPARE(audit().size(), 5);
    }

    void scriptModeRecoversFromNoscript()
    {
        QVERIFY(m_c->call({"SCRIPT", "FLUSH", "SYNC"}).ok());
        const Run r = deduct("42", "", "4", {"--mode", "script"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("deducted"));
        QCOMPARE(r.json.value("remaining").toInt(), 6);
        QVERIFY(r.json.value("script_loaded").toBool());
        QVERIFY(!r.json.contains("receipt_key"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("6"));
        const auto records = audit();
        QCOMPARE(records.size(), 3);
        QCOMPARE(records[1].action, QStringLiteral("script-load"));
    }

    void badValuesAreRefusedBeforeSending()
    {
        Run r = deduct("42", "9001", "03");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing sent") && r.err.contains("--quantity"), r.err);
        r = deduct("42", "9001", "3", {"--ttl", "31536001"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--ttl"));
        r = deduct("42", "", "3"); // function mode needs the order id
        QCOMPARE(r.exitCode, 2);
        r = deduct("42", "9001", "3", {"--mode", "eval"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(m_audit));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
    }

    // A production session refuses until unlocked with its name (host:port for a URL).
    void productionNeedsUnlock()
    {
        Run r = deduct("42", "9001", "3", {"--environment", "production"});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("not_sent"));
        QVERIFY(r.json.value("message").toString().startsWith("Nothing was sent"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        r = deduct("42", "9001", "3", {"--environment", "production", "--unlock", "wrong"});
        QCOMPARE(r.exitCode, 2);
        r = deduct("42", "9001", "3",
                   {"--environment", "production", "--unlock",
                    QStringLiteral("127.0.0.1:%1").arg(m_redis.port())});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("deducted"));
    }

    // Safety bug 1: without --environment a host not written as localhost, 127.x.x.x or ::1
    // is production, read-only, whatever it resolves to. [::ffff:127.0.0.1] reaches the test
    // server over loopback but is not written as loopback.
    void hostNotWrittenAsLoopbackIsProduction()
    {
        const QString url = QStringLiteral("redis://[::ffff:127.0.0.1]:%1").arg(m_redis.port());
        const QStringList args{"deduct", "--url",      url, "--audit-log", m_audit, "--sku",
                               "42",     "--quantity", "3", "--order",     "9001",  "--json"};
        Run r = run(args);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("not_sent"));
        QVERIFY2(r.json.value("message").toString().contains("production"),
                 qPrintable(r.json.value("message").toString()));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        // Labelled by the user, it writes: the label made the difference.
        r = run(args + QStringList{"--environment", "local"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("deducted"));
        r = run(
            {"deduct", "--url", url, "--sku", "42", "--quantity", "1", "--environment", "prod"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--environment: give local, test, staging or production"));
    }

    // The CLI is killed while the server holds the call: the attempt is on disk, no outcome
    // follows, and the audit viewer's model shows it as "no outcome recorded".
    void killedWhileHeldLeavesAnAttemptWithNoOutcome()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "10000", "WRITE"}).ok());
        QProcess p;
        p.start(m_cli, base()
                           + QStringList{"--sku", "42", "--order", "9001", "--quantity", "3",
                                         "--timeout-ms", "20000"});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(
            admin->call({"INFO", "clients"})->bytes().contains("blocked_clients:1"), 10000);
        p.kill();
        QVERIFY(p.waitForFinished(5000));
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());

        const auto raw = inventory::AuditLog::read(m_audit);
        QCOMPARE(raw.problems, QStringList());
        QCOMPARE(raw.records.size(), 1);
        QCOMPARE(raw.records[0].phase, inventory::AuditRecord::Phase::Attempt);
        QCOMPARE(raw.records[0].command.value(4), QByteArray("idem:{42}:9001"));
        inventory::AuditTableModel model;
        model.setRecords(raw.records);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.noOutcomeCount(), 1);
        QCOMPARE(model.recordAt(0)->result, inventory::noOutcomeRecordedText());
        QVERIFY(model.recordAt(0)->result.contains("the command may or may not have run"));
        QVERIFY(model.index(0, 0).data(inventory::AuditTableModel::OutcomeUnknownRole).toBool());
        QVERIFY(model.index(0, 0).data(inventory::AuditTableModel::NoOutcomeRecordedRole).toBool());
        model.setFilter({{}, {}, true, {}, {}}); // "outcome unknown only" keeps it
        QCOMPARE(model.rowCount(), 1);

        // A later run pairs its own records and leaves the lone attempt as it is.
        const Run r = deduct("42", "9002", "1");
        QCOMPARE(r.exitCode, 0);
        model.setRecords(inventory::AuditLog::read(m_audit).records);
        model.setFilter({});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.recordAt(0)->result, QStringLiteral("deducted: remaining 9"));
        QCOMPARE(model.recordAt(1)->result, inventory::noOutcomeRecordedText());
    }

    // The audit log cannot be written: the CLI sends nothing and says where and why.
    void unwritableAuditLogRefusesTheDeduction()
    {
        const QByteArray before = m_c->call({"DUMP", "stock:{42}:available"})->bytes();
        const QString dir = m_dir.filePath("cli-audit-is-a-directory");
        QVERIFY(QDir().mkpath(dir));
        Run r = run({"deduct", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
                     "--audit-log", dir, "--sku", "42", "--order", "9001", "--quantity", "3",
                     "--json"});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("not_sent"));
        const QString why = r.json.value("error").toString();
        QVERIFY2(
            why.startsWith(QStringLiteral("the audit log at %1 could not be written: ").arg(dir)),
            qPrintable(why));
        r = run({"deduct", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()),
                 "--audit-log", dir, "--sku", "42", "--quantity", "3", "--mode", "script"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("could not be written") && r.out.contains("Nothing was sent"),
                 r.out.constData());
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        QCOMPARE(m_c->call({"DUMP", "stock:{42}:available"})->bytes(), before);
        QCOMPARE(m_c->call({"EXISTS", "idem:{42}:9001"})->toInteger(), 0);
    }

    // Nothing listens on the port: exit 3 and one line on stderr without the URL's password,
    // for a deduction and for a check; nothing is written to the audit log.
    void refusedPort()
    {
        const QString url = QStringLiteral("redis://u:Refused-Secret-pw@127.0.0.1:%1")
                                .arg(demo::LocalRedisServer::freePort());
        for (const QStringList &extra : {QStringList{"--quantity", "3"}, QStringList{"--check"}}) {
            const Run r = run(QStringList{"deduct", "--url", url, "--audit-log", m_audit, "--sku",
                                          "42", "--order", "9001", "--timeout-ms", "2000"}
                              + extra);
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.out.isEmpty(), r.out.constData());
            QVERIFY2(r.err.startsWith("inventory-cli deduct: ") && r.err.endsWith('\n')
                         && r.err.count('\n') == 1,
                     r.err.constData());
            QVERIFY2(r.err.contains("connection refused"), r.err.constData());
            QVERIFY(!r.err.contains("Refused-Secret"));
        }
        QVERIFY(!QFile::exists(m_audit));
    }

    void unknownOutcomeThenCheck()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "2500", "WRITE"}).ok());
        Run r = deduct("42", "9001", "3", {"--timeout-ms", "600"});
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("unknown"));
        QVERIFY(r.json.value("next_step").toString().contains("Check the receipt"));
        QVERIFY(audit().last().outcomeUnknown);
        // The CLI exited and closed its connection while the server held the call: the
        // server drops a held command of a closed client, so it never ran.
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        r = run(base() + QStringList{"--sku", "42", "--order", "9001", "--check", "--json"});
        QCOMPARE(r.exitCode, 5);
        QCOMPARE(r.json.value("verdict").toString(), QStringLiteral("not_found"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        // So the retry with the same order id deducts, once.
        r = deduct("42", "9001", "3");
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("deducted"));
        r = run(base() + QStringList{"--sku", "42", "--order", "9001", "--check"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("The deduction happened"), r.out);
    }

    // An error after a write (a caller who may DECRBY but not SET, against the frozen 1.0.0
    // that does not check permissions first) exits 7 and never says retrying is safe.
    void errorAfterAWriteIsNotCalledSafe()
    {
        const redis::ConnectionOptions user =
            testsupport::setUpPartialWrite(*m_c, m_redis.options());
        const Run r =
            run({"deduct", "--url",
                 QStringLiteral("redis://%1:%2@127.0.0.1:%3")
                     .arg(user.username, user.password)
                     .arg(m_redis.port()),
                 "--audit-log", m_audit, "--sku", "42", "--order", "9001", "--quantity", "3"});
        QVERIFY(testsupport::undoPartialWrite(*m_c));
        QCOMPARE(r.exitCode, 7);
        QVERIFY2(testsupport::saysScriptAclDenied(
                     r.out, QStringLiteral("outcome:      error, may have written: ")),
                 r.out);
        QVERIFY2(r.out.contains("(stock moved 10 → 7)"), r.out);
        QVERIFY2(r.out.contains("next step:    Do not retry yet"), r.out);
        QVERIFY2(!r.out.contains("safe") && !r.out.contains("Nothing was written"), r.out);
        QCOMPARE(audit().last().result.left(24), QStringLiteral("error, may have written:"));
        // --json: the receipt read just after is absent, which here is not "did not happen".
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        testsupport::setUpPartialWrite(*m_c, m_redis.options());
        const Run j = run({"deduct", "--url",
                           QStringLiteral("redis://%1:%2@127.0.0.1:%3")
                               .arg(user.username, user.password)
                               .arg(m_redis.port()),
                           "--audit-log", m_audit, "--sku", "42", "--order", "9002", "--quantity",
                           "3", "--json"});
        QVERIFY(testsupport::undoPartialWrite(*m_c));
        QCOMPARE(j.json.value("outcome").toString(), QStringLiteral("may_have_written"));
        QCOMPARE(j.json.value("stock_moved").toString(), QStringLiteral("10 → 7"));
        const QString receipt = j.json.value("receipt").toObject().value("message").toString();
        QVERIFY2(receipt.contains("happened without its receipt") && !receipt.contains("did not"),
                 qPrintable(receipt));
    }

    void textOutput()
    {
        const Run r =
            run(base() + QStringList{"--sku", "42", "--order", "9001", "--quantity", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("outcome:      deducted: remaining 7"), r.out);
        QVERIFY(r.out.contains("stock before: 10 (read just before)"));
        QVERIFY(r.out.contains("stock after:  7 (read just after)"));
        QVERIFY(r.out.contains("receipt:      exists, value 7, TTL 7 d 0 h 0 min (604800 s)"));
    }

    // The record is on disk the moment the outcome is printed: read it then, and SIGKILL the
    // process right away.
    void recordIsOnDiskWhenTheOutcomeIsPrinted()
    {
        for (int i = 0; i < 5; ++i) {
            const QString order = QStringLiteral("k%1").arg(i);
            QProcess p;
            QList<inventory::AuditRecord> seen;
            QByteArray line;
            connect(&p, &QProcess::readyReadStandardOutput, &p, [&] {
                line += p.readAllStandardOutput();
                if (!line.contains('\n') || !seen.isEmpty())
                    return;
                seen = audit(); // before the process can do anything else
                if (seen.isEmpty())
                    seen << inventory::AuditRecord{}; // mark "looked, found nothing"
                p.kill();
            });
            p.start(
                m_cli,
                base() + QStringList{"--sku", "42", "--order", order, "--quantity", "1", "--json"});
            QVERIFY(p.waitForStarted());
            QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty(), 15000);
            p.waitForFinished(5000);
            QCOMPARE(QJsonDocument::fromJson(line).object().value("outcome").toString(),
                     QStringLiteral("deducted"));
            QCOMPARE(seen.size(), i + 1);
            QCOMPARE(seen.last().command.at(4), ("idem:{42}:" + order).toUtf8());
            QCOMPARE(seen.last().result, QStringLiteral("deducted: remaining %1").arg(9 - i));
        }
        QCOMPARE(inventory::AuditLog::read(m_audit).problems, QStringList());
    }
};

QTEST_GUILESS_MAIN(TstCliDeduct)
#include "tst_cli_deduct.moc"
