// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of inventory_deduct_v2 (functions/inventory_lib_v1.lua, 1.3.0) against a real
// redis-server:
// FCALL inventory_deduct_v2 2 <stock key> <receipt key> <quantity> <ttl seconds>
// As v1, but the receipt is a hash {remaining, quantity, time}: a retry with the same
// quantity returns {2, remaining}, with another quantity {-3, recorded quantity} and changes
// nothing; a v1 string receipt counts as already applied. Every refusal is followed by the
// proof that nothing was written (keys, values, TTLs, DBSIZE).
#include "ContractTest.h"

#include <QRegularExpression>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

class TstContractV2 : public testsupport::DeductionContractTest
{
    Q_OBJECT

public:
    TstContractV2()
        : DeductionContractTest("inventory_deduct_v2")
    {}

private:
    // The server's clock in microseconds.
    qint64 serverMicros()
    {
        const ReplyResult t = m_c->call({"TIME"});
        return t->at(0).bytes().toLongLong() * 1000000 + t->at(1).bytes().toLongLong();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(
            testsupport::functionSource("inventory_lib_v1.lua").contains("\n-- version: 1.3.0\n"));
        startWithLibrary();
    }

    void init() { flushAll(); }

    // A caller who may make some of the writes but not all is refused before the first one
    // (1.2.0 checks every write with redis.acl_check_cmd): never a decrement without a receipt.
    void partialPermissionRefusesBeforeAnyWrite_data()
    {
        testsupport::addPartialPermissionRows({"DECRBY", "HSET", "EXPIRE"});
    }
    void partialPermissionRefusesBeforeAnyWrite() { checkPartialPermissionRow(); }

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
        const ReplyResult r = m_c->call({"FCALL_RO", m_function, "2", Stock, Receipt, "1", "60"});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.english.contains(QStringLiteral("write flag")),
                 qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
    }

    void deducts_data() { testsupport::addDeductionRows(); }
    // {1, remaining}; the receipt is a hash of exactly remaining, quantity and the server time
    // of the call, with the TTL asked; the stock never gets a TTL.
    void deducts()
    {
        const auto [stock, quantity, ttl, remaining] = testsupport::deductionRow();
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
        QVERIFY2(!v1.ok() && v1.error().message.english.contains(QStringLiteral("WRONGTYPE")),
                 qPrintable(render(v1)));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(run({"FCALL", "inventory_deduct_v1", "2", Stock, OtherReceipt, "2", "100"}),
                 QStringLiteral("{1,5}"));
        QCOMPARE(render(deduct("9", "100", OtherReceipt)), QStringLiteral("{2,5}"));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"5\""));
    }

    // A receipt that is neither form, or a hash without canonical remaining and quantity, is
    // an error reply: the order's state cannot be known, nothing is decided, nothing written.
    void invalidReceipt_data() { testsupport::addInvalidReceiptRows(Receipt); }
    void invalidReceipt()
    {
        QFETCH(QByteArrayList, setup);
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QVERIFY(m_c->call(setup).ok());
        expectRefused(deductCommand("3", "60"), QStringLiteral("ERR invalid receipt"));
    }

    void insufficientIsNotRecorded()
    {
        QCOMPARE(run({"SET", Stock, "5"}), QStringLiteral("+OK"));
        expectUnchanged(deductCommand("6", "60"), QStringLiteral("{0,5}"));
        QCOMPARE(run({"SET", Stock, "6"}), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("6", "60")), QStringLiteral("{1,0}"));
    }

    void missingStock()
    {
        QCOMPARE(run({"SET", "stock:{43}:available", "10"}), QStringLiteral("+OK"));
        expectUnchanged(deductCommand("1", "60"), QStringLiteral("{-2,0}"));
        QCOMPARE(run({"GET", "stock:{43}:available"}), QStringLiteral("\"10\""));
    }

    // Arguments are checked first, before the receipt (of either form) and the stock.
    void invalidArguments_data() { testsupport::addInvalidArgumentRows(); }
    void invalidArguments()
    {
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(QString, error);
        const Command call = deductCommand(quantity, ttl);
        expectRefused(call, error);
        QCOMPARE(run({"SET", Stock, "100"}), QStringLiteral("+OK"));
        expectRefused(call, error);
        QVERIFY(m_c->call({"HSET", Receipt, "remaining", "7", "quantity", "3"}).ok());
        expectRefused(call, error);
        QVERIFY(m_c->call({"SET", Receipt, "7", "EX", "100"}).ok());
        expectRefused(call, error);
        QVERIFY(m_c->call({"SET", Receipt, "x"}).ok()); // even an invalid receipt comes later
        expectRefused(call, error);
    }

    void wrongCounts_data() { testsupport::addDeductionCountRows(Stock, Receipt, OtherReceipt); }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QCOMPARE(run({"SET", Stock, "100"}), QStringLiteral("+OK"));
        expectRefused(QByteArrayList{"FCALL", m_function} + args, error);
    }

    void invalidStock_data() { testsupport::addInvalidStockRows(Stock); }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        expectRefused(deductCommand("1", "60"), QStringLiteral("ERR invalid stock"));
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
