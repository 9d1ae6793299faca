// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of inventory_adjust_v1 (functions/inventory_lib_v1.lua, 1.3.0, issue 32) against a
// real redis-server, one test per row of docs/contracts.md:
// FCALL inventory_adjust_v1 2 <stock key> <adjustment key> <delta> <ttl seconds>
// A manual correction, applied once per adjustment id, never taking the stock out of
// 0..1,000,000,000. Every refusal is followed by the proof that nothing was written.
#include "ContractTest.h"

#include <QRegularExpression>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

namespace {
const QByteArray Adjustment = "adj:{42}:fix-1";
const QByteArray OtherAdjustment = "adj:{42}:fix-2";
const QByteArray Function = "inventory_adjust_v1";
} // namespace

class TstContractAdjust : public testsupport::ContractTest
{
    Q_OBJECT

public:
    TstContractAdjust()
        : ContractTest({Stock, Adjustment, OtherAdjustment})
    {}

private:
    static Command adjustCommand(const QByteArray &delta, const QByteArray &ttl = "600",
                                 const QByteArray &key = Adjustment)
    {
        return {"FCALL", Function, "2", Stock, key, delta, ttl};
    }
    ReplyResult adjust(const QByteArray &delta, const QByteArray &ttl = "600",
                       const QByteArray &key = Adjustment)
    {
        return m_c->call(adjustCommand(delta, ttl, key));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(
            testsupport::functionSource("inventory_lib_v1.lua").contains("\n-- version: 1.3.0\n"));
        startWithLibrary();
    }

    void init() { flushAll(); }

    void isAWriteFunction()
    {
        const QString list = run({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
        QVERIFY2(list.contains(
                     QStringLiteral("\"name\",\"inventory_adjust_v1\",\"description\",\"Adjust")),
                 qPrintable(list));
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        const Snapshot before = snap();
        const ReplyResult r = m_c->call({"FCALL_RO", Function, "2", Stock, Adjustment, "1", "60"});
        QVERIFY2(!r.ok() && r.error().message.english.contains(QStringLiteral("write flag")),
                 qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
    }

    // Row 1: the key and argument counts.
    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args");
        QTest::newRow("1 key 2 args") << QByteArrayList{"1", Stock, "1", "60"};
        QTest::newRow("2 keys 1 arg") << QByteArrayList{"2", Stock, Adjustment, "1"};
        QTest::newRow("2 keys 3 args") << QByteArrayList{"2", Stock, Adjustment, "1", "60", "x"};
        QTest::newRow("3 keys 2 args")
            << QByteArrayList{"3", Stock, Adjustment, OtherAdjustment, "1", "60"};
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        expectRefused(QByteArrayList{"FCALL", Function} + args,
                      QStringLiteral("ERR expected two keys (stock, adjustment) and two "
                                     "arguments (delta, ttl)"));
    }

    // Row 2: a delta is a canonical quantity with at most one leading '-': nothing else, in
    // every state the keys can be in (before the ttl, the record and the stock are read).
    void invalidDelta_data()
    {
        QTest::addColumn<QByteArray>("delta");
        for (const char *d :
             {"0",   "-0",      "+1",       "01",          "-01",         "00",  " 1",   "1 ",
              "- 1", "--1",     "-",        "1.0",         "-1.5",        "1e3", "0x10", "abc",
              "",    "1000001", "-1000001", "10000000000", "-9999999999", "1-",  "\t-1"})
            QTest::newRow(*d ? d : "empty") << QByteArray(d);
        QTest::newRow("NUL byte") << QByteArray("-1\0", 3);
    }
    void invalidDelta()
    {
        QFETCH(QByteArray, delta);
        const QString error = QStringLiteral("ERR invalid delta");
        expectRefused(adjustCommand(delta), error);
        expectRefused(adjustCommand(delta, "0"), error); // the delta is checked first
        QCOMPARE(set(Stock, "500"), QStringLiteral("+OK"));
        expectRefused(adjustCommand(delta), error);
        QCOMPARE(render(adjust("1")), QStringLiteral("{1,501}"));
        expectRefused(adjustCommand(delta), error);
    }

    // Row 3: the ttl, as every function of the library checks it.
    void invalidTtl_data() { testsupport::addInvalidNumberRows("ttl"); }
    void invalidTtl()
    {
        QFETCH(QByteArray, ttl);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        expectRefused(adjustCommand("-1", ttl), QStringLiteral("ERR invalid ttl"));
        expectRefused(adjustCommand("1", ttl), QStringLiteral("ERR invalid ttl"));
    }
    void ttlAboveTheBound()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        expectRefused(adjustCommand("1", "31536001"), QStringLiteral("ERR invalid ttl"));
        QCOMPARE(render(adjust("1", "31536000")), QStringLiteral("{1,11}"));
    }

    // Row 4: the same adjustment id again: {2, current stock}, whatever the delta this time
    // and whatever happened to the stock since; -1 when the stock key is gone.
    void alreadyApplied_data()
    {
        QTest::addColumn<QByteArrayList>("between");
        QTest::addColumn<QByteArray>("delta");
        QTest::addColumn<QString>("reply");
        QTest::newRow("same call")
            << QByteArrayList{} << QByteArray("-4") << QStringLiteral("{2,6}");
        QTest::newRow("another delta")
            << QByteArrayList{} << QByteArray("7") << QStringLiteral("{2,6}");
        QTest::newRow("a delta the stock refuses")
            << QByteArrayList{} << QByteArray("-1000") << QStringLiteral("{2,6}");
        QTest::newRow("stock changed")
            << QByteArrayList{"SET", Stock, "40"} << QByteArray("-4") << QStringLiteral("{2,40}");
        QTest::newRow("stock key gone: -1")
            << QByteArrayList{"DEL", Stock} << QByteArray("-4") << QStringLiteral("{2,-1}");
    }
    void alreadyApplied()
    {
        QFETCH(QByteArrayList, between);
        QFETCH(QByteArray, delta);
        QFETCH(QString, reply);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(adjust("-4")), QStringLiteral("{1,6}"));
        if (!between.isEmpty())
            QVERIFY(m_c->call(between).ok());
        for (int i = 0; i < 3; ++i)
            expectUnchanged(adjustCommand(delta), reply);
    }

