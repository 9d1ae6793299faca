// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of functions/inventory_lib_v1.lua (library inventory_lib_v1, function
// inventory_deduct_v1) against a real redis-server, as defined in docs/contracts.md:
// FCALL inventory_deduct_v1 2 <stock key> <receipt key> <quantity> <ttl seconds>
// Every refusal is followed by the proof that nothing was written (keys, values, TTLs, DBSIZE).
#include "ContractTest.h"

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

class TstContractDeductV1 : public testsupport::DeductionContractTest
{
    Q_OBJECT

public:
    TstContractDeductV1()
        : DeductionContractTest("inventory_deduct_v1")
    {}

private:
    // One library entry of FUNCTION LIST (a flat key/value array in RESP2).
    static const Reply *field(const Reply &map, const QByteArray &name)
    {
        for (qsizetype i = 0; i + 1 < map.size(); i += 2)
            if (map.at(i).bytes() == name)
                return &map.at(i + 1);
        return nullptr;
    }

private slots:
    void initTestCase() { startWithLibrary(); }

    void init() { flushAll(); }

    // A caller who may make some of the writes but not all is refused before the first one
    // (1.2.0 checks every write with redis.acl_check_cmd): never a decrement without a receipt.
    void partialPermissionRefusesBeforeAnyWrite_data()
    {
        testsupport::addPartialPermissionRows({"DECRBY", "SET"});
    }
    void partialPermissionRefusesBeforeAnyWrite() { checkPartialPermissionRow(); }

