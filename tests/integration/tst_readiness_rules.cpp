// SPDX-License-Identifier: GPL-3.0-or-later
// Each readiness rule (issue 15) against a real server configured to pass it and to fail it.
#include "AclUsers.h"
#include "ServerTest.h"
#include "browse/InventoryScan.h"
#include "readiness/ReadinessAudit.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using readiness::Finding;
using readiness::Verdict;

namespace {

const char *name(Verdict v)
{
    static QByteArray s;
    s = readiness::verdictName(v).toUtf8();
    return s.constData();
}

// A library with a deduct function flagged no-writes (Redis refuses its writes).
const QByteArray NoWritesLibrary =
    "#!lua name=nowrites_test\n"
    "redis.register_function{function_name='broken_deduct', callback=function() return 1 end, "
    "flags={'no-writes'}}\n";

} // namespace

#define VERIFY_VERDICT(finding, expected)                                                          \
    QVERIFY2((finding).verdict == (expected),                                                      \
             qPrintable(QStringLiteral("%1: %2 (%3) [%4]")                                         \
                            .arg((finding).id, QString::fromLatin1(name((finding).verdict)),       \
                                 (finding).why, (finding).evidenceText())))

class TstReadinessRules : public testsupport::ServerTest
{
    Q_OBJECT

    readiness::AuditRequest m_request;