    // Row 4: an adjustment key nothing writes, or an invalid stock behind a record.
    void invalidAdjustmentRecord()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QVERIFY(m_c->call({"RPUSH", Adjustment, "1"}).ok());
        expectRefused(adjustCommand("1"), QStringLiteral("ERR invalid adjustment"));
        QVERIFY(m_c->call({"DEL", Adjustment}).ok());
        QCOMPARE(render(adjust("1")), QStringLiteral("{1,11}"));
        QCOMPARE(set(Stock, "-3"), QStringLiteral("+OK"));
        expectRefused(adjustCommand("1"), QStringLiteral("ERR invalid stock"));
    }

    // Row 5: a correction never creates stock.
    void stockMissing()
    {
        expectUnchanged(adjustCommand("5"), QStringLiteral("{-2,0}"));
        expectUnchanged(adjustCommand("-5"), QStringLiteral("{-2,0}"));
    }

    // Row 6.
    void invalidStock_data() { testsupport::addInvalidStockRows(Stock); }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        expectRefused(adjustCommand("1"), QStringLiteral("ERR invalid stock"));
    }

    // Row 7: below 0 or above 1,000,000,000: {0, current stock}, not recorded, so the same
    // id is applied once the stock allows it.
    void outOfBounds_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("delta");
        QTest::newRow("5 - 6") << QByteArray("5") << QByteArray("-6");
        QTest::newRow("0 - 1") << QByteArray("0") << QByteArray("-1");
        QTest::newRow("1000000000 + 1") << QByteArray("1000000000") << QByteArray("1");
        QTest::newRow("999999999 + 1000000") << QByteArray("999999999") << QByteArray("1000000");
    }
    void outOfBounds()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, delta);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        expectUnchanged(adjustCommand(delta), QStringLiteral("{0,%1}").arg(stock));
        QCOMPARE(set(Stock, "500000"), QStringLiteral("+OK"));
        QCOMPARE(render(adjust(delta)), QStringLiteral("{1,%1}").arg(500000 + delta.toLongLong()));
    }

    // Row 8: a caller who may INCRBY but not SET (or the reverse) is refused before the first
    // write.
    void partialPermission_data()
    {
        QTest::addColumn<QByteArray>("denied");
        QTest::newRow("may not SET") << QByteArray("SET");
        QTest::newRow("may not INCRBY") << QByteArray("INCRBY");
    }
    void partialPermission()
    {
        QFETCH(QByteArray, denied);
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        const auto user = connectAs({"~*", "+@all", "-" + denied.toLower()});
        QCOMPARE(user->state(), ConnectionState::Ready);
        const Snapshot before = snap();
        expectServerError(user->call(adjustCommand("-2")),
                          QStringLiteral("NOPERM this user may not run %1 on the keys of this "
                                         "adjustment; nothing was written")
                              .arg(QString::fromLatin1(denied)));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(render(adjust("-2")), QStringLiteral("{1,8}"));
    }

    // Row 9: INCRBY by the delta; the adjustment key records the delta as sent and the server
    // time, with the TTL asked; the stock keeps no TTL.
    void applies_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("delta");
        QTest::addColumn<qint64>("after");
        QTest::newRow("10 + 5") << QByteArray("10") << QByteArray("5") << qint64(15);
        QTest::newRow("10 - 10") << QByteArray("10") << QByteArray("-10") << qint64(0);
        QTest::newRow("0 + 1000000") << QByteArray("0") << QByteArray("1000000") << qint64(1000000);
        QTest::newRow("to the bound")
            << QByteArray("999000000") << QByteArray("1000000") << qint64(1000000000);
        QTest::newRow("from the bound")
            << QByteArray("1000000000") << QByteArray("-1000000") << qint64(999000000);
    }
    void applies()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, delta);
        QFETCH(qint64, after);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        QCOMPARE(render(adjust(delta, "900")), QStringLiteral("{1,%1}").arg(after));
        QCOMPARE(run({"GET", Stock}), QStringLiteral("\"%1\"").arg(after));
        QCOMPARE(run({"PTTL", Stock}), QStringLiteral("-1"));
        const QByteArray record = m_c->call({"GET", Adjustment})->bytes();
        QVERIFY2(
            QRegularExpression(QStringLiteral("^delta=%1;time=[0-9]{10}\\.[0-9]{6}$")
                                   .arg(QRegularExpression::escape(QString::fromLatin1(delta))))
                .match(QString::fromLatin1(record))
                .hasMatch(),
            record.constData());
        const qint64 ttl = m_c->call({"PTTL", Adjustment})->toInteger();
        QVERIFY2(ttl > 899000 && ttl <= 900000, qPrintable(QString::number(ttl)));
        QCOMPARE(run({"DBSIZE"}), QStringLiteral("2"));
        // Another id is another correction.
        const QByteArray other = after > 0 ? "-1" : "1";
        QCOMPARE(render(adjust(other, "900", OtherAdjustment)),
                 QStringLiteral("{1,%1}").arg(after + other.toLongLong()));
    }
};

QTEST_GUILESS_MAIN(TstContractAdjust)
#include "tst_contract_adjust.moc"
