// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 29, D14: a deduction on a writable replica (replica-read-only no) was accepted there
// and reported as deducted, then lost at the next resync. Against a real primary and its
// replica: the console reads the role of the node it writes to and refuses a replica (NotSent,
// naming the primary, nothing sent, nothing recorded), in the core and in inventory-cli; a
// role it may not read is refused too.
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "inventory/Deducer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;
using testsupport::render;
using testsupport::StandaloneRedis;

class TstDeductReplica : public QObject
{
    Q_OBJECT

    StandaloneRedis m_primary, m_replica;
    std::unique_ptr<redis::RedisClient> m_p, m_r;
    QTemporaryDir m_dir;
    DeductionContext m_ctx;

    DeductionPlan plan(const QByteArray &order)
    {
        return planDeduction({"42", order, "1", "60", DeductionMode::Function}, m_ctx.schema);
    }
    QByteArray stockOn(redis::RedisClient &c)
    {
        return c.call({"GET", "stock:{42}:available"})->bytes();
    }
    QString primaryAddress() const { return QStringLiteral("127.0.0.1:%1").arg(m_primary.port()); }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_primary.start(), qPrintable(m_primary.errorString()));
        QVERIFY2(m_replica.startReplicaOf(m_primary), qPrintable(m_replica.errorString()));
        m_p = m_primary.connect();
        m_r = m_replica.connect();
        QVERIFY(m_p->call({"FUNCTION", "LOAD", "REPLACE",
                           testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        QVERIFY(m_p->call({"SET", "stock:{42}:available", "5"}).ok());
        // The replica holds what the primary holds, and accepts writes: the setup.
        QTRY_COMPARE_WITH_TIMEOUT(stockOn(*m_r), QByteArray("5"), 10000);
        QVERIFY(m_r->call({"CONFIG", "SET", "replica-read-only", "no"}).ok());
        m_ctx.profileName = "test-profile";
        m_ctx.serverAddress = m_r->address();
        m_ctx.auditLogPath = m_dir.filePath("audit.jsonl");
        m_ctx.timeoutMs = 3000;
    }

    void coreRefusesAWritableReplica()
    {
        const DeductionResult r = deductBlocking(*m_r, m_ctx, plan("9001"));
        QCOMPARE(r.outcome.kind, OutcomeKind::NotSent);
        QVERIFY2(r.outcome.transportError.english.contains("replica"),
                 qPrintable(r.outcome.transportError.english));
        QVERIFY2(
            r.outcome.transportError.english.contains("Connect to the primary " + primaryAddress()),
            qPrintable(r.outcome.transportError.english));
        QVERIFY2(r.outcome.nextStep(DeductionMode::Function).startsWith("Connect to the primary"),
                 qPrintable(r.outcome.nextStep(DeductionMode::Function)));
        QVERIFY(r.sent.isEmpty());
        QCOMPARE(stockOn(*m_r), QByteArray("5"));
        QCOMPARE(m_r->call({"EXISTS", "idem:{42}:9001"})->toInteger(), 0);
        QVERIFY(!QFile::exists(m_ctx.auditLogPath)); // nothing sent, nothing to record
        // The primary itself is written to as before.
        QCOMPARE(deductBlocking(*m_p, m_ctx, plan("9002")).outcome.kind, OutcomeKind::Deducted);
        QCOMPARE(stockOn(*m_p), QByteArray("4"));
    }

    void cliRefusesAWritableReplica()
    {
        QTRY_COMPARE_WITH_TIMEOUT(stockOn(*m_r), stockOn(*m_p), 10000);
        const QByteArray before = stockOn(*m_r);
        const auto c = testsupport::runCli(
            {"deduct", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(m_replica.port()),
             "--audit-log", m_dir.filePath("cli.jsonl"), "--sku", "42", "--order", "9003",
             "--quantity", "1", "--json"});
        QCOMPARE(c.exitCode, 3);
        const QJsonObject j = QJsonDocument::fromJson(c.out).object();
        QCOMPARE(j.value("outcome").toString(), QStringLiteral("not_sent"));
        QVERIFY2(j.value("error").toString().contains("Connect to the primary " + primaryAddress()),
                 c.out.constData());
        QCOMPARE(stockOn(*m_r), before);
        QVERIFY(!QFile::exists(m_dir.filePath("cli.jsonl")));
    }

    // A user who may deduct but not run INFO: the role is unknown, and so the write is refused.
    void unreadableRoleIsRefused()
    {
        QVERIFY(
            m_p->call({"ACL", "SETUSER", "noinfo", "reset", "on", ">pw", "~*", "+@all", "-info"})
                .ok());
        redis::ConnectionOptions o = m_primary.options();
        o.username = "noinfo";
        o.password = "pw";
        auto limited = m_primary.connect(o);
        const QByteArray before = stockOn(*m_p);
        const DeductionResult r = deductBlocking(*limited, m_ctx, plan("9004"));
        QCOMPARE(r.outcome.kind, OutcomeKind::NotSent);
        QVERIFY2(r.outcome.transportError.english.contains("could not read the server's role"),
                 qPrintable(r.outcome.transportError.english));
        QCOMPARE(stockOn(*m_p), before);
        QVERIFY(m_p->call({"ACL", "DELUSER", "noinfo"}).ok());
    }
};

QTEST_GUILESS_MAIN(TstDeductReplica)
#include "tst_deduct_replica.moc"
