// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using testsupport::CliOptions;
using testsupport::runCli;

// inventory-cli reconcile on a standalone server and on a 3-primary cluster, against a CSV
// ledger planted with every class: the raw lines, the JSON and the text say the same, the exit
// code says whether anything diverged or could not be checked, and nothing is written.
class TstCliReconcile : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    testsupport::RedisCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_ledger;

    static QByteArray secondsAgo(qint64 s)
    {
        const qint64 ms = QDateTime::currentMSecsSinceEpoch() - s * 1000;
        return QByteArray::number(ms / 1000) + ".000000";
    }

    // Every receipt, stock and release key of the plan, through any sender (a router on the
    // cluster sends each to its slot's owner).
    static QString plant(redis::CommandSender &r)
    {
        const QList<redis::Command> commands{
            {"SET", "stock:{sku-a}:available", "10"},
            {"SET", "stock:{sku-b}:available", "5"},
            {"SET", "stock:{sku-c}:available", "3"},
            {"HSET", "idem:{sku-a}:o-inline", "remaining", "8", "quantity", "2", "time",
             secondsAgo(3600)},
            {"SET", "idem:{sku-a}:o-v1", "7", "EX", "86400"},
            {"HSET", "idem:{sku-a}:o-failed", "remaining", "4", "quantity", "3", "time",
             secondsAgo(3600)},
            {"SET", "idem:{sku-b}:o-cancel", "4"},
            {"HSET", "idem:{sku-b}:o-absent", "remaining", "3", "quantity", "5", "time",
             secondsAgo(7200)},
            {"HSET", "idem:{sku-b}:o-young", "remaining", "2", "quantity", "1", "time",
             secondsAgo(60)},
            {"SET", "idem:{sku-b}:o-oldv1", "1"},
            {"HSET", "idem:{sku-b}:o-diff", "remaining", "1", "quantity", "4", "time",
             secondsAgo(3600)},
            {"HSET", "idem:{sku-b}:o-pending", "remaining", "1", "quantity", "1", "time",
             secondsAgo(3600)},
            {"SET", "rel:{sku-b}:o-rel", "1"},
            {"SET", "rel:{sku-b}:o-relc", "1"},
            {"HSET", "idem:{sku-c}:o-c1", "remaining", "3", "quantity", "2", "time",
             secondsAgo(3600)},
        };
        for (const redis::Command &c : commands)
            if (const auto r2 = r.call(c); !r2.ok())
                return r2.error().message.english;
        return {};
    }

    static QStringList sortedLines(const QByteArray &out)
    {
        QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        lines.sort();
        return lines;
    }

    static QStringList expectedRaw()
    {
        QStringList l{"o-inline:sku-a:2:in_line",
                      "o-v1:sku-a:1:in_line",
                      "o-failed:sku-a:3:release_candidate",
                      "o-cancel:sku-b:1:release_candidate",
                      "o-absent:sku-b:5:release_candidate",
                      "o-diff:sku-b:4:quantity_differs",
                      "o-rel:sku-b:2:released",
                      "o-relc:sku-b:1:released",
                      "o-missing:sku-a:6:missing_receipt",
                      "o-c1:sku-c:2:in_line"};
        l.sort();
        return l;
    }

    QString standaloneUrl() const
    {
        return QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
    }
    QString clusterUrl() const
    {
        return QStringLiteral("redis://127.0.0.1:%1").arg(m_cluster.nodes().first().port);
    }

    QString writeLedger(const QString &name, const QByteArray &text)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        auto client = m_redis.connect();
        QCOMPARE(plant(*client), QString());
        auto router = m_cluster.router();
        QCOMPARE(plant(*router), QString());
        // Columns in another order, an ignored one; every class planted (see plant()).
        m_ledger =
            writeLedger(QStringLiteral("ledger.csv"), "state,order_id,note,sku,quantity\n"
                                                      "committed,o-inline,,sku-a,2\n"
                                                      "committed,o-v1,,sku-a,1\n"
                                                      "failed,o-failed,,sku-a,3\n"
                                                      "cancelled,o-cancel,,sku-b,1\n"
                                                      "committed,o-diff,,sku-b,3\n"
                                                      "pending,o-pending,,sku-b,1\n"
                                                      "failed,o-rel,,sku-b,2\n"
                                                      "committed,o-relc,,sku-b,1\n"
                                                      "committed,o-missing,\"no receipt\",sku-a,6\n"
                                                      "failed,o-gone,,sku-a,1\n"
                                                      "committed,o-c1,,sku-c,2\n");
        QVERIFY(!m_ledger.isEmpty());
    }

    void rawLinesOnBothTopologies_data()
    {
        QTest::addColumn<bool>("cluster");
        QTest::newRow("standalone") << false;
        QTest::newRow("cluster") << true;
    }
    void rawLinesOnBothTopologies()
    {
        QFETCH(bool, cluster);
        auto admin = m_redis.connect();
        const auto before = testsupport::snapshot(*admin, {});
        const auto run = runCli({"reconcile", "--url", cluster ? clusterUrl() : standaloneUrl(),
                                 "--ledger", m_ledger, "--raw"});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(sortedLines(run.out), expectedRaw());
        QVERIFY2(run.err.contains("11 ledger rows read"), run.err.constData());
        if (!cluster)
            QCOMPARE(testsupport::snapshotDifference(before, testsupport::snapshot(*admin, {})),
                     QString());
    }

    void jsonCarriesTheSentences()
    {
        const auto run =
            runCli({"reconcile", "--url", standaloneUrl(), "--ledger", m_ledger, "--json"});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        const QJsonArray findings = doc.value("findings").toArray();
        QCOMPARE(findings.size(), 10);
        QHash<QString, QJsonObject> byOrder;
        for (const QJsonValue &v : findings)
            byOrder.insert(v["order"].toString(), v.toObject());
        const QString missing = byOrder["o-missing"]["sentence"].toString();
        QVERIFY2(missing.contains("a retry would deduct again"), qPrintable(missing));
        QVERIFY2(missing.contains("live 7 days (the profile's receipt TTL)"), qPrintable(missing));
        QVERIFY2(missing.contains("the eviction policy on the server is noeviction"),
                 qPrintable(missing));
        QVERIFY(byOrder["o-absent"]["sentence"].toString().contains("grace period 15 min"));
        QVERIFY(byOrder["o-diff"]["sentence"].toString().contains("committed 3"));
        QCOMPARE(byOrder["o-rel"]["divergent"].toBool(), false);
        QCOMPARE(byOrder["o-relc"]["divergent"].toBool(), true);
        const QJsonObject summary = doc.value("summary").toObject();
        QCOMPARE(summary["divergent"].toInt(), 6);
        QCOMPARE(summary["receipts_too_recent"].toInt(), 1);  // o-young
        QCOMPARE(summary["receipts_age_unknown"].toInt(), 1); // o-oldv1
        QCOMPARE(summary["pending"].toInt(), 1);
        QCOMPARE(summary["rows_not_deducted"].toInt(), 1); // o-gone
        QCOMPARE(summary["complete"].toBool(), true);
        bool sawSkuB = false;
        for (const QJsonValue &v : doc.value("skus").toArray())
            if (v["sku"] == "sku-b") {
                sawSkuB = true;
                QCOMPARE(v["stock"].toInt(), 5);
                QCOMPARE(v["committed_units"].toInt(), 4); // o-diff 3 + o-relc 1
                QCOMPARE(v["balanced"].toBool(), false);
            }
        QVERIFY(sawSkuB);
    }

    void textGroupsFindingsAndTheGraceMayChange()
    {
        const auto run = runCli({"reconcile", "--url", standaloneUrl(), "--ledger", m_ledger});
        QCOMPARE(run.exitCode, 1);
        const QString out = QString::fromUtf8(run.out);
        for (const char *want :
             {"Missing receipts (1):", "Quantities that differ (1):", "Release candidates (3):",
              "Released (2):", "In line: 3 committed orders", "older than 15 min",
              "Verdict: 6 divergences"})
            QVERIFY2(out.contains(QLatin1String(want)),
                     qPrintable(want + QStringLiteral("\n") + out));
        // With no grace at all, the young receipt is a candidate too.
        const auto none = runCli(
            {"reconcile", "--url", standaloneUrl(), "--ledger", m_ledger, "--raw", "--grace", "0"});
        QVERIFY(none.out.contains("o-young:sku-b:1:release_candidate"));
    }

    void inLineWithinAnSkuFilterExitsZero()
    {
        const auto run =
            runCli({"reconcile", "--url", clusterUrl(), "--ledger", m_ledger, "--sku", "sku-c"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("Verdict: everything compared is in line."), run.out.constData());
        QVERIFY(run.out.contains("10 ledger rows out of scope"));
    }

    // A JSON-lines ledger with a time column and a window: rows and receipts outside it are
    // left out, counted; one inside it without a receipt is not explained by expiry.
    void aWindowOverAJsonLinesLedger()
    {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QString path =
            writeLedger(QStringLiteral("window.jsonl"),
                        QStringLiteral("{\"id\":\"o-missing\",\"sku\":\"sku-a\",\"quantity\":6,"
                                       "\"state\":\"committed\",\"at\":%1}\n"
                                       "{\"id\":\"o-new\",\"sku\":\"sku-a\",\"quantity\":1,"
                                       "\"state\":\"committed\",\"at\":%2}\n")
                            .arg(now - 10 * 86400)
                            .arg(now - 3600)
                            .toUtf8());
        const auto run = runCli({"reconcile", "--url", standaloneUrl(), "--ledger", path,
                                 "--ledger-columns", "order_id=id,time=at", "--sku", "sku-a",
                                 "--since", QString::number(now - 2 * 86400), "--json"});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        QStringList lines;
        for (const QJsonValue &v : doc["findings"].toArray()) {
            lines << v["order"].toString() + ":" + v["class"].toString();
            if (v["order"] == "o-new")
                QVERIFY2(v["sentence"].toString().contains("within the receipt TTL: expiry does "
                                                           "not explain it"),
                         qPrintable(v["sentence"].toString()));
        }
        lines.sort();
        // o-inline and o-failed were written an hour ago, in the window, and this ledger has
        // no row for them; o-v1 records no time.
        QCOMPARE(lines, (QStringList{"o-failed:release_candidate", "o-inline:release_candidate",
                                     "o-new:missing_receipt"}));
        QCOMPARE(doc["summary"]["rows_out_of_scope"].toInt(), 1);
        QCOMPARE(doc["summary"]["receipts_age_unknown"].toInt(), 1);
    }

    void couldNotCheckExitsThree()
    {
        const QString bad = writeLedger(QStringLiteral("bad.csv"), "order_id,sku,quantity,state\n"
                                                                   "o-missing,sku-a,6,committed\n"
                                                                   "o-x,sku-a,lots,committed\n");
        const auto run = runCli({"reconcile", "--url", standaloneUrl(), "--ledger", bad});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("could not check: could not read the ledger " + bad.toUtf8()
                                  + ": line 3: the quantity \"lots\""),
                 run.err.constData());
        QVERIFY(run.out.contains("Verdict: could not check."));
        QVERIFY(!run.out.contains("Missing receipts")); // the row read before is not a verdict

        const auto missing =
            runCli({"reconcile", "--url", standaloneUrl(), "--ledger", m_dir.filePath("none.csv")});
        QCOMPARE(missing.exitCode, 3);
        const auto down =
            runCli({"reconcile", "--url", "redis://127.0.0.1:1", "--ledger", m_ledger});
        QCOMPARE(down.exitCode, 3);
        const auto usage = runCli({"reconcile", "--url", standaloneUrl(), "--ledger", m_ledger,
                                   "--since", "2026-12-01T00:00:00Z"});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY(usage.err.contains("needs the ledger's time column"));
    }

    void anUnreadableEvictionPolicyIsSaidSo()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "noinfo", "on", ">noinfo-pw", "~*", "&*", "+@all",
                            "-info"})
                    .ok());
        CliOptions o;
        o.input = "noinfo-pw\n";
        const auto run = runCli({"reconcile", "--url",
                                 QStringLiteral("redis://noinfo@127.0.0.1:%1").arg(m_redis.port()),
                                 "--password-stdin", "--ledger", m_ledger, "--json"},
                                o);
        QCOMPARE(run.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        for (const QJsonValue &v : doc.value("findings").toArray())
            if (v["class"] == "missing_receipt")
                QVERIFY2(v["sentence"].toString().contains("could not read the eviction policy"),
                         qPrintable(v["sentence"].toString()));
        QVERIFY(doc["summary"]["receipt_policy"].toString().contains(
            "could not read the eviction policy"));
    }

    // A release key that cannot be read makes the whole run unchecked: exit 3, naming it.
    void anUnreadableReleaseKeyIsCouldNotCheck()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "noexists", "on", ">noexists-pw", "~*", "&*", "+@all",
                            "-exists"})
                    .ok());
        CliOptions o;
        o.input = "noexists-pw\n";
        const auto run =
            runCli({"reconcile", "--url",
                    QStringLiteral("redis://noexists@127.0.0.1:%1").arg(m_redis.port()),
                    "--password-stdin", "--ledger", m_ledger},
                   o);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("could not check: could not read the release keys: EXISTS rel:{"),
                 run.err.constData());
        QVERIFY(run.err.contains("NOPERM"));
        QVERIFY(run.out.contains("Verdict: could not check."));
    }
};

QTEST_GUILESS_MAIN(TstCliReconcile)
#include "tst_cli_reconcile.moc"
