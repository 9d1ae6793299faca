// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli keys and order, run as a process against a real redis-server: output formats,
// exact bytes in CSV and JSON, filters, and exit codes.
#include "CliRunner.h"
#include "tst_browse_support.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using browsetest::seed;
using browsetest::setString;

namespace {

struct Run
{
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList &args)
{
    const testsupport::CliRun r = testsupport::runCli(args);
    return Run{r.exitCode, r.out, r.err};
}

constexpr qint64 Day = 24LL * 3600 * 1000;

} // namespace

class TstCliKeys : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    QString m_url;
    const QByteArray m_bin{"b\x00\xff", 3};

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        auto c = m_redis.connect();
        QList<redis::Command> s;
        for (int i : {1, 2, 10}) {
            const QByteArray sku = "sku-" + QByteArray::number(i);
            s << setString("stock:{" + sku + "}:available", QByteArray::number(100 + i));
            s << setString("idem:{" + sku + "}:9001", QByteArray::number(99 + i), 3 * Day);
        }
        s << setString("stock:{neg}:available", "-4") << setString("idem:{gone}:9001", "7", 2 * Day)
          << setString("stock:{" + m_bin + "}:available", "5")
          << setString("idem:{sku-1}:90011", "3", Day);
        QCOMPARE(seed(*c, s), QString());
    }

    void textTableInNaturalOrder()
    {
        const Run r = cli({"keys", "--url", m_url});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 6);
        QVERIFY(lines[0].startsWith("SKU"));
        QVERIFY(lines[0].contains("Soonest receipt expiry"));
        QStringList skus;
        for (const QByteArray &l : lines.mid(1))
            skus << QString::fromUtf8(l.left(l.indexOf(' ')));
        QCOMPARE(skus, (QStringList{"b\\x00\\xff", "gone", "neg", "sku-1", "sku-2", "sku-10"}));
    }

    void summaryCountsAnomalies()
    {
        Run r = cli({"keys", "--url", m_url, "--summary"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("receipts                              5\n"), r.out);
        QVERIFY(r.out.contains("stock negative                      1\n"));
        QVERIFY(r.out.contains("receipt, stock key missing          1\n"));
        QVERIFY(r.out.contains("elapsed"));
        r = cli({"keys", "--url", m_url, "--summary", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["skus"].toInt(), 6);
        QCOMPARE(o["receipts"].toInt(), 5);
        QCOMPARE(o["anomalies"].toObject()["stock_negative"].toInt(), 1);
        QCOMPARE(o["anomalies"].toObject()["receipt_stock_missing"].toInt(), 1);
        QCOMPARE(o["complete"].toBool(), true);
    }

    void csvAndJsonCarryExactBytes()
    {
        Run r = cli({"keys", "--url", m_url, "--csv"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("sku,stock,stock_ttl_ms,receipts,soonest_receipt_expiry_utc,"
                                 "anomalies\r\n"));
        QVERIFY(r.out.contains("\r\n" + m_bin + ",5,-1,0,,\r\n"));
        r = cli({"keys", "--url", m_url, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray skus = o["skus"].toArray();
        QCOMPARE(skus.size(), 6);
        QCOMPARE(skus[0].toObject()["sku"].toObject()["base64"].toString(),
                 QString::fromLatin1(m_bin.toBase64()));
        QCOMPARE(o["summary"].toObject()["receipts"].toInt(), 5);
    }

    void skuGlobFilters()
    {
        const Run r = cli({"keys", "--url", m_url, "--sku", "sku-1*", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonArray skus = QJsonDocument::fromJson(r.out).object()["skus"].toArray();
        QCOMPARE(skus.size(), 2);
        QCOMPARE(skus[0].toObject()["sku"].toString(), "sku-1");
        QCOMPARE(skus[0].toObject()["receipts"].toInt(), 2);
        QCOMPARE(skus[1].toObject()["sku"].toString(), "sku-10");
    }

    void orderLookup()
    {
        Run r = cli({"order", "9001", "--url", m_url});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("Order 9001: 4 receipts (searched all 10 keys in"), r.out);
        QVERIFY2(r.out.contains("\nSKU sku-2  idem:{sku-2}:9001\n  Deducted (this receipt does not "
                                "record how many units). Stock left right after this order: "
                                "101.\n  Safe to retry: probably, until "),
                 r.out);
        // The test's server has no AOF: a restart would lose the receipt, so "probably".
        QVERIFY2(r.out.contains("(in 2 d 23 h), unless the receipt is removed sooner: AOF is off: "
                                "a restart or failover before the next snapshot loses it ("),
                 r.out);
        QVERIFY(r.out.contains("The stock key stock:{gone}:available does not exist now"));
        QVERIFY(!r.out.contains("90011"));
        r = cli({"order", "--url", m_url, "9001", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["receipts"].toArray().size(), 4);
        const QJsonObject first = o["receipts"].toArray()[0].toObject();
        QCOMPARE(first["sku"].toString(), "gone");
        QCOMPARE(first["remaining"].toInt(), 7);
        QVERIFY(first["ttl_ms"].toDouble() > Day);
        QVERIFY(first["sentence"].toString().contains("Stock left right after this order: 7."));
        QVERIFY(first["retry"].toString().startsWith("Safe to retry: probably, until "));
        const QJsonObject safety = first["retry_safety"].toObject();
        QCOMPARE(safety["verdict"].toString(), "probably_safe");
        QVERIFY(safety["until_ms"].toDouble() > QDateTime::currentMSecsSinceEpoch() + Day);
        QVERIFY(safety["reasons"].toArray()[0].toString().startsWith("AOF is off"));
        QCOMPARE(safety["server"].toObject()["aof_enabled"].toBool(true), false);
        QCOMPARE(safety["server"].toObject()["tcp_port"].toInt(), int(m_redis.port()));
        QCOMPARE(first["expiring_soon"].toBool(), false);
        r = cli({"order", "nope", "--url", m_url});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("No receipt for order nope in any SKU"));
    }

    // D1: a node with cluster mode on and no slots (a cluster not formed yet) has no primary
    // to scan: keys, order and audit return at once, incomplete, saying why (they hung).
    void clusterWithoutAPrimaryReturns()
    {
        testsupport::StandaloneRedis node;
        QVERIFY2(node.start({"--cluster-enabled", "yes"}), qPrintable(node.errorString()));
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(node.port());
        for (const QStringList &args :
             {QStringList{"keys", "--url", url}, QStringList{"order", "9001", "--url", url},
              QStringList{"audit", "--url", url}}) {
            testsupport::CliOptions o;
            o.timeoutMs = 30000;
            const testsupport::CliRun r = testsupport::runCli(args, o);
            QVERIFY2(r.failure.isEmpty(), qPrintable(args.join(' ') + ": " + r.failure));
            QVERIFY2(r.exitCode != 0, qPrintable(args.join(' ')));
            QVERIFY2((r.out + r.err).contains("no primary of the cluster at 127.0.0.1:"),
                     qPrintable(args.join(' ') + ": " + r.out + r.err));
        }
    }

    void usageAndConnectionErrors()
    {
        Run r = cli({"order", "--url", m_url});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("give the order id"));
        r = cli({"keys", "--url", m_url, "--count", "0"});
        QCOMPARE(r.code, 2);
        r = cli({"keys", "--url", m_url, "--csv", "--json"});
        QCOMPARE(r.code, 2);
        r = cli({"keys", "--url", "redis://127.0.0.1:1", "--summary"});
        QCOMPARE(r.code, 3);
        r = cli({"order", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("inventory-cli order [options] ORDER_ID"));
    }
    // A receipt about to expire is flagged in the text and the JSON; the window is an option.
    void orderWarnsWhenTheRetryWindowIsClosing()
    {
        auto c = m_redis.connect();
        QCOMPARE(seed(*c, {setString("idem:{sku-2}:7777", "55", 90000)}), QString());
        Run r = cli({"order", "7777", "--url", m_url});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("\n  WARNING: Safe to retry: probably, but only until "), r.out);
        QVERIFY2(r.out.contains("as the receipt expires soon, unless the receipt is removed "
                                "sooner: "),
                 r.out);
        r = cli({"order", "7777", "--warn-within", "60", "--url", m_url});
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.out.contains("WARNING")
                     && r.out.contains("unless the receipt is removed sooner"),
                 r.out);
        r = cli({"order", "--json", "7777", "--url", m_url});
        const QJsonObject first =
            QJsonDocument::fromJson(r.out).object()["receipts"].toArray()[0].toObject();
        QCOMPARE(first["expiring_soon"].toBool(), true);
        r = cli({"order", "7777", "--warn-within", "soon", "--url", m_url});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--warn-within takes seconds"), r.err);
        QCOMPARE(c->call({"DEL", "idem:{sku-2}:7777"})->toInteger(), 1);
    }
};

QTEST_GUILESS_MAIN(TstCliKeys)
#include "tst_cli_keys.moc"
