// Contract of inventory_deduct_v2 (functions/inventory_lib_v1.lua, 1.1.0) against a real
// redis-server:
// FCALL inventory_deduct_v2 2 <stock key> <receipt key> <quantity> <ttl seconds>
// As v1, but the receipt is a hash {remaining, quantity, time}: a retry with the same
// quantity returns {2, remaining}, with another quantity {-3, recorded quantity} and changes
// nothing; a v1 string receipt counts as already applied. Every refusal is followed by the
// proof that nothing was written (keys, values, TTLs, DBSIZE).
#include "RedisFixture.h"

#include <QRegularExpression>
#include <QTest>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

namespace {
const QByteArray Stock = "stock:{42}:available";
const QByteArray Receipt = "idem:{42}:9001";
const QByteArray OtherReceipt = "idem:{42}:9002";
const QByteArray Function = "inventory_deduct_v2";
} // namespace

#define VERIFY_NOTHING_WRITTEN(before)                                                             \
    do {                                                                                           \
        const QString diff_ = testsupport::snapshotDifference(before, snap());                     \
        QVERIFY2(diff_.isEmpty(), qPrintable(QStringLiteral("written: ") + diff_));                \
    } while (false)

class TstContractV2 : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<RedisClient> m_c;

    ReplyResult deduct(const QByteArray &quantity, const QByteArray &ttl,
                       const QByteArray &receipt = Receipt)
    {
        return m_c->call({"FCALL", Function, "2", Stock, receipt, quantity, ttl});
    }
    Snapshot snap() { return testsupport::snapshot(*m_c, {Stock, Receipt, OtherReceipt}); }
    QString run(const QByteArrayList &command) { return render(m_c->call(command)); }
    // The server's clock in microseconds.
    qint64 serverMicros()
    {
        const ReplyResult t = m_c->call({"TIME"});
        return t->at(0).bytes().toLongLong() * 1000000 + t->at(1).bytes().toLongLong();
    }
    void expectError(const ReplyResult &r, const QString &message)
    {
        QVERIFY2(!r.ok(), qPrintable(render(r)));
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().message, message);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(m_c->state(), ConnectionState::Ready);
        const QByteArray source = testsupport::functionSource("inventory_lib_v1.lua");
        QVERIFY(source.contains("\n-- version: 1.1.0\n"));
        QCOMPARE(run({"FUNCTION", "LOAD", "REPLACE", source}),
                 QStringLiteral("\"inventory_lib_v1\""));
    }

    void init() { QCOMPARE(run({"FLUSHALL", "SYNC"}), QStringLiteral("+OK")); }

    // A write function with a description: FCALL_RO refuses it and writes nothing.
    void isAWriteFunction()
    {
        const auto list = m_c->call({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY(list.ok());
        const QString text = render(list);
        QVERIFY2(text.contains(
                     QStringLiteral("\"name\",\"inventory_deduct_v2\",\"description\",\"Deduct")),
                 qPrintable(text));
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        const Snapshot before = snap();
        const ReplyResult r = m_c->call({"FCALL_RO", Function, "2", Stock, Receipt, "1", "60"});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("write flag")), qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
    }

    void deducts_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QByteArray>("ttl");
        QTest::addColumn<qint64>("remaining");
        QTest::newRow("3 of 10") << QByteArray("10") << QByteArray("3") << QByteArray("60")
                                 << qint64(7);
        QTest::newRow("last unit")
            << QByteArray("1") << QByteArray("1") << QByteArray("60") << qint64(0);
        QTest::newRow("quantity 1000000")
            << QByteArray("1000000") << QByteArray("1000000") << QByteArray("60") << qint64(0);
        QTest::newRow("stock 1000000000")
            << QByteArray("1000000000") << QByteArray("1") << QByteArray("60") << qint64(999999999);
        QTest::newRow("ttl 1") << QByteArray("5") << QByteArray("2") << QByteArray("1")
                               << qint64(3);
        QTest::newRow("ttl 31536000")
            << QByteArray("5") << QByteArray("5") << QByteArray("31536000") << qint64(0);
    }
    // {1, remaining}; the receipt is a hash of exactly remaining, quantity and the server time
    // of the call, with the TTL asked; the stock never gets a TTL.
    void deducts()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(qint64, remaining);
        QCOMPARE(run({"SET", Stock, stock}), QStringLiteral("+OK"));
        const qint64 t0 = serverMicros();
        QCOMPARE(render(deduct(quantity, ttl)), QStringLiteral("{1,%1}").arg(remaining));
        const qint64 t1 = serverMicros();
        const auto s = m_c->callBatch({{"GET", Stock},
                                       {"PTTL", Stock},
                                       {"TYPE", Receipt},
                                       {"HLEN", Receipt},
                                       {"HMGET", Receipt, "remaining", "quantity"},
                                       {"HGET", Receipt, "time"},
                                       {"PTTL", Receipt},
                                       {"DBSIZE"}});
        QCOMPARE(render(s[0]), QStringLiteral("\"%1\"").arg(remaining));
        QCOMPARE(render(s[1]), QStringLiteral("-1"));
        QCOMPARE(render(s[2]), QStringLiteral("+hash"));
        QCOMPARE(render(s[3]), QStringLiteral("3"));
        QCOMPARE(
            render(s[4]),
            QStringLiteral("{\"%1\",\"%2\"}").arg(remaining).arg(QString::fromLatin1(quantity)));
        const QByteArray time = s[5]->bytes();
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9]{10}\\.[0-9]{6}$"))
                     .match(QString::fromLatin1(time))
                     .hasMatch(),
                 time.constData());
        const qint64 micros = time.left(10).toLongLong() * 1000000 + time.mid(11).toLongLong();
        QVERIFY2(micros >= t0 && micros <= t1, time.constData());
        const qint64 ttlMs = ttl.toLongLong() * 1000;
        QVERIFY2(s[6]->toInteger() > ttlMs - 1000 && s[6]->toInteger() <= ttlMs,
                 qPrintable(render(s[6])));
        QCOMPARE(render(s[7]), QStringLiteral("2"));
    }

    // {2, remaining}: the same order with the same quantity, whatever happened to the stock
    // since, and whatever ttl the retry asks; nothing changes, however often.
    void sameQuantityRetry_data()
    {
        QTest::addColumn<QByteArrayList>("between");
        QTest::addColumn<QByteArray>("ttl");
        QTest::newRow("plain retry") << QByteArrayList{} << QByteArray("100");
        QTest::newRow("longer ttl") << QByteArrayList{} << QByteArray("31536000");
        QTest::newRow("stock changed") << QByteArrayList{"SET", Stock, "500"} << QByteArray("100");
        QTest::newRow("stock exhausted") << QByteArrayList{"SET", Stock, "0"} << QByteArray("100");
        QTest::newRow("stock deleted") << QByteArrayList{"DEL", Stock} << QByteArray("100");
        QTest::newRow("stock invalid") << QByteArrayList{"SET", Stock, "abc"} << QByteArray("100");
        QTest::newRow("stock a hash") << QByteArrayList{
            "EVAL", "redis.call('DEL', KEYS[1]) return redis.call('HSET', KEYS[1], 'f', 'v')", "1",
            Stock} << QByteArray("100");
    }
    void sameQuantityRetry()
    {
        QFETCH(QByteArrayList, between);
        QFETCH(QByteArray, ttl);
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("3", "100")), QStringLiteral("{1,7}"));
        if (!between.isEmpty())
            QVERIFY2(m_c->call(between).ok(), qPrintable(run(between)));
        const Snapshot before = snap();
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(render(deduct("3", ttl)), QStringLiteral("{2,7}"));
            VERIFY_NOTHING_WRITTEN(before);
        }
    }

    // {-3, recorded quantity}: the order was applied with another quantity. Nothing changes,
    // even when the new quantity could not be served or the stock is gone.
    void otherQuantityRetry_data()
    {
        QTest::addColumn<QByteArrayList>("between");
        QTest::addColumn<QByteArray>("quantity");
        QTest::newRow("fewer") << QByteArrayList{} << QByteArray("1");
        QTest::newRow("more") << QByteArrayList{} << QByteArray("4");
        QTest::newRow("more than the stock") << QByteArrayList{} << QByteArray("1000000");
        QTest::newRow("stock deleted") << QByteArrayList{"DEL", Stock} << QByteArray("2");
        QTest::newRow("stock invalid") << QByteArrayList{"SET", Stock, "-1"} << QByteArray("2");
    }
    void otherQuantityRetry()
    {
        QFETCH(QByteArrayList, between);
        QFETCH(QByteArray, quantity);
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("3", "100")), QStringLiteral("{1,7}"));
        if (!between.isEmpty())
            QVERIFY(m_c->call(between).ok());
        const Snapshot before = snap();
        for (const QByteArray &ttl : {QByteArray("100"), QByteArray("5")}) {
            QCOMPARE(render(deduct(quantity, ttl)), QStringLiteral("{-3,3}"));
            VERIFY_NOTHING_WRITTEN(before);
        }
        // The original quantity is still recognised.
        QCOMPARE(render(deduct("3", "100")), QStringLiteral("{2,7}"));
    }

    // A v1 string receipt has no quantity: the order counts as already applied, for any
    // quantity; the receipt keeps its string form and TTL.
    void v1ReceiptCountsAsApplied_data()
    {
        QTest::addColumn<QByteArray>("recorded");
        QTest::addColumn<QString>("expected");
        QTest::newRow("number") << QByteArray("7") << QStringLiteral("{2,7}");
        QTest::newRow("zero") << QByteArray("0") << QStringLiteral("{2,0}");
        QTest::newRow("not a number (as v1: the text)")
            << QByteArray("abc") << QStringLiteral("{2,\"abc\"}");
    }
    void v1ReceiptCountsAsApplied()
    {
        QFETCH(QByteArray, recorded);
        QFETCH(QString, expected);
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(run({"SET", Receipt, recorded, "EX", "100"}), QStringLiteral("+OK"));
        const Snapshot before = snap();
        for (const QByteArray &quantity :
             {QByteArray("1"), QByteArray("3"), QByteArray("1000000")}) {
            QCOMPARE(render(deduct(quantity, "60")), expected);
            VERIFY_NOTHING_WRITTEN(before);
        }
    }

    // v1 after v2, same order: v1 reads receipts with GET, so a hash receipt is an error reply
    // (WRONGTYPE), never a second deduction. v2 after v1: already applied.
    void mixedVersions()
    {
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("3", "100")), QStringLiteral("{1,7}"));
        const Snapshot before = snap();
        const ReplyResult v1 =
            m_c->call({"FCALL", "inventory_deduct_v1", "2", Stock, Receipt, "3", "100"});
        QVERIFY2(!v1.ok() && v1.error().message.contains(QStringLiteral("WRONGTYPE")),
                 qPrintable(render(v1)));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(run({"FCALL", "inventory_deduct_v1", "2", Stock, OtherReceipt, "2", "100"}),
                 QStringLiteral("{1,5}"));
        QCOMPARE(render(deduct("9", "100", OtherReceipt)), QStringLiteral("{2,5}"));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"5\""));
    }

    // A receipt that is neither form, or a hash without canonical remaining and quantity, is
    // an error reply: the order's state cannot be known, nothing is decided, nothing written.
    void invalidReceipt_data()
    {
        QTest::addColumn<QByteArrayList>("setup");
        QTest::newRow("hash without quantity") << QByteArrayList{"HSET", Receipt, "remaining", "7"};
        QTest::newRow("hash without remaining") << QByteArrayList{"HSET", Receipt, "quantity", "3"};
        QTest::newRow("quantity 0")
            << QByteArrayList{"HSET", Receipt, "remaining", "7", "quantity", "0"};
        QTest::newRow("quantity 01")
            << QByteArrayList{"HSET", Receipt, "remaining", "7", "quantity", "01"};
        QTest::newRow("quantity above 1000000")
            << QByteArrayList{"HSET", Receipt, "remaining", "7", "quantity", "1000001"};
        QTest::newRow("remaining negative")
            << QByteArrayList{"HSET", Receipt, "remaining", "-1", "quantity", "3"};
        QTest::newRow("remaining text")
            << QByteArrayList{"HSET", Receipt, "remaining", "x", "quantity", "3"};
        QTest::newRow("list") << QByteArrayList{"RPUSH", Receipt, "7"};
        QTest::newRow("set") << QByteArrayList{"SADD", Receipt, "7"};
        QTest::newRow("zset") << QByteArrayList{"ZADD", Receipt, "7", "a"};
        QTest::newRow("stream") << QByteArrayList{"XADD", Receipt, "*", "remaining", "7"};
    }
    void invalidReceipt()
    {
        QFETCH(QByteArrayList, setup);
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QVERIFY(m_c->call(setup).ok());
        const Snapshot before = snap();
        expectError(deduct("3", "60"), QStringLiteral("ERR invalid receipt"));
        VERIFY_NOTHING_WRITTEN(before);
    }

    void insufficientIsNotRecorded()
    {
        QCOMPARE(run({"SET", Stock, "5"}), QStringLiteral("+OK"));
        const Snapshot before = snap();
        QCOMPARE(render(deduct("6", "60")), QStringLiteral("{0,5}"));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(run({"SET", Stock, "6"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("6", "60")), QStringLiteral("{1,0}"));
    }

    void missingStock()
    {
        QCOMPARE(run({"SET", "stock:{43}:available", "10"}), QStringLiteral("+OK"));
        const Snapshot before = snap();
        QCOMPARE(render(deduct("1", "60")), QStringLiteral("{-2,0}"));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(run({"GET", "stock:{43}:available"}), QStringLiteral("\"10\""));
    }

    // Arguments are checked first, before the receipt (of either form) and the stock.
    void invalidArguments_data()
    {
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QByteArray>("ttl");
        QTest::addColumn<QString>("error");
        const QList<QPair<const char *, QByteArray>> bad{
            {"sign +", "+1"},
            {"sign -", "-1"},
            {"space", " 1"},
            {"newline", "1\n"},
            {"NUL", QByteArray("1\0", 2)},
            {"decimal", "1.0"},
            {"exponent", "1e3"},
            {"leading zero", "01"},
            {"hex", "0x10"},
            {"letters", "abc"},
            {"empty", ""},
            {"zero", "0"},
            {"11 digits", "10000000000"},
            {"20 digits", "99999999999999999999"},
        };
        for (const auto &[name, value] : bad) {
            QTest::addRow("quantity %s", name)
                << value << QByteArray("60") << QStringLiteral("ERR invalid quantity");
            QTest::addRow("ttl %s", name)
                << QByteArray("1") << value << QStringLiteral("ERR invalid ttl");
        }
        QTest::newRow("quantity 1000001")
            << QByteArray("1000001") << QByteArray("60") << QStringLiteral("ERR invalid quantity");
        QTest::newRow("ttl 31536001")
            << QByteArray("1") << QByteArray("31536001") << QStringLiteral("ERR invalid ttl");
        QTest::newRow("both: quantity first")
            << QByteArray("0") << QByteArray("0") << QStringLiteral("ERR invalid quantity");
    }
    void invalidArguments()
    {
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(QString, error);
        const auto check = [&] {
            const Snapshot before = snap();
            expectError(deduct(quantity, ttl), error);
            VERIFY_NOTHING_WRITTEN(before);
        };
        check();
        QCOMPARE(run({"SET", Stock, "100"}), QStringLiteral("+OK"));
        check();
        QVERIFY(m_c->call({"HSET", Receipt, "remaining", "7", "quantity", "3"}).ok());
        check();
        QVERIFY(m_c->call({"SET", Receipt, "7", "EX", "100"}).ok());
        check();
        QVERIFY(m_c->call({"SET", Receipt, "x"}).ok()); // even an invalid receipt comes later
        check();
    }

    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args");
        QTest::addColumn<QString>("error");
        const QString counts = QStringLiteral(
            "ERR expected two keys (stock, receipt) and two arguments (quantity, ttl)");
        QTest::newRow("0 keys 0 args") << QByteArrayList{"0"} << counts;
        QTest::newRow("1 key 2 args") << QByteArrayList{"1", Stock, "1", "60"} << counts;
        QTest::newRow("2 keys 1 arg") << QByteArrayList{"2", Stock, Receipt, "1"} << counts;
        QTest::newRow("2 keys 3 args")
            << QByteArrayList{"2", Stock, Receipt, "1", "60", "x"} << counts;
        QTest::newRow("3 keys 2 args")
            << QByteArrayList{"3", Stock, Receipt, OtherReceipt, "1", "60"} << counts;
        QTest::newRow("numkeys above arguments")
            << QByteArrayList{"3", Stock, Receipt}
            << QStringLiteral("ERR Number of keys can't be greater than number of args");
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QCOMPARE(run({"SET", Stock, "100"}), QStringLiteral("+OK"));
        const Snapshot before = snap();
        expectError(m_c->call(QByteArrayList{"FCALL", Function} + args), error);
        VERIFY_NOTHING_WRITTEN(before);
    }

    void invalidStock_data()
    {
        QTest::addColumn<QByteArrayList>("setup");
        for (const char *v :
             {"abc", "-5", "1.5", "01", "+5", " 5", "1e3", "", "1000000001", "10000000000"})
            QTest::addRow("'%s'", v) << QByteArrayList{"SET", Stock, v};
        QTest::newRow("hash") << QByteArrayList{"HSET", Stock, "available", "10"};
        QTest::newRow("list") << QByteArrayList{"RPUSH", Stock, "10"};
        QTest::newRow("set") << QByteArrayList{"SADD", Stock, "10"};
        QTest::newRow("zset") << QByteArrayList{"ZADD", Stock, "10", "a"};
        QTest::newRow("stream") << QByteArrayList{"XADD", Stock, "*", "available", "10"};
    }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        const Snapshot before = snap();
        expectError(deduct("1", "60"), QStringLiteral("ERR invalid stock"));
        VERIFY_NOTHING_WRITTEN(before);
    }

    void ordersUntilExhausted()
    {
        QCOMPARE(run({"SET", Stock, "3"}), QStringLiteral("+OK"));
        QStringList got;
        for (int order = 1; order <= 5; ++order)
            got << render(deduct("1", "60", "idem:{42}:" + QByteArray::number(order)));
        QCOMPARE(got, (QStringList{"{1,2}", "{1,1}", "{1,0}", "{0,0}", "{0,0}"}));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"0\""));
        QCOMPARE(run({"DBSIZE"}), QStringLiteral("4"));
        QCOMPARE(run({"HGET", "idem:{42}:2", "remaining"}), QStringLiteral("\"1\""));
    }

    void receiptExpiryEndsProtection()
    {
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("1", "1")), QStringLiteral("{1,9}"));
        QCOMPARE(render(deduct("1", "1")), QStringLiteral("{2,9}"));
        QCOMPARE(render(deduct("2", "1")), QStringLiteral("{-3,1}"));
        QTRY_COMPARE_WITH_TIMEOUT(run({"EXISTS", Receipt}), QStringLiteral("0"), 3000);
        QCOMPARE(render(deduct("2", "1")), QStringLiteral("{1,7}"));
    }
};

QTEST_GUILESS_MAIN(TstContractV2)
#include "tst_contract_v2.moc"
