// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of inventory_receipt_v1 (functions/inventory_lib_v1.lua, 1.3.0) against a real
// redis-server:
// FCALL_RO inventory_receipt_v1 1 <receipt key>
// {1, remaining, ttl seconds (-1: none), quantity (-1: a v1 receipt)} or {0, 0, -2, -1}.
// It carries the no-writes flag, reads both receipt forms and never writes.
#include "ContractTest.h"

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

namespace {
const QByteArray Function = "inventory_receipt_v1";
} // namespace

class TstContractReceipt : public testsupport::ContractTest
{
    Q_OBJECT

public:
    TstContractReceipt()
        : ContractTest({Stock, Receipt})
    {}

private:
    ReplyResult receipt(const QByteArray &key = Receipt, const QByteArray &call = "FCALL_RO")
    {
        return m_c->call({call, Function, "1", key});
    }
    // "{1,7,<ttl>,3}" with the TTL within one second below `ttl`.
    void expectReceipt(const ReplyResult &r, qint64 remaining, qint64 ttl, qint64 quantity)
    {
        QVERIFY2(r.ok() && r->isArray() && r->size() == 4, qPrintable(render(r)));
        QCOMPARE(render(r->at(0)), QStringLiteral("1"));
        QCOMPARE(render(r->at(1)), QString::number(remaining));
        const qint64 got = r->at(2).toInteger();
        QVERIFY2(r->at(2).isInteger() && (ttl < 0 ? got == ttl : got <= ttl && got >= ttl - 1),
                 qPrintable(render(r)));
        QCOMPARE(render(r->at(3)), QString::number(quantity));
    }

private slots:
    void initTestCase() { startWithLibrary(); }

    void init() { flushAll(); }

    void isFlaggedNoWrites()
    {
        const QString list = run({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY2(list.contains(QStringLiteral("\"name\",\"inventory_receipt_v1\",\"description\","
                                              "\"Read an order receipt")),
                 qPrintable(list));
        QVERIFY2(list.contains(QStringLiteral("\"inventory_receipt_v1\",\"description\",\"Read an "
                                              "order receipt (either form): KEYS receipt. Returns "
                                              "{1,remaining,ttl,quantity or -1} | {0,0,-2,-1}\","
                                              "\"flags\",{+no-writes}")),
                 qPrintable(list));
    }

    void missingReceipt()
    {
        const Snapshot before = snap();
        QCOMPARE(render(receipt()), QStringLiteral("{0,0,-2,-1}"));
        QCOMPARE(render(receipt(Receipt, "FCALL")), QStringLiteral("{0,0,-2,-1}"));
        VERIFY_NOTHING_WRITTEN(before);
    }

    // The receipt inventory_deduct_v2 writes: remaining, TTL and quantity.
    void v2Receipt()
    {
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(run({"FCALL", "inventory_deduct_v2", "2", Stock, Receipt, "3", "600"}),
                 QStringLiteral("{1,7}"));
        const Snapshot before = snap();
        expectReceipt(receipt(), 7, 600, 3);
        expectReceipt(receipt(Receipt, "FCALL"), 7, 600, 3); // FCALL may run it too
        VERIFY_NOTHING_WRITTEN(before);
    }

    // The receipt inventory_deduct_v1 writes: a string, no quantity (-1).
    void v1Receipt()
    {
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        QCOMPARE(run({"FCALL", "inventory_deduct_v1", "2", Stock, Receipt, "4", "600"}),
                 QStringLiteral("{1,6}"));
        const Snapshot before = snap();
        expectReceipt(receipt(), 6, 600, -1);
        VERIFY_NOTHING_WRITTEN(before);
    }

    // TTL -1 when a receipt has none (someone ran PERSIST): protection without end.
    void receiptWithoutTtl_data()
    {
        QTest::addColumn<QByteArrayList>("setup");
        QTest::addColumn<qint64>("quantity");
        QTest::newRow("v1") << QByteArrayList{"SET", Receipt, "0"} << qint64(-1);
        QTest::newRow("v2") << QByteArrayList{"HSET",     Receipt,   "remaining", "0",
                                              "quantity", "1000000", "time",      "1.000000"}
                            << qint64(1000000);
    }
    void receiptWithoutTtl()
    {
        QFETCH(QByteArrayList, setup);
        QFETCH(qint64, quantity);
        QVERIFY(m_c->call(setup).ok());
        const Snapshot before = snap();
        expectReceipt(receipt(), 0, -1, quantity);
        VERIFY_NOTHING_WRITTEN(before);
    }

    void expiredReceiptIsMissing()
    {
        QVERIFY(m_c->call({"HSET", Receipt, "remaining", "5", "quantity", "2"}).ok());
        QVERIFY(m_c->call({"PEXPIRE", Receipt, "50"}).ok());
        QTRY_COMPARE_WITH_TIMEOUT(render(receipt()), QStringLiteral("{0,0,-2,-1}"), 2000);
    }

    void invalidReceipt_data()
    {
        testsupport::addInvalidReceiptRows(Receipt);
        QTest::newRow("string not a number") << QByteArrayList{"SET", Receipt, "abc"};
        QTest::newRow("string negative") << QByteArrayList{"SET", Receipt, "-1"};
        QTest::newRow("string with leading zero") << QByteArrayList{"SET", Receipt, "07"};
    }
    void invalidReceipt()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        expectRefused({"FCALL_RO", Function, "1", Receipt}, QStringLiteral("ERR invalid receipt"));
    }

    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args");
        QTest::addColumn<QString>("error");
        const QString counts = QStringLiteral("ERR expected one key (receipt) and no arguments");
        QTest::newRow("0 keys") << QByteArrayList{"0"} << counts;
        QTest::newRow("0 keys 1 arg") << QByteArrayList{"0", Receipt} << counts;
        QTest::newRow("1 key 1 arg") << QByteArrayList{"1", Receipt, "x"} << counts;
        QTest::newRow("2 keys") << QByteArrayList{"2", Receipt, Stock} << counts;
        QTest::newRow("numkeys above arguments")
            << QByteArrayList{"2", Receipt}
            << QStringLiteral("ERR Number of keys can't be greater than number of args");
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QVERIFY(m_c->call({"SET", Receipt, "7"}).ok());
        expectRefused(QByteArrayList{"FCALL_RO", Function} + args, error);
    }

