// Contract of functions/inventory_lib_v1.lua (library inventory_lib_v1, function
// inventory_deduct_v1) against a real redis-server, as defined in MISSION.md:
// FCALL inventory_deduct_v1 2 <stock key> <receipt key> <quantity> <ttl seconds>
// Every refusal is followed by the proof that nothing was written (keys, values, TTLs, DBSIZE).
#include "RedisFixture.h"

#include <QTest>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;
using testsupport::StandaloneRedis;

namespace {
const QByteArray Stock = "stock:{42}:available";
const QByteArray Receipt = "idem:{42}:9001";
const QByteArray OtherReceipt = "idem:{42}:9002";
const QByteArray Function = "inventory_deduct_v1";
} // namespace

// Nothing observable changed since `before` (TTLs may only have run down).
#define VERIFY_NOTHING_WRITTEN(before)                                                             \
    do {                                                                                           \
        const QString diff_ = testsupport::snapshotDifference(before, snap());                     \
        QVERIFY2(diff_.isEmpty(), qPrintable(QStringLiteral("written: ") + diff_));                \
    } while (false)

class TstContractDeductV1 : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<RedisClient> m_c;

    ReplyResult deduct(const QByteArray &quantity, const QByteArray &ttl,
                       const QByteArray &receipt = Receipt)
    {
        return m_c->call({"FCALL", Function, "2", Stock, receipt, quantity, ttl});
    }
    Snapshot snap() { return testsupport::snapshot(*m_c, {Stock, Receipt, OtherReceipt}); }
    QString set(const QByteArray &key, const QByteArray &value)
    {
        return render(m_c->call({"SET", key, value}));
    }

    // One library entry of FUNCTION LIST (a flat key/value array in RESP2).
    static const Reply *field(const Reply &map, const QByteArray &name)
    {
        for (qsizetype i = 0; i + 1 < map.size(); i += 2)
            if (map.at(i).bytes() == name)
                return &map.at(i + 1);
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(m_c->state(), ConnectionState::Ready);
        const QByteArray source =
            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE", source})),
                 QStringLiteral("\"inventory_lib_v1\""));
    }

    void init() { QCOMPARE(render(m_c->call({"FLUSHALL", "SYNC"})), QStringLiteral("+OK")); }

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
            if (name->bytes() == Function) {
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
        auto r = m_c->call({"FCALL_RO", Function, "2", Stock, Receipt, "1", "60"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().code, QByteArray("ERR"));
        QVERIFY2(r.error().message.contains(QStringLiteral("write flag")), qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
        // The same arguments through FCALL do deduct: only the _RO form was refused.
        QCOMPARE(render(deduct("1", "60")), QStringLiteral("{1,9}"));
    }

    void deducts_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QByteArray>("ttl");
        QTest::addColumn<qint64>("remaining");
        QTest::newRow("3 of 10") << QByteArray("10") << QByteArray("3") << QByteArray("60")
                                 << qint64(7);
        QTest::newRow("quantity 1, last unit")
            << QByteArray("1") << QByteArray("1") << QByteArray("60") << qint64(0);
        QTest::newRow("quantity equals stock")
            << QByteArray("25") << QByteArray("25") << QByteArray("60") << qint64(0);
        QTest::newRow("quantity 1000000")
            << QByteArray("1000000") << QByteArray("1000000") << QByteArray("60") << qint64(0);
        QTest::newRow("stock 1000000000")
            << QByteArray("1000000000") << QByteArray("1") << QByteArray("60") << qint64(999999999);
        QTest::newRow("all maxima") << QByteArray("1000000000") << QByteArray("1000000")
                                    << QByteArray("31536000") << qint64(999000000);
        QTest::newRow("ttl 1") << QByteArray("5") << QByteArray("2") << QByteArray("1")
                               << qint64(3);
        QTest::newRow("ttl 31536000")
            << QByteArray("5") << QByteArray("5") << QByteArray("31536000") << qint64(0);
    }
    void deducts()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(qint64, remaining);
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
    void insufficient_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("quantity");
        QTest::newRow("0 < 1") << QByteArray("0") << QByteArray("1");
        QTest::newRow("5 < 6") << QByteArray("5") << QByteArray("6");
        QTest::newRow("1 < 1000000") << QByteArray("1") << QByteArray("1000000");
        QTest::newRow("999999 < 1000000") << QByteArray("999999") << QByteArray("1000000");
    }
    void insufficient()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        const Snapshot before = snap();
        QCOMPARE(render(deduct(quantity, "60")), QStringLiteral("{0,%1}").arg(stock));
        VERIFY_NOTHING_WRITTEN(before);
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
        const Snapshot before = snap();
        QCOMPARE(render(deduct(quantity, "60")), QStringLiteral("{-2,0}"));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(render(m_c->call({"EXISTS", Stock, Receipt})), QStringLiteral("0"));
        QCOMPARE(render(m_c->call({"DBSIZE"})), QStringLiteral("1"));
        QCOMPARE(render(m_c->call({"GET", "stock:{43}:available"})), QStringLiteral("\"10\""));
    }

    // Every invalid class of quantity and ttl, in every state of the keys: the arguments are
    // checked first (before the receipt and the stock), and nothing is written.
    void invalidArguments_data()
    {
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QByteArray>("ttl");
        QTest::addColumn<QString>("error");
        const QList<QPair<const char *, QByteArray>> bad{
            {"sign +", "+1"},
            {"sign -", "-1"},
            {"minus zero", "-0"},
            {"leading space", " 1"},
            {"trailing space", "1 "},
            {"tab", "\t1"},
            {"newline", "1\n"},
            {"NUL byte", QByteArray("1\0", 2)},
            {"decimal point", "1.0"},
            {"trailing point", "1."},
            {"exponent", "1e3"},
            {"leading zero", "01"},
            {"double zero", "00"},
            {"hex", "0x10"},
            {"inf", "inf"},
            {"nan", "nan"},
            {"letters", "abc"},
            {"thousands separator", "1,000"},
            {"empty", ""},
            {"zero", "0"},
            {"11 digits", "10000000000"},
            {"10 digits above bound", "9999999999"},
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
        QTest::newRow("both invalid: quantity first")
            << QByteArray("0") << QByteArray("0") << QStringLiteral("ERR invalid quantity");
    }
    void invalidArguments()
    {
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(QString, error);
        const auto check = [&](const char *state) {
            const Snapshot before = snap();
            auto r = deduct(quantity, ttl);
            QVERIFY2(!r.ok(), state);
            QCOMPARE(r.error().kind, RedisError::Kind::Server);
            QCOMPARE(r.error().code, QByteArray("ERR"));
            QCOMPARE(r.error().message, error);
            VERIFY_NOTHING_WRITTEN(before);
        };
        check("stock missing");
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        check("stock 100");
        if (QTest::currentTestFailed())
            return;
        QVERIFY(m_c->call({"SET", Receipt, "42", "EX", "100"}).ok());
        check("receipt present");
    }

    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args"); // after FCALL inventory_deduct_v1
        QTest::addColumn<QString>("error");
        const QString counts = QStringLiteral(
            "ERR expected two keys (stock, receipt) and two arguments (quantity, ttl)");
        QTest::newRow("0 keys 0 args") << QByteArrayList{"0"} << counts;
        QTest::newRow("0 keys 4 args") << QByteArrayList{"0", Stock, Receipt, "1", "60"} << counts;
        QTest::newRow("1 key 2 args") << QByteArrayList{"1", Stock, "1", "60"} << counts;
        QTest::newRow("1 key 3 args") << QByteArrayList{"1", Stock, Receipt, "1", "60"} << counts;
        QTest::newRow("2 keys 0 args") << QByteArrayList{"2", Stock, Receipt} << counts;
        QTest::newRow("2 keys 1 arg") << QByteArrayList{"2", Stock, Receipt, "1"} << counts;
        QTest::newRow("2 keys 3 args")
            << QByteArrayList{"2", Stock, Receipt, "1", "60", "x"} << counts;
        QTest::newRow("3 keys 2 args")
            << QByteArrayList{"3", Stock, Receipt, OtherReceipt, "1", "60"} << counts;
        QTest::newRow("3 keys 1 arg") << QByteArrayList{"3", Stock, Receipt, "1", "60"} << counts;
        QTest::newRow("numkeys above arguments")
            << QByteArrayList{"3", Stock, Receipt}
            << QStringLiteral("ERR Number of keys can't be greater than number of args");
        QTest::newRow("negative numkeys") << QByteArrayList{"-1", Stock, Receipt, "1", "60"}
                                          << QStringLiteral("ERR Number of keys can't be negative");
        QTest::newRow("numkeys not a number") << QByteArrayList{"x", Stock, Receipt, "1", "60"}
                                              << QStringLiteral("ERR Bad number of keys provided");
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        const Snapshot before = snap();
        auto r = m_c->call(QByteArrayList{"FCALL", Function} + args);
        QVERIFY2(!r.ok(), qPrintable(render(r)));
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().code, QByteArray("ERR"));
        QCOMPARE(r.error().message, error);
        VERIFY_NOTHING_WRITTEN(before);
    }

    // A stock value that is not a canonical integer within 1,000,000,000, or not a string,
    // is an error reply; neither the stock nor the receipt is touched.
    void invalidStock_data()
    {
        QTest::addColumn<QByteArrayList>("setup"); // creates the stock key
        const auto str = [](const QByteArray &v) {
            return QByteArrayList{"SET", Stock, v};
        };
        QTest::newRow("abc") << str("abc");
        QTest::newRow("-5") << str("-5");
        QTest::newRow("1.5") << str("1.5");
        QTest::newRow("01") << str("01");
        QTest::newRow("00") << str("00");
        QTest::newRow("+5") << str("+5");
        QTest::newRow("leading space") << str(" 5");
        QTest::newRow("trailing space") << str("5 ");
        QTest::newRow("1e3") << str("1e3");
        QTest::newRow("0x10") << str("0x10");
        QTest::newRow("empty") << str("");
        QTest::newRow("1000000001") << str("1000000001");
        QTest::newRow("11 digits") << str("10000000000");
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
        QVERIFY(before.keys.at(0).type != "none");
        auto r = deduct("1", "60");
        QVERIFY2(!r.ok(), qPrintable(render(r)));
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().code, QByteArray("ERR"));
        QCOMPARE(r.error().message, QStringLiteral("ERR invalid stock"));
        VERIFY_NOTHING_WRITTEN(before);
    }

    // Orders one after another until the stock runs out: each success records its own
    // remaining; insufficiency records nothing.
    void ordersUntilExhausted()
    {
        QCOMPARE(set(Stock, "3"), QStringLiteral("+OK"));
        QStringList got;
        for (int order = 1; order <= 5; ++order)
            got << render(m_c->call({"FCALL", Function, "2", Stock,
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
