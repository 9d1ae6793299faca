// SPDX-License-Identifier: GPL-3.0-or-later
// What "safe to retry" and "no receipt" rest on, against real servers: the eviction policy,
// persistence and start time of the server holding the receipt (issue 28), and reads that
// are refused (issue 29, D2) reported as "could not read" with a non-zero exit, never a value.
#include "CliRunner.h"
#include "tst_browse_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using browsetest::seed;
using browsetest::setString;

namespace {

constexpr qint64 Day = 24LL * 3600 * 1000;

testsupport::CliRun cli(const QStringList &args, const QByteArray &password = {})
{
    testsupport::CliOptions o;
    if (!password.isEmpty())
        o.input = password + '\n';
    return testsupport::runCli(args, o);
}

QJsonObject json(const testsupport::CliRun &r)
{
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject firstSafety(const QJsonObject &order)
{
    return order["receipts"].toArray().first().toObject()["retry_safety"].toObject();
}

QString urlOf(const testsupport::StandaloneRedis &server, const QString &user = {})
{
    const QString userPart = user.isEmpty() ? QString() : user + QLatin1Char('@');
    return QStringLiteral("redis://") + userPart
           + QStringLiteral("127.0.0.1:%1").arg(server.port());
}

} // namespace

class TstRetryEvidence : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
    }

    // A restart without persistence loses receipts: the lookup after it must not read the
    // absence as "never ran", and must name the restart it read off the server.
    void restartBetweenDeductionAndLookup()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        QTemporaryDir dir;
        const QString audit = dir.filePath("audit.jsonl");
        auto admin = redis.connect();
        QCOMPARE(seed(*admin, {setString("stock:{a}:available", "9")}), QString());
        QVERIFY(admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        const auto deducted = cli({"deduct", "--url", urlOf(redis), "--audit-log", audit, "--sku",
                                   "a", "--order", "4242", "--quantity", "1", "--json"});
        QVERIFY2(deducted.exitCode == 0, deducted.err);
        auto before = cli({"order", "4242", "--url", urlOf(redis), "--json"});
        QVERIFY2(before.exitCode == 0, before.err);
        const QJsonObject safety = firstSafety(json(before));
        QCOMPARE(safety["verdict"].toString(), "probably_safe");
        const QString runIdBefore = safety["server"].toObject()["run_id"].toString();
        QCOMPARE(runIdBefore.size(), 40);

        QVERIFY(redis.restart());
        auto after = cli({"order", "4242", "--url", urlOf(redis), "--audit-log", audit, "--json"});
        QCOMPARE(after.exitCode, 0);
        const QJsonObject o = json(after);
        QCOMPARE(o["receipts"].toArray().size(), 0);
        const QString sentence = o["sentence"].toString();
        QVERIFY2(sentence.contains("That does not prove it never ran: a receipt also disappears "
                                   "when it expires, is evicted, or is lost in a restart"),
                 qPrintable(sentence));
        QVERIFY2(sentence.contains(QStringLiteral("The server on port %1 (run_id %2) started ")
                                       .arg(redis.port())
                                       .arg(o["servers"][0]["run_id"].toString().left(8))),
                 qPrintable(sentence));
        QVERIFY2(sentence.contains("(AOF is off: only those in its last snapshot)"),
                 qPrintable(sentence));
        QVERIFY(!sentence.contains("did not happen"));
        const QJsonObject server = o["servers"].toArray().first().toObject();
        QVERIFY(server["run_id"].toString() != runIdBefore);
        QVERIFY(server["uptime_s"].toDouble() >= 0);

        // The console's own record narrows it: deducted on a run_id that no longer answers.
        const QString note = o["audit_note"].toString();
        QVERIFY2(note.contains(QStringLiteral("deducted this order at ")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("on a server with run_id %1, and no server answers "
                                              "with that run_id now: it restarted or failed over")
                                   .arg(runIdBefore.left(8))),
                 qPrintable(note));
        QVERIFY2(note.contains("The order did happen: a retry deducts it again."),
                 qPrintable(note));
        // An order this console never sent is not claimed either way.
        const auto other =
            cli({"order", "5555", "--url", urlOf(redis), "--audit-log", audit, "--json"});
        QVERIFY2(json(other)["audit_note"].toString().contains("has no deduction of this order"),
                 other.out);

        auto text = cli({"order", "4242", "--url", urlOf(redis)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("A retry now deducts; if the order ran before, that is a "
                                   "second deduction"),
                 text.out);
    }

    // "yes" only when nothing can remove the receipt before it expires.
    void verdictFollowsEvictionAndPersistence_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("reason");
        QTest::newRow("noeviction, AOF") << QStringList{"--appendonly", "yes"} << "safe"
                                         << "no maxmemory is set, so nothing is evicted";
        QTest::newRow("allkeys-lru")
            << QStringList{"--appendonly",       "yes",        "--maxmemory", "64mb",
                           "--maxmemory-policy", "allkeys-lru"}
            << "probably_safe"
            << "maxmemory-policy allkeys-lru evicts any key when memory is full";
        QTest::newRow("volatile-lru")
            << QStringList{"--appendonly",       "yes",         "--maxmemory", "64mb",
                           "--maxmemory-policy", "volatile-lru"}
            << "probably_safe"
            << "maxmemory-policy volatile-lru evicts keys with a TTL, receipts included,";
        QTest::newRow("no AOF") << QStringList{} << "probably_safe"
                                << "AOF is off: a restart or failover before the next snapshot";
    }
    void verdictFollowsEvictionAndPersistence()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, verdict);
        QFETCH(QString, reason);
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(args), qPrintable(redis.errorString()));
        QCOMPARE(seed(*redis.connect(), {setString("idem:{a}:1", "8", Day)}), QString());
        const auto r = cli({"order", "1", "--url", urlOf(redis), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject safety = firstSafety(json(r));
        QCOMPARE(safety["verdict"].toString(), verdict);
        const QString reasons = safety["reasons"].toVariant().toStringList().join(" | ");
        QVERIFY2(reasons.contains(reason), qPrintable(reasons));
        const QString retry = json(r)["receipts"][0]["retry"].toString();
        QVERIFY2(retry.startsWith(verdict == "safe" ? "Safe to retry: yes, until "
                                                    : "Safe to retry: probably, until "),
                 qPrintable(retry));
    }

    // D2: a read that is refused is "could not read", with a non-zero exit; never "no
    // receipt", "without TTL" or a retry verdict built on nothing.
    void refusedReadsAreNotFacts_data()
    {
        QTest::addColumn<QByteArray>("denied");
        QTest::addColumn<QString>("orderError");
        QTest::newRow("PTTL") << QByteArray("-pttl") << "could not read 1 key";
        QTest::newRow("GET") << QByteArray("-get") << "could not read 1 key";
        QTest::newRow("INFO") << QByteArray("-info") << "could not read what retry safety rests on";
    }
    void refusedReadsAreNotFacts()
    {
        QFETCH(QByteArray, denied);
        QFETCH(QString, orderError);
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        auto admin = redis.connect();
        QCOMPARE(seed(*admin,
                      {setString("stock:{a}:available", "9"), setString("idem:{a}:77", "8", Day)}),
                 QString());
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "reader", "reset", "on", ">reader-pw", "~*", "+@all",
                            denied})
                    .ok());
        const QString url = urlOf(redis, QStringLiteral("reader"));
        const auto order = cli({"order", "77", "--url", url, "--password-stdin"}, "reader-pw");
        QCOMPARE(order.exitCode, 1);
        QVERIFY2(order.err.contains(orderError.toUtf8()), order.err);
        QVERIFY2(!order.out.contains("A retry now deducts")
                     && !order.out.contains("Safe to retry: "
                                            "yes"),
                 order.out);
        if (denied == "-info") {
            QVERIFY2(order.out.contains("Safe to retry: not proven. "), order.out);
            return;
        }
        QVERIFY2(order.out.contains("Not proven: the search for order 77 is incomplete"),
                 order.out);
        QVERIFY2(order.out.contains("NOPERM"), order.out);
        const auto csv = cli({"keys", "--url", url, "--password-stdin", "--csv"}, "reader-pw");
        QCOMPARE(csv.exitCode, 1);
        QVERIFY2(csv.err.contains("could not read 2 keys"), csv.err); // the stock key too
        QVERIFY2(!csv.out.contains("idem:{a}:77"), csv.out);
    }
};

QTEST_GUILESS_MAIN(TstRetryEvidence)
#include "tst_retry_evidence.moc"