    QList<Finding> auditAs(redis::CommandSender &sender, const readiness::AuditRequest &request)
    {
        return readiness::ReadinessAudit::run(sender, request);
    }
    Finding rule(const QString &id, redis::CommandSender *sender = nullptr)
    {
        for (const Finding &f : auditAs(sender ? *sender : *m_c, m_request))
            if (f.id == id)
                return f;
        return Finding{id,
                       QStringLiteral("missing from the audit"),
                       Verdict::CouldNotCheck,
                       QStringLiteral("no finding with this id"),
                       {}};
    }
    bool config(const QByteArray &param, const QByteArray &value)
    {
        const auto r = m_c->call({"CONFIG", "SET", param, value});
        if (!r.ok())
            qWarning() << "CONFIG SET" << param << value << r.error().message.english;
        return r.ok();
    }
    // The key browser's scan of m_c, as facts for the receipt and stock rules.
    readiness::KeyspaceFacts scanFacts()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema{});
        QSignalSpy done(&scan, &browse::InventoryScan::finished);
        scan.start({});
        if (!done.wait(20000))
            return {};
        return readiness::KeyspaceFacts::of(scan.store(), QDateTime::currentMSecsSinceEpoch(),
                                            m_request.settings.retryWindowSeconds * 1000,
                                            scan.isComplete(), scan.lastError());
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
    }

    void everyRuleIsReportedOnceInOrder()
    {
        m_request.keyspace = readiness::KeyspaceFacts{};
        const QList<Finding> all = auditAs(*m_c, m_request);
        QCOMPARE(all.size(), readiness::rules().size());
        for (qsizetype i = 0; i < all.size(); ++i) {
            QCOMPARE(all[i].id, QString::fromLatin1(readiness::rules()[i].id));
            QVERIFY2(!all[i].why.isEmpty(), qPrintable(all[i].id));
        }
        // Without keyspace facts the receipt and stock rules are left out, not failed.
        m_request.keyspace.reset();
        QCOMPARE(auditAs(*m_c, m_request).size(), readiness::rules().size() - 3);
    }

    void evictionPolicy()
    {
        QVERIFY(config("maxmemory-policy", "noeviction"));
        VERIFY_VERDICT(rule("eviction-policy"), Verdict::Pass);
        QVERIFY(config("maxmemory-policy", "allkeys-lru"));
        Finding f = rule("eviction-policy");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("allkeys-lru") && f.why.contains("noeviction"), qPrintable(f.why));
        QCOMPARE(f.evidence.value(0).second, QStringLiteral("allkeys-lru"));
        QVERIFY(config("maxmemory-policy", "volatile-ttl"));
        f = rule("eviction-policy");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("TTL"), qPrintable(f.why));
        QVERIFY(config("maxmemory-policy", "noeviction"));
    }

    void persistence()
    {
        QVERIFY(config("appendonly", "no"));
        QVERIFY(config("save", ""));
        Finding f = rule("persistence");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("appendonly yes"), qPrintable(f.why));
        QVERIFY(config("save", "3600 1"));
        VERIFY_VERDICT(rule("persistence"), Verdict::Warn);
        QVERIFY(config("appendonly", "yes"));
        QVERIFY(config("appendfsync", "everysec"));
        VERIFY_VERDICT(rule("persistence"), Verdict::Pass);
        QVERIFY(config("appendfsync", "no"));
        f = rule("persistence");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("appendfsync everysec"), qPrintable(f.why));
        QVERIFY(config("appendonly", "no"));
        QVERIFY(config("save", ""));
    }

    void replication()
    {
        QVERIFY(config("min-replicas-to-write", "0"));
        Finding f = rule("replication");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("no replica"), qPrintable(f.why));
        QVERIFY(config("min-replicas-to-write", "1"));
        f = rule("replication");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("NOREPLICAS"), qPrintable(f.why));

        testsupport::StandaloneRedis replica;
        QVERIFY2(replica.startReplicaOf(m_redis), qPrintable(replica.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_c->call({"INFO", "replication"})->bytes().contains("connected_slaves:1"), 15000);
        VERIFY_VERDICT(rule("replication"), Verdict::Pass);
        QVERIFY(config("min-replicas-to-write", "0"));
        f = rule("replication");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("min-replicas-to-write 1"), qPrintable(f.why));
        // Audited on the replica, the rule says to audit the primary.
        auto onReplica = replica.connect();
        f = rule("replication", onReplica.get());
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("primary"), qPrintable(f.why));
    }

    void busyReplyThreshold()
    {
        m_request.settings.clientTimeoutMs = 5000;
        QVERIFY(config("busy-reply-threshold", "1000"));
        VERIFY_VERDICT(rule("busy-reply-threshold"), Verdict::Pass);
        QVERIFY(config("busy-reply-threshold", "10000"));
        const Finding f = rule("busy-reply-threshold");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("10000") && f.why.contains("5000"), qPrintable(f.why));
        QVERIFY(config("busy-reply-threshold", "5000"));
    }

    void libraryRelease()
    {
        VERIFY_VERDICT(rule("library-release"), Verdict::Pass);
        // The previous release is known, but older than the one the console ships.
        QVERIFY(
            m_c->call({"FUNCTION", "LOAD", "REPLACE", testsupport::previousReleaseSource()}).ok());
        Finding f = rule("library-release");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("1.0.0"), qPrintable(f.why));
        // One byte more than the shipped file: no release.
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                           testsupport::functionSource("inventory_lib_v1.lua") + "\n"})
                    .ok());
        f = rule("library-release");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("matches no release"), qPrintable(f.why));
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        f = rule("library-release");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("not loaded"), qPrintable(f.why));
        VERIFY_VERDICT(rule("deduct-writes"), Verdict::CouldNotCheck);
        QVERIFY(m_c->call({"FUNCTION", "LOAD", testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        VERIFY_VERDICT(rule("library-release"), Verdict::Pass);
    }

    void deductFunctionsMayWrite()
    {
        VERIFY_VERDICT(rule("deduct-writes"), Verdict::Pass);
        QVERIFY(m_c->call({"FUNCTION", "LOAD", NoWritesLibrary}).ok());
        const Finding f = rule("deduct-writes");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("broken_deduct") && f.why.contains("no-writes"), qPrintable(f.why));
        QVERIFY(m_c->call({"FUNCTION", "DELETE", "nowrites_test"}).ok());
        VERIFY_VERDICT(rule("deduct-writes"), Verdict::Pass);
        // One standalone server cannot drift.
        VERIFY_VERDICT(rule("library-drift"), Verdict::Pass);
    }

    void loadPermission()
    {
        // The default user may do anything, FUNCTION LOAD included.
        m_request.user = QStringLiteral("default");
        Finding f = rule("load-permission");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("release user"), qPrintable(f.why));
        // A caller who may not load.
        QVERIFY(m_c->call({"ACL", "SETUSER", "caller", "reset", "on", ">caller-pw", "~*", "+@all",
                           "-function|load", "-function|restore", "-function|delete",
                           "-function|flush"})
                    .ok());
        redis::ConnectionOptions asCaller = m_redis.options();
        asCaller.username = QStringLiteral("caller");
        asCaller.password = QStringLiteral("caller-pw");
        auto caller = m_redis.connect(asCaller);
        m_request.user = QStringLiteral("caller");
        VERIFY_VERDICT(rule("load-permission", caller.get()), Verdict::Pass);
        // A user who may not even ask (NOPERM on ACL DRYRUN, CONFIG, INFO, FUNCTION LIST):
        // every server rule could not check, with the permission to grant, and none passes.
        QVERIFY(testsupport::createSupportAndReleaseUsers(*m_c));
        auto support = m_redis.connect(testsupport::optionsAs(m_redis.options(), "support"));
        m_request.user = QStringLiteral("support");
        for (const Finding &g : auditAs(*support, m_request)) {
            VERIFY_VERDICT(g, Verdict::CouldNotCheck);
            QVERIFY2(g.why.contains("NOPERM") || g.why.contains("no deduct function"),
                     qPrintable(g.why));
        }
        f = rule("load-permission", support.get());
        QVERIFY2(f.why.contains("+acl|dryrun"), qPrintable(f.why));
        f = rule("eviction-policy", support.get());
        QVERIFY2(f.why.contains("+config|get"), qPrintable(f.why));
        m_request.user = QStringLiteral("default");
    }

    void receiptTtls()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        m_request.settings.retryWindowSeconds = 300;
        m_request.settings.receiptTtlSeconds = 604800;
        QVERIFY(m_c->call({"SET", "stock:{sku-1}:available", "10"}).ok());
        QVERIFY(m_c->call({"SET", "idem:{sku-1}:o-long", "10", "EX", "3600"}).ok());
        m_request.keyspace = scanFacts();
        VERIFY_VERDICT(rule("receipt-ttl"), Verdict::Pass);
        VERIFY_VERDICT(rule("receipts-without-ttl"), Verdict::Pass);
        // A receipt about to expire within the retry window.
        QVERIFY(m_c->call({"SET", "idem:{sku-1}:o-short", "9", "EX", "60"}).ok());
        m_request.keyspace = scanFacts();
        Finding f = rule("receipt-ttl");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("idem:{sku-1}:o-short"), qPrintable(f.why));
        // The console's own TTL shorter than the window.
        m_request.settings.receiptTtlSeconds = 100;
        f = rule("receipt-ttl");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("100 s"), qPrintable(f.why));
        m_request.settings.receiptTtlSeconds = 604800;
        // A receipt without a TTL.
        QVERIFY(m_c->call({"SET", "idem:{sku-1}:o-forever", "8"}).ok());
        m_request.keyspace = scanFacts();
        f = rule("receipts-without-ttl");
        VERIFY_VERDICT(f, Verdict::Warn);
        QVERIFY2(f.why.contains("idem:{sku-1}:o-forever"), qPrintable(f.why));
        // Before any scan: could not check, saying how to get one.
        m_request.keyspace = readiness::KeyspaceFacts{};
        f = rule("receipt-ttl");
        VERIFY_VERDICT(f, Verdict::CouldNotCheck);
        QVERIFY2(f.why.contains("scan"), qPrintable(f.why));
    }

    void stockValues()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{sku-1}:available", "10"}).ok());
        m_request.keyspace = scanFacts();
        VERIFY_VERDICT(rule("stock-values"), Verdict::Pass);
        QVERIFY(m_c->call({"SET", "stock:{sku-2}:available", "-3"}).ok());
        m_request.keyspace = scanFacts();
        Finding f = rule("stock-values");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("negative") && f.why.contains("stock:{sku-2}:available"),
                 qPrintable(f.why));
        QVERIFY(m_c->call({"SET", "stock:{sku-2}:available", "007"}).ok());
        m_request.keyspace = scanFacts();
        f = rule("stock-values");
        VERIFY_VERDICT(f, Verdict::Fail);
        QVERIFY2(f.why.contains("not a canonical integer") && !f.why.contains("negative ("),
                 qPrintable(f.why));
        m_request.keyspace.reset();
    }
};

QTEST_GUILESS_MAIN(TstReadinessRules)
#include "tst_readiness_rules.moc"
