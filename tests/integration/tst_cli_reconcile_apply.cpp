// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli reconcile --apply (issue 32) against a real redis-server and a CSV ledger: the
// dry run writes nothing and lists the exact FCALLs, --apply without --confirm (or with another
// name) is refused before anything is written, --apply releases exactly the release candidates
// (never a missing receipt), each audited with its finding, and a second --apply finds them
// released and sends nothing.
#include "AuditTrail.h"
#include "CliRunner.h"
#include "ServerTest.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using testsupport::render;

class TstCliReconcileApply : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_audit, m_ledger;

    QString url() const { return QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()); }
    QString name() const { return QStringLiteral("127.0.0.1:%1").arg(m_redis.port()); }
    testsupport::CliRun reconcile(const QStringList &extra)
    {
        return testsupport::runCli(
            QStringList{"reconcile", "--url", url(), "--environment", "test", "--ledger", m_ledger}
            + extra);
    }
    QString get(const QByteArray &key) { return render(m_c->call({"GET", key})); }
    // What a write would change: the number of keys and the stocks.
    QString snapshot()
    {
        return render(m_c->call({"DBSIZE"})) + " " + get("stock:{a}:available") + " "
               + get("stock:{b}:available");
    }
    void deduct(const char *sku, const char *order, const char *quantity)
    {
        const QByteArray s = sku;
        QCOMPARE(
            render(m_c->call({"FCALL", "inventory_deduct_v2", "2", "stock:{" + s + "}:available",
                              "idem:{" + s + "}:" + order, quantity, "600"}))
                .left(3),
            QStringLiteral("{1,"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
        m_audit = m_dir.filePath("audit.jsonl");
        m_ledger = m_dir.filePath("ledger.csv");
        QFile f(m_ledger);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("order_id,sku,quantity,state\n"
                "o-ok,a,2,committed\n"
                "o-failed,a,3,failed\n"
                "o-cancel,b,1,cancelled\n"
                "o-missing,b,4,committed\n");
    }

    // Stock a 10, b 5; o-ok (2) and o-failed (3) deducted on a, o-cancel (1) on b; o-missing
    // never reached Redis.
    void init()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{a}:available", "10"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{b}:available", "5"}).ok());
        deduct("a", "o-ok", "2");
        deduct("a", "o-failed", "3");
        deduct("b", "o-cancel", "1");
        QFile::remove(m_audit);
    }

    void dryRunWritesNothingAndShowsTheCalls()
    {
        const QString before = snapshot();
        const auto r = reconcile({});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("Dry run, nothing was written"), r.out.constData());
        QVERIFY2(r.out.contains("  FCALL inventory_release_v1 3 'stock:{a}:available' "
                                "'idem:{a}:o-failed' 'rel:{a}:o-failed' 3 604800\n"),
                 r.out.constData());
        QVERIFY(r.out.contains("  FCALL inventory_release_v1 3 'stock:{b}:available' "
                               "'idem:{b}:o-cancel' 'rel:{b}:o-cancel' 1 604800\n"));
        QCOMPARE(r.out.count("FCALL inventory_release_v1"), 2); // never the missing receipt
        QCOMPARE(snapshot(), before);
        QVERIFY(!QFile::exists(m_audit));

        const auto json = reconcile({"--json"});
        const QJsonArray releases =
            QJsonDocument::fromJson(json.out).object().value("releases").toArray();
        QCOMPARE(releases.size(), 2);
        QCOMPARE(releases.at(0)["sent"].toString(), QStringLiteral("dry run"));
        QCOMPARE(snapshot(), before);
    }

    void applyNeedsTheConnectionsName()
    {
        const QString before = snapshot();
        const auto bare = reconcile({"--apply", "--audit-log", m_audit});
        QCOMPARE(bare.exitCode, 2);
        QVERIFY2(bare.err.contains("--apply needs --confirm NAME"), bare.err.constData());
        const auto wrong = reconcile({"--apply", "--confirm", "prod-eu", "--audit-log", m_audit});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("--confirm: that is not this connection's name; nothing was "
                                    "written"),
                 wrong.err.constData());
        const auto stray = reconcile({"--confirm", name()});
        QCOMPARE(stray.exitCode, 2);
        QVERIFY(stray.err.contains("--confirm is for --apply"));
        QCOMPARE(snapshot(), before);
        QVERIFY(!QFile::exists(m_audit));
    }

    void applyReleasesExactlyTheCandidatesOnce()
    {
        const auto r = reconcile({"--apply", "--confirm", name(), "--audit-log", m_audit});
        QCOMPARE(r.exitCode, 1); // o-missing remains: --apply never repairs it
        QVERIFY2(r.out.contains("order o-failed, SKU a, 3: released: "), r.out.constData());
        QVERIFY(r.out.contains("order o-cancel, SKU b, 1: released: "));
        QCOMPARE(get("stock:{a}:available"), QStringLiteral("\"8\"")); // 10 - 2 - 3 + 3
        QCOMPARE(get("stock:{b}:available"), QStringLiteral("\"5\"")); // 5 - 1 + 1
        QCOMPARE(render(m_c->call({"EXISTS", "rel:{a}:o-failed"})), QStringLiteral("1"));
        QCOMPARE(render(m_c->call({"EXISTS", "rel:{b}:o-cancel"})), QStringLiteral("1"));
        QCOMPARE(render(m_c->call({"EXISTS", "rel:{a}:o-ok"})), QStringLiteral("0"));
        QCOMPARE(render(m_c->call({"EXISTS", "rel:{b}:o-missing"})), QStringLiteral("0"));

        const auto trail = testsupport::readAuditTrail(m_audit);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.writes.size(), 2);
        for (const inventory::AuditRecord &w : trail.writes) {
            QCOMPARE(w.action, QStringLiteral("release"));
            QVERIFY2(w.detail.contains("reconcile --apply, finding release_candidate against "
                                       "ledger "
                                       + m_ledger),
                     qPrintable(w.detail));
            QVERIFY(w.result.startsWith("released"));
        }
        QStringList orders; // each record carries its own finding
        for (const inventory::AuditRecord &w : trail.writes) {
            orders << QString::fromUtf8(w.command.at(4));
            QVERIFY(w.detail.contains(w.command.at(4).endsWith("o-failed")
                                          ? "Order o-failed is failed in the ledger"
                                          : "Order o-cancel is cancelled in the ledger"));
        }
        orders.sort();
        QCOMPARE(orders, (QStringList{"idem:{a}:o-failed", "idem:{b}:o-cancel"}));

        // Again: the reconcile finds both released, so there is nothing to send.
        const QString after = snapshot();
        const auto again =
            reconcile({"--apply", "--confirm", name(), "--audit-log", m_audit, "--raw"});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.out.contains("o-failed:a:3:released\n"));
        QVERIFY(again.out.contains("o-cancel:b:1:released\n"));
        QVERIFY(!again.err.contains("FCALL"));
        QCOMPARE(snapshot(), after);
        QCOMPARE(testsupport::readAuditTrail(m_audit).writes.size(), 2);
    }

    // A user the function refuses (NOPERM from acl_check_cmd, nothing written): the run stops
    // there and says the other release was not sent; the candidates remain (exit 1).
    void aRefusalStopsTheRestAndWritesNothing()
    {
        QVERIFY(m_c->call({"ACL", "SETUSER", "noincr", "on", ">noincr-pw", "~*", "&*", "+@all",
                           "-incrby"})
                    .ok());
        const QString before = snapshot();
        testsupport::CliOptions o;
        o.input = "noincr-pw\n";
        const auto r =
            testsupport::runCli({"reconcile", "--url",
                                 QStringLiteral("redis://noincr@127.0.0.1:%1").arg(m_redis.port()),
                                 "--password-stdin", "--environment", "test", "--ledger", m_ledger,
                                 "--apply", "--confirm", name(), "--audit-log", m_audit},
                                o);
        QCOMPARE(r.exitCode, 1);
        // The candidates come in the scan's order: whichever went first was refused.
        QCOMPARE(r.out.count(": rejected: Not released: the server refused the call before any "
                             "write (NOPERM"),
                 1);
        QCOMPARE(r.out.count(": not sent: the run stopped at order o-"), 1);
        QCOMPARE(snapshot(), before);
        QCOMPARE(testsupport::readAuditTrail(m_audit).writes.size(), 1); // the one attempt
    }

    // The server holds the write (CLIENT PAUSE WRITE; the reads go on): no reply in time, the
    // outcome is unknown and never resent, the release key read on another connection proves
    // nothing, the rest is not sent, and the run exits 3.
    void aLostReplyIsUnknownAndNeverResent()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "5000", "WRITE"}).ok());
        const auto r = reconcile({"--apply", "--confirm", name(), "--audit-log", m_audit,
                                  "--timeout-ms", "600", "--json"});
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        QCOMPARE(r.exitCode, 3);
        const QJsonArray releases =
            QJsonDocument::fromJson(r.out).object().value("releases").toArray();
        QCOMPARE(releases.size(), 2);
        const QJsonObject first = releases.at(0)["result"].toObject();
        QCOMPARE(first["outcome"].toString(), QStringLiteral("unknown"));
        QCOMPARE(first["settled"]["applied"].toBool(), false);
        QVERIFY(first["settled"]["message"].toString().startsWith("not proven: the release key "));
        QVERIFY(releases.at(1)["sent"].toString().startsWith("not sent: the run stopped at "));
        // One FCALL left the process, its attempt and its unknown outcome recorded.
        const auto trail = testsupport::readAuditTrail(m_audit);
        QCOMPARE(trail.raw.size(), 2);
        QVERIFY(trail.writes.last().outcomeUnknown);
        QCOMPARE(get("stock:{a}:available"), QStringLiteral("\"5\""));
        QCOMPARE(get("stock:{b}:available"), QStringLiteral("\"4\""));
    }

    // Within one SKU every divergence is a candidate: once released, exit 0; --json carries
    // each release's outcome.
    void everyCandidateReleasedExitsZero()
    {
        const auto r = reconcile(
            {"--sku", "a", "--apply", "--confirm", name(), "--audit-log", m_audit, "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray releases =
            QJsonDocument::fromJson(r.out).object().value("releases").toArray();
        QCOMPARE(releases.size(), 1);
        QCOMPARE(releases.at(0)["result"]["outcome"].toString(), QStringLiteral("released"));
        QCOMPARE(releases.at(0)["command"].toString(),
                 QStringLiteral("FCALL inventory_release_v1 3 'stock:{a}:available' "
                                "'idem:{a}:o-failed' 'rel:{a}:o-failed' 3 604800"));
        QCOMPARE(get("stock:{a}:available"), QStringLiteral("\"8\""));
    }
};

QTEST_GUILESS_MAIN(TstCliReconcileApply)
#include "tst_cli_reconcile_apply.moc"
