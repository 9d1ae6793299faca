// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of inventory_release_v1 (functions/inventory_lib_v1.lua, 1.3.0, issue 32) against a
// real redis-server, one test per row of docs/contracts.md:
// FCALL inventory_release_v1 3 <stock key> <receipt key> <release key> <quantity> <ttl>
// A release gives back what one order's deduction took, once, and only while its receipt
// proves the deduction. Every refusal is followed by the proof that nothing was written.
#include "ContractTest.h"

#include <QRegularExpression>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

namespace {
const QByteArray Release = "rel:{42}:9001";
const QByteArray Function = "inventory_release_v1";
} // namespace

class TstContractRelease : public testsupport::ContractTest
{
    Q_OBJECT

public:
    TstContractRelease()
        : ContractTest({Stock, Receipt, OtherReceipt, Release})
    {}

private:
    static Command releaseCommand(const QByteArray &quantity, const QByteArray &ttl)
    {
        return {"FCALL", Function, "3", Stock, Receipt, Release, quantity, ttl};
    }
    ReplyResult release(const QByteArray &quantity, const QByteArray &ttl = "600")
    {
        return m_c->call(releaseCommand(quantity, ttl));
    }
    // Stock 10, order 9001 deducted by 3 through v2 (a hash receipt recording the quantity).
    void deductThree()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(run({"FCALL", "inventory_deduct_v2", "2", Stock, Receipt, "3", "600"}),
                 QStringLiteral("{1,7}"));
    }
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

    // A write function with a description: FCALL_RO refuses it and writes nothing.
    void isAWriteFunction()
    {
        const QString list = run({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY2(list.contains(
                     QStringLiteral("\"name\",\"inventory_release_v1\",\"description\",\"Release")),
                 qPrintable(list));
        deductThree();
        const Snapshot before = snap();
        const ReplyResult r =
            m_c->call({"FCALL_RO", Function, "3", Stock, Receipt, Release, "3", "60"});
        QVERIFY2(!r.ok() && r.error().message.english.contains(QStringLiteral("write flag")),
                 qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
    }

    // Row 1: the key and argument counts.
    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args");
        const QByteArrayList keys{Stock, Receipt, Release};
        QTest::newRow("2 keys 2 args") << QByteArrayList{"2", Stock, Receipt, "3", "60"};
        QTest::newRow("3 keys 1 arg") << QByteArrayList{"3"} + keys + QByteArrayList{"3"};
        QTest::newRow("3 keys 3 args")
            << QByteArrayList{"3"} + keys + QByteArrayList{"3", "60", "x"};
        QTest::newRow("4 keys 2 args")
            << QByteArrayList{"4"} + keys + QByteArrayList{OtherReceipt, "3", "60"};
        QTest::newRow("0 keys 0 args") << QByteArrayList{"0"};
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        deductThree();
        expectRefused(QByteArrayList{"FCALL", Function} + args,
                      QStringLiteral("ERR expected three keys (stock, receipt, release) and two "
                                     "arguments (quantity, ttl)"));
    }

    // Rows 2 and 3: the quantity, then the ttl, checked before any key is read, in every state
    // the keys can be in.
    void invalidArguments_data() { testsupport::addInvalidArgumentRows(); }
    void invalidArguments()
    {
        QFETCH(QByteArray, quantity);
        QFETCH(QByteArray, ttl);
        QFETCH(QString, error);
        const Command call = releaseCommand(quantity, ttl);
        expectRefused(call, error); // nothing at all
        deductThree();
        expectRefused(call, error); // a deduction to release
        QCOMPARE(render(release("3")), QStringLiteral("{1,10}"));
        expectRefused(call, error); // already released
    }

    // Row 4: the release key exists: {2, current stock}, whatever the quantity, the receipt
    // or the stock became since; nothing changes, however often.
    void alreadyReleased_data()
    {
        QTest::addColumn<QByteArrayList>("between");
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<QString>("reply");
        QTest::newRow("same call")
            << QByteArrayList{} << QByteArray("3") << QStringLiteral("{2,10}");
        QTest::newRow("another quantity")
            << QByteArrayList{} << QByteArray("5") << QStringLiteral("{2,10}");
        QTest::newRow("stock changed")
            << QByteArrayList{"SET", Stock, "4"} << QByteArray("3") << QStringLiteral("{2,4}");
        QTest::newRow("receipt gone")
            << QByteArrayList{"DEL", Receipt} << QByteArray("3") << QStringLiteral("{2,10}");
        QTest::newRow("stock key gone: -1")
            << QByteArrayList{"DEL", Stock} << QByteArray("3") << QStringLiteral("{2,-1}");
    }
    void alreadyReleased()
    {
        QFETCH(QByteArrayList, between);
        QFETCH(QByteArray, quantity);
        QFETCH(QString, reply);
        deductThree();
        QCOMPARE(render(release("3")), QStringLiteral("{1,10}"));
        if (!between.isEmpty())
            QVERIFY(m_c->call(between).ok());
        for (int i = 0; i < 3; ++i)
            expectUnchanged(releaseCommand(quantity, "600"), reply);
    }

    // Row 4: a release key nothing writes (another type), or an invalid stock behind one.
    void invalidReleaseRecord()
    {
        deductThree();
        QVERIFY(m_c->call({"HSET", Release, "quantity", "3"}).ok());
        expectRefused(releaseCommand("3", "600"), QStringLiteral("ERR invalid release"));
        QVERIFY(m_c->call({"DEL", Release}).ok());
        QCOMPARE(render(release("3")), QStringLiteral("{1,10}"));
        QCOMPARE(set(Stock, "abc"), QStringLiteral("+OK"));
        expectRefused(releaseCommand("3", "600"), QStringLiteral("ERR invalid stock"));
    }

    // Row 5: no receipt, no proven deduction: {-4, 0}, with or without stock.
    void receiptMissing()
    {
        expectUnchanged(releaseCommand("3", "600"), QStringLiteral("{-4,0}"));
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        expectUnchanged(releaseCommand("3", "600"), QStringLiteral("{-4,0}"));
        // Another order's receipt proves nothing about this one.
        QCOMPARE(run({"SET", OtherReceipt, "7", "EX", "600"}), QStringLiteral("+OK"));
        expectUnchanged(releaseCommand("3", "600"), QStringLiteral("{-4,0}"));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"10\""));
    }

    // Row 6: a receipt neither function writes.
    void invalidReceipt_data() { testsupport::addInvalidReceiptRows(Receipt); }
    void invalidReceipt()
    {
        QFETCH(QByteArrayList, setup);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QVERIFY(m_c->call(setup).ok());
        expectRefused(releaseCommand("3", "600"), QStringLiteral("ERR invalid receipt"));
    }

    // Row 7: a v2 receipt recording another quantity: {-3, recorded quantity}.
    void otherQuantity_data()
    {
        QTest::addColumn<QByteArray>("quantity");
        QTest::newRow("fewer") << QByteArray("1");
        QTest::newRow("more") << QByteArray("4");
        QTest::newRow("the bound") << QByteArray("1000000");
    }
    void otherQuantity()
    {
        QFETCH(QByteArray, quantity);
        deductThree();
        expectUnchanged(releaseCommand(quantity, "600"), QStringLiteral("{-3,3}"));
        QCOMPARE(render(release("3")), QStringLiteral("{1,10}"));
    }

    // Row 7: a v1 string receipt records no quantity: the argument is taken, and recorded.
    void v1ReceiptTakesTheArgument()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(run({"FCALL", "inventory_deduct_v1", "2", Stock, Receipt, "2", "600"}),
                 QStringLiteral("{1,8}"));
        QCOMPARE(render(release("5")), QStringLiteral("{1,13}"));
        QVERIFY(run({"GET", Release}).startsWith(QStringLiteral("\"quantity=5;time=")));
        QCOMPARE(run({"GET", Receipt}), QStringLiteral("\"8\""));
    }

    // Row 8: the stock key is missing: {-2, 0}; a release never creates stock.
    void stockMissing()
    {
        deductThree();
        QVERIFY(m_c->call({"DEL", Stock}).ok());
        expectUnchanged(releaseCommand("3", "600"), QStringLiteral("{-2,0}"));
    }

    // Row 9: an invalid stock, or one the release would take above 1,000,000,000.
    void invalidStock_data()
    {
        testsupport::addInvalidStockRows(Stock);
        QTest::newRow("result above the bound") << QByteArrayList{"SET", Stock, "999999998"};
    }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        deductThree();
        QVERIFY(m_c->call({"DEL", Stock}).ok());
        QVERIFY(m_c->call(setup).ok());
        expectRefused(releaseCommand("3", "600"), QStringLiteral("ERR invalid stock"));
    }

    // Row 9's edge: a result of exactly 1,000,000,000 is a release.
    void resultAtTheBound()
    {
        deductThree();
        QCOMPARE(set(Stock, "999999997"), QStringLiteral("+OK"));
        QCOMPARE(render(release("3")), QStringLiteral("{1,1000000000}"));
    }

    // Row 10: a caller who may INCRBY but not SET (or the reverse) is refused before the first
    // write; the same call by the default user then releases, so the permission was the reason.
    void partialPermission_data()
    {
        QTest::addColumn<QByteArray>("denied");
        QTest::newRow("may not SET") << QByteArray("SET");
        QTest::newRow("may not INCRBY") << QByteArray("INCRBY");
    }
    void partialPermission()
    {
        QFETCH(QByteArray, denied);
        deductThree();
        const auto user = connectAs({"~*", "+@all", "-" + denied.toLower()});
        QCOMPARE(user->state(), ConnectionState::Ready);
        const Snapshot before = snap();
        expectServerError(user->call(releaseCommand("3", "600")),
                          QStringLiteral("NOPERM this user may not run %1 on the keys of this "
                                         "release; nothing was written")
                              .arg(QString::fromLatin1(denied)));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(render(release("3")), QStringLiteral("{1,10}"));
    }

    // Row 11: INCRBY, the release key records the quantity and the server time with the TTL
    // asked; the receipt is left as it was, so a retry of the deduction is still answered
    // from it and deducts nothing.
    void releases()
    {
        deductThree();
        const QString receiptBefore = run({"HGETALL", Receipt});
        const qint64 t0 = serverMicros();
        QCOMPARE(render(release("3", "900")), QStringLiteral("{1,10}"));
        const qint64 t1 = serverMicros();
        const QByteArray record = m_c->call({"GET", Release})->bytes();
        const auto m =
            QRegularExpression(QStringLiteral("^quantity=3;time=([0-9]{10})\\.([0-9]{6})$"))
                .match(QString::fromLatin1(record));
        QVERIFY2(m.hasMatch(), record.constData());
        const qint64 micros = m.captured(1).toLongLong() * 1000000 + m.captured(2).toLongLong();
        QVERIFY2(micros >= t0 && micros <= t1, record.constData());
        const qint64 ttl = m_c->call({"PTTL", Release})->toInteger();
        QVERIFY2(ttl > 899000 && ttl <= 900000, qPrintable(QString::number(ttl)));
        QCOMPARE(run({"PTTL", Stock}), QStringLiteral("-1"));
        QCOMPARE(run({"HGETALL", Receipt}), receiptBefore);
        QCOMPARE(run({"FCALL", "inventory_deduct_v2", "2", Stock, Receipt, "3", "600"}),
                 QStringLiteral("{2,7}"));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"10\""));
        QCOMPARE(run({"DBSIZE"}), QStringLiteral("3"));
    }

    // The release key's TTL is the window in which a second release is recognised: once it
    // expires, a release of an order whose receipt still lives is applied again.
    void releaseExpiryEndsRecognition()
    {
        deductThree();
        QCOMPARE(render(release("3", "1")), QStringLiteral("{1,10}"));
        QCOMPARE(render(release("3", "1")), QStringLiteral("{2,10}"));
        QTRY_COMPARE_WITH_TIMEOUT(run({"EXISTS", Release}), QStringLiteral("0"), 3000);
        QCOMPARE(render(release("3")), QStringLiteral("{1,13}"));
    }
};

QTEST_GUILESS_MAIN(TstContractRelease)
#include "tst_contract_release.moc"