    // Support staff get a user that may read receipts and nothing else: FCALL_RO, the reads
    // the function makes (TYPE, GET, HMGET, TTL: ACL checks commands inside scripts too) and
    // read-only access to the receipt keys are enough; that same user cannot deduct.
    void readOnlyUserCanCheck()
    {
        QCOMPARE(run({"ACL", "SETUSER", "support", "reset", "on", ">support-pw", "+fcall_ro",
                      "+client|setname", "+echo", "+type", "+get", "+hmget", "+ttl", "%R~idem:*"}),
                 QStringLiteral("+OK"));
        QVERIFY(m_c->call({"HSET", Receipt, "remaining", "5", "quantity", "2"}).ok());
        QCOMPARE(run({"SET", Stock, "10"}), QStringLiteral("+OK"));
        ConnectionOptions o = m_redis.options();
        o.username = QStringLiteral("support");
        o.password = QStringLiteral("support-pw");
        const auto support = m_redis.connect(o);
        QCOMPARE(support->state(), ConnectionState::Ready);
        expectReceipt(support->call({"FCALL_RO", Function, "1", Receipt}), 5, -1, 2);
        const Snapshot before = snap();
        const ReplyResult deduct =
            support->call({"FCALL", "inventory_deduct_v2", "2", Stock, "idem:{42}:1", "1", "60"});
        QVERIFY2(!deduct.ok() && deduct.error().code == "NOPERM", qPrintable(render(deduct)));
        VERIFY_NOTHING_WRITTEN(before);
        QVERIFY(m_c->call({"ACL", "DELUSER", "support"}).ok());
    }
};

QTEST_GUILESS_MAIN(TstContractReceipt)
#include "tst_contract_receipt.moc"
