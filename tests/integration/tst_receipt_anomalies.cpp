// SPDX-License-Identifier: GPL-3.0-or-later
// A key at an order's receipt name that the deduction functions refuse (a list, set, zset,
// stream, or a hash without a valid remaining and quantity) is an anomaly: `order`,
// `deduct --check` and the receipt check say so, and say what a retry does, which the
// functions themselves show here (issue 14: they said "already deducted", exit 0).
#include "CliRunner.h"
#include "RedisFixture.h"
#include "ServerTest.h"
#include "inventory/ReceiptCheck.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using testsupport::render;

class TstReceiptAnomalies : public testsupport::ServerTest
{
    Q_OBJECT

    // A subcommand, pointed at the test server.
    testsupport::CliRun cli(const QStringList &args) const
    {
        return testsupport::runCli(
            QStringList{args.first(), QStringLiteral("--url"),
                        QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port())}
            + args.mid(1));
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
    }

    void anomalousReceipts_data()
    {
        QTest::addColumn<QList<QByteArray>>("write");
        QTest::addColumn<QString>("what");
        const QByteArray key = "idem:{42}:o-bad";
        QTest::newRow("list") << QList<QByteArray>{"RPUSH", key, "7"} << "is a list";
        QTest::newRow("set") << QList<QByteArray>{"SADD", key, "7"} << "is a set";
        QTest::newRow("zset") << QList<QByteArray>{"ZADD", key, "1", "7"} << "is a zset";
        QTest::newRow("stream") << QList<QByteArray>{"XADD", key, "*", "remaining", "7"}
                                << "is a stream";
        QTest::newRow("hash, remaining not a number")
            << QList<QByteArray>{"HSET", key, "remaining", "abc", "quantity", "1"}
            << "is a hash without a valid";
        QTest::newRow("hash without quantity")
            << QList<QByteArray>{"HSET", key, "remaining", "7"} << "is a hash without a valid";
    }
    void anomalousReceipts()
    {
        QFETCH(QList<QByteArray>, write);
        QFETCH(QString, what);
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QVERIFY(m_c->call(write).ok());
        QVERIFY(m_c->call({"EXPIRE", "idem:{42}:o-bad", "3600"}).ok());

        // What a retry really meets: v1 WRONGTYPE, v2 ERR invalid receipt, nothing written.
        const auto v1 = m_c->call({"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                                   "idem:{42}:o-bad", "1", "60"});
        QVERIFY2(render(v1).contains("WRONGTYPE"), qPrintable(render(v1)));
        const auto v2 = m_c->call({"FCALL", "inventory_deduct_v2", "2", "stock:{42}:available",
                                   "idem:{42}:o-bad", "1", "60"});
        QCOMPARE(render(v2), QStringLiteral("error: ERR invalid receipt"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));

        // The receipt check, through inventory_receipt_v1 (which refuses it) and directly.
        const auto status = inventory::checkReceiptBlocking(*m_c, "idem:{42}:o-bad");
        QCOMPARE(status.verdictName(), QStringLiteral("anomalous"));

        const auto check = cli({"deduct", "--sku", "42", "--order", "o-bad", "--check", "--json"});
        QCOMPARE(check.exitCode, 6);
        const QJsonObject json = QJsonDocument::fromJson(check.out).object();
        QCOMPARE(json.value("verdict").toString(), QStringLiteral("anomalous"));
        const QString message = json.value("message").toString();
        for (const QString &needle :
             {what, QStringLiteral("an anomaly"),
              QStringLiteral("A retry deducts nothing and fails"), QStringLiteral("WRONGTYPE"),
              QStringLiteral("ERR invalid receipt"), QStringLiteral("It expires in")})
            QVERIFY2(message.contains(needle), qPrintable(message));
        QVERIFY2(!message.contains("Already applied") && !message.contains("happened"),
                 qPrintable(message));

        const auto order = cli({"order", "o-bad"});
        const QString text = QString::fromUtf8(order.out);
        QCOMPARE(order.exitCode, 0);
        for (const QString &needle : {what, QStringLiteral("an anomaly"),
                                      QStringLiteral("A retry deducts nothing and fails"),
                                      QStringLiteral("Stock now: 10.")})
            QVERIFY2(text.contains(needle), qPrintable(text));
        QVERIFY2(!text.contains("already deducted") && !text.contains("Deducted"),
                 qPrintable(text));
    }

    // The forms the functions accept keep their verdict; a v2 hash says v1 refuses it.
    void acceptedReceiptsStayHappened()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "idem:{42}:v1", "7", "EX", "3600"}).ok());
        QVERIFY(m_c->call({"HSET", "idem:{42}:v2", "remaining", "5", "quantity", "2"}).ok());
        QVERIFY(m_c->call({"EXPIRE", "idem:{42}:v2", "3600"}).ok());
        const auto v1 = inventory::checkReceiptBlocking(*m_c, "idem:{42}:v1");
        QCOMPARE(v1.verdictName(), QStringLiteral("happened"));
        QCOMPARE(v1.form, inventory::ReceiptForm::String);
        QVERIFY2(v1.verdict().contains("a retry of this order returns Already applied"),
                 qPrintable(v1.verdict()));
        const auto v2 = inventory::checkReceiptBlocking(*m_c, "idem:{42}:v2");
        QCOMPARE(v2.verdictName(), QStringLiteral("happened"));
        QCOMPARE(v2.form, inventory::ReceiptForm::Hash);
        QVERIFY2(v2.verdict().contains("inventory_deduct_v1 refuses a hash receipt: WRONGTYPE"),
                 qPrintable(v2.verdict()));
        const auto check = cli({"deduct", "--sku", "42", "--order", "v2", "--check"});
        QCOMPARE(check.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TstReceiptAnomalies)
#include "tst_receipt_anomalies.moc"
