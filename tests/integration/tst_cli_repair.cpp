// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli release and adjust (issue 32) against a real redis-server: each outcome in
// JSON and text with its exit code, the write-ahead audit record with the reason and the
// receipt read before, the production refusal without --confirm, and a lost reply, which is
// never resent but settled by reading the release or adjustment key.
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "TcpRelay.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using testsupport::render;
using testsupport::StandaloneRedis;

namespace {
const QByteArray Stock = "stock:{42}:available";
const QByteArray Receipt = "idem:{42}:9001";
const QByteArray Release = "rel:{42}:9001";
const QByteArray Adjustment = "adj:{42}:fix-1";
} // namespace

class TstCliRepair : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_dir;
    QString m_audit;

    struct Run
    {
        int exitCode = -1;
        QByteArray out, err;
        QJsonObject json;
    };
    QString url(quint16 port = 0) const
    {
        return QStringLiteral("redis://127.0.0.1:%1").arg(port ? port : m_redis.port());
    }
    Run run(const QStringList &args)
    {
        const testsupport::CliRun c = testsupport::runCli(args);
        return Run{c.exitCode, c.out, c.err, QJsonDocument::fromJson(c.out).object()};
    }
    Run release(const QString &quantity, const QStringList &extra = {})
    {
        return run(QStringList{"release", "--url", url(), "--audit-log", m_audit, "--sku", "42",
                               "--order", "9001", "--quantity", quantity, "--json"}
                   + extra);
    }
    Run adjust(const QString &delta, const QStringList &extra = {})
    {
        return run(QStringList{"adjust", "--url", url(), "--audit-log", m_audit, "--sku", "42",
                               "--id", "fix-1", "--delta=" + delta, "--reason",
                               "cycle count found a damaged box", "--json"}
                   + extra);
    }
    QByteArray get(const QByteArray &key) { return render(m_c->call({"GET", key})).toUtf8(); }
    QList<inventory::AuditRecord> audit() const
    {
        const auto trail = testsupport::readAuditTrail(m_audit);
        if (!trail.problem.isEmpty())
            qWarning() << trail.problem;
        return trail.writes;
    }
    // Order 9001 deducted 3 of 10 through v2.
    void deductThree()
    {
        QCOMPARE(
            render(m_c->call({"FCALL", "inventory_deduct_v2", "2", Stock, Receipt, "3", "600"})),
            QStringLiteral("{1,7}"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                                   testsupport::functionSource("inventory_lib_v1.lua")})),
                 QStringLiteral("\"inventory_lib_v1\""));
        m_audit = m_dir.filePath("audit.jsonl");
    }

    void init()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", Stock, "10"}).ok());
        QFile::remove(m_audit);
    }

    void helpDocumentsExitCodes()
    {
        for (const char *verb : {"release", "adjust"}) {
            const Run r = run({verb, "--help"});
            QCOMPARE(r.exitCode, 0);
            for (const char *line :
                 {"--confirm", "4  refused", "5  stock key missing", "6  rejected by the server",
                  "7  outcome unknown", "never resent"})
                QVERIFY2(r.out.contains(line), line);
        }
    }

    // Released, then already released; the audit record carries the receipt read before.
    void releaseThenAlreadyReleased()
    {
        deductThree();
        Run r = release("3", {"--reason", "order 9001 cancelled"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("released"));
        QCOMPARE(r.json.value("stock").toInt(), 10);
        QCOMPARE(r.json.value("record_key").toString(), QString::fromLatin1(Release));
        QCOMPARE(r.json.value("receipt_before").toObject().value("verdict").toString(),
                 QStringLiteral("happened"));
        QVERIFY(r.json.value("message").toString().startsWith("Released: order 9001 gave 3 back"));
        QCOMPARE(get(Stock), QByteArray("\"10\""));
        QVERIFY(get(Release).startsWith("\"quantity=3;time="));
        QCOMPARE(m_c->call({"TTL", Release})->toInteger(), 604800); // the profile's receipt TTL
        const auto records = audit();
        QCOMPARE(records.size(), 1);
        QCOMPARE(records[0].action, QStringLiteral("release"));
        QCOMPARE(records[0].result, QStringLiteral("released: stock 10"));
        QVERIFY2(records[0].detail.contains("reason: order 9001 cancelled")
                     && records[0].detail.contains("receipt before: happened")
                     && records[0].detail.contains("release key before: missing"),
                 qPrintable(records[0].detail));

        r = release("3");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("already_released"));
        QCOMPARE(get(Stock), QByteArray("\"10\""));
        // Text: one sentence first.
        const Run text = run({"release", "--url", url(), "--audit-log", m_audit, "--sku", "42",
                              "--order", "9001", "--quantity", "3"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.startsWith("Already released: the release of order 9001 on SKU 42 was "
                                     "applied before (its key exists), so nothing changed; the "
                                     "stock is 10.\n"),
                 text.out.constData());
        QVERIFY(!text.out.contains("records a quantity"));
        // Another quantity for the released order: not released again, and not "done".
        r = release("2");
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("already_released"));
        QCOMPARE(r.json.value("recorded_amount").toString(), QStringLiteral("3"));
        QCOMPARE(get(Stock), QByteArray("\"10\""));
    }

    // The contract's refusals, each with its exit code and nothing written.
    void releaseRefusals()
    {
        Run r = release("3");
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("no_receipt"));
        QVERIFY(r.json.value("message").toString().contains("no deduction is proven"));
        deductThree();
        r = release("2");
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("other_quantity"));
        QCOMPARE(r.json.value("recorded_quantity").toInt(), 3);
        QVERIFY(m_c->call({"SET", Stock, "abc"}).ok());
        r = release("3");
        QCOMPARE(r.exitCode, 6);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("rejected"));
        QCOMPARE(r.json.value("error").toString(), QStringLiteral("ERR invalid stock"));
        QVERIFY(m_c->call({"DEL", Stock}).ok());
        r = release("3");
        QCOMPARE(r.exitCode, 5);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("stock_missing"));
        QCOMPARE(m_c->call({"EXISTS", Stock, Release})->toInteger(), 0);
        QCOMPARE(audit().size(), 4);
    }

    // A user who may INCRBY but not SET: NOPERM from the function, exit 6, nothing written.
    void permissionRefusal()
    {
        deductThree();
        QVERIFY(m_c->call({"ACL", "SETUSER", "repairer", "reset", "on", ">repairer-pw", "~*",
                           "+@all", "-set"})
                    .ok());
        const QString userUrl =
            QStringLiteral("redis://repairer:repairer-pw@127.0.0.1:%1").arg(m_redis.port());
        const Run r = run({"release", "--url", userUrl, "--audit-log", m_audit, "--sku", "42",
                           "--order", "9001", "--quantity", "3", "--json"});
        QCOMPARE(r.exitCode, 6);
        QVERIFY2(r.json.value("error").toString().startsWith(
                     "NOPERM this user may not run SET on the keys of this release; nothing "
                     "was written"),
                 r.out.constData());
        QVERIFY(!r.out.contains("repairer-pw"));
        QCOMPARE(get(Stock), QByteArray("\"7\""));
        QCOMPARE(m_c->call({"EXISTS", Release})->toInteger(), 0);
    }

    // Bad arguments: exit 2 before connecting, nothing sent or recorded.
    void badArgumentsAreRefusedBeforeSending_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("quantity 0") << QStringList{"release", "--order", "9001", "--quantity", "0"};
        QTest::newRow("no order") << QStringList{"release", "--quantity", "3"};
        QTest::newRow("ttl 0") << QStringList{"release", "--order", "9001", "--quantity",
                                              "3",       "--ttl",   "0"};
        QTest::newRow("delta -0") << QStringList{"adjust",     "--id",     "a",
                                                 "--delta=-0", "--reason", "x"};
        QTest::newRow("delta +1") << QStringList{"adjust",     "--id",     "a",
                                                 "--delta=+1", "--reason", "x"};
        QTest::newRow("delta 01") << QStringList{"adjust",     "--id",     "a",
                                                 "--delta=01", "--reason", "x"};
        QTest::newRow("no reason") << QStringList{"adjust", "--id", "a", "--delta=1"};
        QTest::newRow("blank reason")
            << QStringList{"adjust", "--id", "a", "--delta=1", "--reason", " "};
    }
    void badArgumentsAreRefusedBeforeSending()
    {
        QFETCH(QStringList, args);
        const Run r =
            run(args + QStringList{"--url", url(), "--audit-log", m_audit, "--sku", "42"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.count('\n') == 1, r.err.constData());
        QVERIFY(!QFile::exists(m_audit));
        QCOMPARE(get(Stock), QByteArray("\"10\""));
    }

    void adjustOutcomes()
    {
        Run r = adjust("-4");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("adjusted"));
        QCOMPARE(r.json.value("stock").toInt(), 6);
        QVERIFY(get(Adjustment).startsWith("\"delta=-4;time="));
        r = adjust("-4");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("already_applied"));
        QCOMPARE(get(Stock), QByteArray("\"6\""));
        QVERIFY(!r.json.contains("recorded_amount"));
        // The same id with another delta: the function answers "already applied", but this
        // delta was never applied, and the CLI says so (exit 4), in JSON and in text.
        r = adjust("3");
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("already_applied"));
        QCOMPARE(r.json.value("recorded_amount").toString(), QStringLiteral("-4"));
        QVERIFY2(r.json.value("note").toString().contains("not the 3 asked for: this correction "
                                                          "was not applied"),
                 qPrintable(r.json.value("note").toString()));
        QCOMPARE(get(Stock), QByteArray("\"6\""));
        const Run text = run({"adjust", "--url", url(), "--audit-log", m_audit, "--sku", "42",
                              "--id", "fix-1", "--delta=3", "--reason", "again"});
        QCOMPARE(text.exitCode, 4);
        QVERIFY2(text.out.contains("\nThe adjustment key records a delta of -4, not the 3 asked "
                                   "for"),
                 text.out.constData());
        r = run({"adjust", "--url", url(), "--audit-log", m_audit, "--sku", "42", "--id", "fix-2",
                 "--delta=-7", "--reason", "recount", "--json"});
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("out_of_bounds"));
        QCOMPARE(r.json.value("stock").toInt(), 6);
        QVERIFY(m_c->call({"DEL", Stock}).ok());
        r = run({"adjust", "--url", url(), "--audit-log", m_audit, "--sku", "42", "--id", "fix-3",
                 "--delta", "5", "--reason", "recount"});
        QCOMPARE(r.exitCode, 5);
        QVERIFY2(r.out.startsWith("Not adjusted: the stock key stock:{42}:available does not "
                                  "exist"),
                 r.out.constData());
        const auto records = audit();
        QCOMPARE(records.size(), 6);
        QCOMPARE(records[0].action, QStringLiteral("adjust"));
        QVERIFY2(records[0].detail.startsWith("reason: cycle count found a damaged box; "
                                              "adjustment key before: missing"),
                 qPrintable(records[0].detail));
        QCOMPARE(records[0].result, QStringLiteral("adjusted: stock 6"));
    }

    // Production is read-only: without --confirm nothing is sent (exit 3); a wrong name is a
    // usage error; the profile's name (host:port for a URL) lets the write through.
    void productionNeedsConfirm()
    {
        deductThree();
        const QStringList prod{"--environment", "production"};
        Run r = release("3", prod);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("not_sent"));
        QVERIFY2(r.json.value("message").toString().startsWith("Nothing was sent"),
                 r.out.constData());
        r = adjust("1", prod);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(get(Stock), QByteArray("\"7\""));
        QCOMPARE(m_c->call({"EXISTS", Release, Adjustment})->toInteger(), 0);
        r = release("3", prod + QStringList{"--confirm", "wrong"});
        QCOMPARE(r.exitCode, 2);
        const QString name = QStringLiteral("127.0.0.1:%1").arg(m_redis.port());
        r = release("3", prod + QStringList{"--confirm", name});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("released"));
        r = adjust("1", prod + QStringList{"--confirm", name});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(get(Stock), QByteArray("\"11\""));
    }

    // The server holds the call (CLIENT PAUSE WRITE): no reply in time, outcome unknown, never
    // resent. The release key, read on another connection, does not prove anything either way.
    void heldCallIsUnknownAndNotProven()
    {
        deductThree();
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "5000", "WRITE"}).ok());
        const Run r = release("3", {"--timeout-ms", "600"});
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("unknown"));
        const QJsonObject settled = r.json.value("settled").toObject();
        QCOMPARE(settled.value("applied").toBool(), false);
        QVERIFY2(settled.value("message").toString().startsWith(
                     "not proven: the release key rel:{42}:9001 does not exist"),
                 r.out.constData());
        QVERIFY(audit().last().outcomeUnknown);
        // The CLI closed its connection while the call was held: the server dropped it.
        QCOMPARE(m_c->call({"EXISTS", Release})->toInteger(), 0);
        QCOMPARE(get(Stock), QByteArray("\"7\""));
        // One FCALL left the process: it was not resent.
        const auto raw = inventory::AuditLog::read(m_audit).records;
        QCOMPARE(raw.size(), 2);
    }

    // The call runs but its reply is lost on the way back: outcome unknown, and the key read
    // afterwards proves the release (or adjustment) happened. Nothing is resent.
    void lostReplyIsSettledByTheRecordKey_data()
    {
        QTest::addColumn<QString>("verb");
        QTest::newRow("release") << "release";
        QTest::newRow("adjust") << "adjust";
    }
    void lostReplyIsSettledByTheRecordKey()
    {
        QFETCH(QString, verb);
        deductThree();
        const bool isRelease = verb == QLatin1String("release");
        testsupport::TcpRelay relay;
        const QString problem =
            relay.start(m_redis.port(), isRelease ? "inventory_release_v1" : "inventory_adjust_v1");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QStringList args{
            verb,    "--url", url(relay.port()), "--environment", "test",  "--audit-log", m_audit,
            "--sku", "42",    "--timeout-ms",    "1000",          "--json"};
        args << (isRelease ? QStringList{"--order", "9001", "--quantity", "3"}
                           : QStringList{"--id", "fix-1", "--delta=5", "--reason", "recount"});
        const Run r = run(args);
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.json.value("outcome").toString(), QStringLiteral("unknown"));
        const QJsonObject settled = r.json.value("settled").toObject();
        QVERIFY2(settled.value("applied").toBool(), r.out.constData());
        QVERIFY2(settled.value("message").toString().startsWith(
                     isRelease ? "released: the release key rel:{42}:9001 exists"
                               : "adjusted: the adjustment key adj:{42}:fix-1 exists"),
                 r.out.constData());
        // Applied exactly once: the call was not resent.
        QCOMPARE(get(Stock), isRelease ? QByteArray("\"10\"") : QByteArray("\"12\""));
        QCOMPARE(inventory::AuditLog::read(m_audit).records.size(), 2);
        QVERIFY(audit().last().outcomeUnknown);
    }
};

QTEST_GUILESS_MAIN(TstCliRepair)
#include "tst_cli_repair.moc"