    // Loading again without REPLACE is refused; with REPLACE it is accepted and the server
    // holds exactly the shipped code.
    void loadIsExactAndReplaceable()
    {
        const QByteArray source =
            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", source})),
                 QStringLiteral("error: ERR Library 'inventory_lib_v1' already exists"));
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE", source})),
                 QStringLiteral("\"inventory_lib_v1\""));
        auto list = m_c->call({"FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY2(list.ok(), qPrintable(render(list)));
        QCOMPARE(list->size(), 1);
        const Reply *code = field(list->at(0), "library_code");
        QVERIFY(code);
        QCOMPARE(code->bytes(), source);
    }

    // A write function (no no-writes flag) with a description.
    void functionListShowsWriteFunctionWithDescription()
    {
        auto list = m_c->call({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY2(list.ok() && list->isArray(), qPrintable(render(list)));
        QCOMPARE(list->size(), 1);
        const Reply &lib = list->at(0);
        QCOMPARE(field(lib, "library_name")->bytes(), QByteArray("inventory_lib_v1"));
        QCOMPARE(field(lib, "engine")->bytes(), QByteArray("LUA"));
        const Reply *functions = field(lib, "functions");
        QVERIFY(functions && functions->isArray());
        // The library may hold other functions; inventory_deduct_v1 is there exactly once.
        const Reply *found = nullptr;
        for (const Reply &candidate : functions->elements()) {
            const Reply *name = field(candidate, "name");
            QVERIFY(name);
            if (name->bytes() == m_function) {
                QVERIFY2(!found, "listed twice");
                found = &candidate;
            }
        }
        QVERIFY2(found, qPrintable(render(*functions)));
        const Reply &fn = *found;
        const Reply *description = field(fn, "description");
        QVERIFY(description);
        QVERIFY2(description->isBulk(), qPrintable(render(*description)));
        QVERIFY(!description->bytes().trimmed().isEmpty());
        const Reply *flags = field(fn, "flags");
        QVERIFY(flags && flags->isArray());
        for (const Reply &flag : flags->elements())
            QVERIFY2(flag.bytes() != "no-writes", qPrintable(render(*flags)));
    }

    void fcallRoIsRefused()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        const Snapshot before = snap();
        auto r = m_c->call({"FCALL_RO", m_function, "2", Stock, Receipt, "1", "60"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().code, QByteArray("ERR"));
        QVERIFY2(r.error().message.english.contains(QStringLiteral("write flag")),
                 qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
        // The same arguments through FCALL do deduct: only the _RO form was refused.
        QCOMPARE(render(deduct("1", "60")), QStringLiteral("{1,9}"));
    }

    void deducts_data() { testsupport::addDeductionRows(); }
    void deducts()
    {
        const auto [stock, quantity, ttl, remaining] = testsupport::deductionRow();
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        QCOMPARE(render(deduct(quantity, ttl)), QStringLiteral("{1,%1}").arg(remaining));
        const auto state = m_c->callBatch({{"GET", Stock},
                                           {"PTTL", Stock},
                                           {"GET", Receipt},
                                           {"PTTL", Receipt},
                                           {"TTL", Receipt},
                                           {"DBSIZE"}});
        QCOMPARE(render(state[0]), QStringLiteral("\"%1\"").arg(remaining));
        QCOMPARE(render(state[1]), QStringLiteral("-1")); // stock never gets a TTL
        // The receipt records the remaining stock, for the duration asked.
        QCOMPARE(render(state[2]), QStringLiteral("\"%1\"").arg(remaining));
        const qint64 ttlMs = ttl.toLongLong() * 1000;
        const qint64 pttl = state[3]->toInteger();
        QVERIFY2(pttl > ttlMs - 1000 && pttl <= ttlMs, qPrintable(render(state[3])));
        const qint64 ttlS = state[4]->toInteger();
        QVERIFY2(ttlS >= ttl.toLongLong() - 1 && ttlS <= ttl.toLongLong(),
                 qPrintable(render(state[4])));
        QCOMPARE(render(state[5]), QStringLiteral("2"));
    }

    // {2, recorded}: the receipt wins over everything after argument validation, and the
    // duplicate changes nothing (no deduction, receipt value and TTL untouched).
    void duplicateChangesNothing_data()
    {
        QTest::addColumn<QByteArrayList>("between"); // a command run before the duplicate
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QByteArray>("ttl");
        QTest::newRow("same arguments") << QByteArrayList{} << QByteArray("3") << QByteArray("100");
        QTest::newRow("other quantity, longer ttl")
            << QByteArrayList{} << QByteArray("1") << QByteArray("31536000");
        QTest::newRow("quantity above stock")
            << QByteArrayList{} << QByteArray("1000000") << QByteArray("100");
        QTest::newRow("stock changed since")
            << QByteArrayList{"SET", Stock, "500"} << QByteArray("3") << QByteArray("100");
        QTest::newRow("stock deleted since")
            << QByteArrayList{"DEL", Stock} << QByteArray("3") << QByteArray("100");
        QTest::newRow("stock invalid since")
            << QByteArrayList{"SET", Stock, "abc"} << QByteArray("3") << QByteArray("100");
        QTest::newRow("stock wrong type since") << QByteArrayList{"EVAL",
                                                                  "redis.call('DEL', KEYS[1]); "
                                                                  "return redis.call('HSET', "
                                                                  "KEYS[1], 'f', 'v')",
                                                                  "1", Stock}
                                                << QByteArray("3") << QByteArray("100");
    }
    void duplicateChangesNothing()
    {
        QFETCH(QByteArrayList, between);
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("3", "100")), QStringLiteral("{1,7}"));
        if (!between.isEmpty())
            QVERIFY2(m_c->call(between).ok(), qPrintable(render(m_c->call(between))));
        const Snapshot before = snap();
        QCOMPARE(render(deduct(quantity, ttl)), QStringLiteral("{2,7}"));
        VERIFY_NOTHING_WRITTEN(before);
        // Idempotent however often it is retried.
        QCOMPARE(render(deduct(quantity, ttl)), QStringLiteral("{2,7}"));
        VERIFY_NOTHING_WRITTEN(before);
    }

    // {0, stock}: nothing written, insufficiency is not recorded, so a later call with
    // enough stock deducts.
    void insufficient_data() { testsupport::addInsufficientRows(); }
    void insufficient()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        expectUnchanged(deductCommand(quantity, "60"), QStringLiteral("{0,%1}").arg(stock));
        QCOMPARE(render(m_c->call({"EXISTS", Receipt})), QStringLiteral("0"));
        // Not recorded: the same order succeeds once there is enough stock.
        QCOMPARE(set(Stock, "1000000"), QStringLiteral("+OK"));
        QCOMPARE(render(deduct(quantity, "60")),
                 QStringLiteral("{1,%1}").arg(1000000 - quantity.toLongLong()));
    }

    void missingStock_data()
    {
        QTest::addColumn<QByteArray>("quantity");
        QTest::newRow("quantity 1") << QByteArray("1");
        QTest::newRow("quantity 1000000") << QByteArray("1000000");
    }
    void missingStock()
    {
        QFETCH(QByteArray, quantity);
        // Another SKU's stock exists and must not be touched either.
        QCOMPARE(set("stock:{43}:available", "10"), QStringLiteral("+OK"));
        expectUnchanged(deductCommand(quantity, "60"), QStringLiteral("{-2,0}"));
        QCOMPARE(render(m_c->call({"EXISTS", Stock, Receipt})), QStringLiteral("0"));
        QCOMPARE(render(m_c->call({"DBSIZE"})), QStringLiteral("1"));
        QCOMPARE(render(m_c->call({"GET", "stock:{43}:available"})), QStringLiteral("\"10\""));
    }

    // Every invalid class of quantity and ttl, in every state of the keys: the arguments are
    // checked first (before the receipt and the stock), and nothing is written.
    void invalidArguments_data() { testsupport::addInvalidArgumentRows(); }
    void invalidArguments()
    {
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(QString, error);
        expectRefused(deductCommand(quantity, ttl), error); // stock missing
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        expectRefused(deductCommand(quantity, ttl), error); // stock 100
        if (QTest::currentTestFailed())
            return;
        QVERIFY(m_c->call({"SET", Receipt, "42", "EX", "100"}).ok());
        expectRefused(deductCommand(quantity, ttl), error); // receipt present
    }

    void wrongCounts_data() { testsupport::addDeductionCountRows(Stock, Receipt, OtherReceipt); }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        expectRefused(QByteArrayList{"FCALL", m_function} + args, error);
    }

    // A stock value that is not a canonical integer within 1,000,000,000, or not a string,
    // is an error reply; neither the stock nor the receipt is touched.
    void invalidStock_data() { testsupport::addInvalidStockRows(Stock); }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        QVERIFY(snap().keys.at(0).type != "none");
        expectRefused(deductCommand("1", "60"), QStringLiteral("ERR invalid stock"));
    }

    // Orders one after another until the stock runs out: each success records its own
    // remaining; insufficiency records nothing.
    void ordersUntilExhausted()
    {
        QCOMPARE(set(Stock, "3"), QStringLiteral("+OK"));
        QStringList got;
        for (int order = 1; order <= 5; ++order)
            got << render(m_c->call({"FCALL", m_function, "2", Stock,
                                     "idem:{42}:" + QByteArray::number(order), "1", "60"}));
        QCOMPARE(got, (QStringList{"{1,2}", "{1,1}", "{1,0}", "{0,0}", "{0,0}"}));
        const auto state = m_c->callBatch(
            {{"GET", Stock},
             {"MGET", "idem:{42}:1", "idem:{42}:2", "idem:{42}:3", "idem:{42}:4", "idem:{42}:5"},
             {"DBSIZE"}});
        QCOMPARE(render(state[0]), QStringLiteral("\"0\""));
        QCOMPARE(render(state[1]), QStringLiteral("{\"2\",\"1\",\"0\",nil,nil}"));
        QCOMPARE(render(state[2]), QStringLiteral("4"));
    }

    // The receipt's TTL is the whole window of protection: once it expires, the same order
    // deducts again.
    void receiptExpiryEndsProtection()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(deduct("1", "1")), QStringLiteral("{1,9}"));
        QCOMPARE(render(deduct("1", "1")), QStringLiteral("{2,9}"));
        QTRY_COMPARE_WITH_TIMEOUT(render(m_c->call({"EXISTS", Receipt})), QStringLiteral("0"),
                                  3000);
        QCOMPARE(render(deduct("1", "1")), QStringLiteral("{1,8}"));
    }
};

QTEST_GUILESS_MAIN(TstContractDeductV1)
#include "tst_contract_deduct_v1.moc"
