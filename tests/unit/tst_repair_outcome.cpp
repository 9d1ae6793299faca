// SPDX-License-Identifier: GPL-3.0-or-later
// The one boundary where repair replies become outcomes (issue 32): each row of the release
// and adjust contracts has its name, and a reply of any other shape is an anomaly ("may have
// written"), never a default. Also the repair key templates and the plans built from them.
#include "inventory/AdjustOutcome.h"
#include "inventory/ReleaseOutcome.h"
#include "inventory/Repairer.h"

#include <QTest>

using namespace inventory;
using redis::Reply;

namespace {
Reply pair(qint64 code, qint64 value)
{
    return Reply::array({Reply::integer(code), Reply::integer(value)});
}
} // namespace

class TstRepairOutcome : public QObject
{
    Q_OBJECT

private slots:
    void releaseRows_data()
    {
        QTest::addColumn<qint64>("code");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("name");
        QTest::newRow("released") << qint64(1) << qint64(10) << "released";
        QTest::newRow("already released") << qint64(2) << qint64(10) << "already_released";
        QTest::newRow("already released, stock gone")
            << qint64(2) << qint64(-1) << "already_released";
        QTest::newRow("no receipt") << qint64(-4) << qint64(0) << "no_receipt";
        QTest::newRow("other quantity") << qint64(-3) << qint64(5) << "other_quantity";
        QTest::newRow("stock missing") << qint64(-2) << qint64(0) << "stock_missing";
        // Outside the contract: may have written.
        QTest::newRow("stock after below the quantity")
            << qint64(1) << qint64(2) << "may_have_written";
        QTest::newRow("-3 with this call's quantity")
            << qint64(-3) << qint64(3) << "may_have_written";
        QTest::newRow("-4 with a value") << qint64(-4) << qint64(1) << "may_have_written";
        QTest::newRow("code 0") << qint64(0) << qint64(0) << "may_have_written";
        QTest::newRow("above the bound") << qint64(1) << qint64(1000000001) << "may_have_written";
    }
    void releaseRows()
    {
        QFETCH(qint64, code);
        QFETCH(qint64, value);
        QFETCH(QString, name);
        const RepairOutcome o = decodeReleaseReply(pair(code, value), 3);
        QCOMPARE(o.name(), name);
        QCOMPARE(o.anomaly.isEmpty(), name != QLatin1String("may_have_written"));
    }

    void adjustRows_data()
    {
        QTest::addColumn<qint64>("delta");
        QTest::addColumn<qint64>("code");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("name");
        QTest::newRow("adjusted down") << qint64(-4) << qint64(1) << qint64(6) << "adjusted";
        QTest::newRow("adjusted up") << qint64(5) << qint64(1) << qint64(15) << "adjusted";
        QTest::newRow("already applied")
            << qint64(5) << qint64(2) << qint64(3) << "already_applied";
        QTest::newRow("below 0") << qint64(-7) << qint64(0) << qint64(6) << "out_of_bounds";
        QTest::newRow("above the bound")
            << qint64(2) << qint64(0) << qint64(999999999) << "out_of_bounds";
        QTest::newRow("stock missing") << qint64(1) << qint64(-2) << qint64(0) << "stock_missing";
        // A refusal the delta could not cause, a stock after it cannot reach: anomalies.
        QTest::newRow("refused though it fits")
            << qint64(-7) << qint64(0) << qint64(7) << "may_have_written";
        QTest::newRow("up to below the delta")
            << qint64(5) << qint64(1) << qint64(4) << "may_have_written";
        QTest::newRow("-4 from adjust")
            << qint64(1) << qint64(-4) << qint64(0) << "may_have_written";
    }
    void adjustRows()
    {
        QFETCH(qint64, delta);
        QFETCH(qint64, code);
        QFETCH(qint64, value);
        QFETCH(QString, name);
        QCOMPARE(decodeAdjustReply(pair(code, value), delta).name(), name);
    }

    // Shapes no repair returns could not be read: never an outcome with a default value.
    void unexpectedShapes_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::newRow("three elements")
            << Reply::array({Reply::integer(1), Reply::integer(10), Reply::integer(0)});
        QTest::newRow("code as a string") << Reply::array({Reply::bulk("1"), Reply::integer(10)});
        QTest::newRow("value as a string") << Reply::array({Reply::integer(1), Reply::bulk("10")});
        QTest::newRow("a status") << Reply::status("OK");
        QTest::newRow("nil") << Reply::nil();
    }
    void unexpectedShapes()
    {
        QFETCH(Reply, reply);
        for (const RepairOutcome &o : {decodeReleaseReply(reply, 3), decodeAdjustReply(reply, 3)}) {
            QCOMPARE(o.kind, RepairOutcomeKind::MayHaveWritten);
            QVERIFY(!o.anomaly.isEmpty());
            QVERIFY(!o.stock);
        }
    }

    // The contract's refusals prove nothing was written; an error from inside the function
    // does not.
    void errors()
    {
        const auto error = [](const QByteArray &line) {
            return redis::ReplyResult(redis::RedisError::fromServer(line));
        };
        QCOMPARE(decodeAdjustReply(error("ERR invalid delta"), 1).kind,
                 RepairOutcomeKind::Rejected);
        QCOMPARE(decodeReleaseReply(error("ERR invalid release"), 1).kind,
                 RepairOutcomeKind::Rejected);
        QCOMPARE(decodeReleaseReply(error("NOPERM this user may not run SET on the keys of this "
                                          "release; nothing was written"),
                                    1)
                     .kind,
                 RepairOutcomeKind::Rejected);
        QCOMPARE(decodeReleaseReply(error("ERR something script: inventory_release_v1, on "
                                          "@user_function:300."),
                                    1)
                     .kind,
                 RepairOutcomeKind::MayHaveWritten);
    }

    void templatesKeepTheStockHashTag()
    {
        const KeySchema defaults;
        QCOMPARE(defaults.releaseKey("42", "9001"), QByteArray("rel:{42}:9001"));
        QCOMPARE(defaults.adjustmentKey("42", "fix-1"), QByteArray("adj:{42}:fix-1"));
        QVERIFY(defaults.withRepairTemplates("rel:{<sku>}:<order>", "adj:{<sku>}:<id>").ok());
        for (const auto &[release, adjustment] :
             {std::pair{"rel:<sku>:<order>", "adj:{<sku>}:<id>"},     // no hash tag
              std::pair{"idem:{<sku>}:r<order>", "adj:{<sku>}:<id>"}, // the receipts' family
              std::pair{"rel:{<sku>}:<order>", "adj:{<sku>}"},        // no <id>
              std::pair{"rel:{<sku><order>}", "adj:{<sku>}:<id>"}})   // nothing between
            QVERIFY2(!defaults.withRepairTemplates(release, adjustment).ok(), release);
        const auto custom =
            defaults.withRepairTemplates("release/{<sku>}/<order>", "fix/{<sku>}/<id>");
        QVERIFY(custom.ok());
        QCOMPARE(custom.value().releaseKey("42", "9001"), QByteArray("release/{42}/9001"));
    }

    void plans()
    {
        RepairRequest r{RepairKind::Adjust, "42", "fix-1", "-5", "600", "recount"};
        RepairPlan p = planRepair(r, KeySchema());
        QVERIFY(p.ok());
        QCOMPARE(p.command,
                 (redis::Command{"FCALL", "inventory_adjust_v1", "2", "stock:{42}:available",
                                 "adj:{42}:fix-1", "-5", "600"}));
        for (const char *bad : {"-0", "+1", "01", "0", "1000001", "--1", ""}) {
            r.amount = bad;
            QVERIFY2(!planRepair(r, KeySchema()).ok(), bad);
        }
        r.amount = "1";
        r.reason = " ";
        QVERIFY(planRepair(r, KeySchema()).problems.first().field == QLatin1String("reason"));
        const RepairPlan release =
            planRepair({RepairKind::Release, "42", "9001", "3", "600", {}}, KeySchema());
        QVERIFY(release.ok());
        QCOMPARE(release.command,
                 (redis::Command{"FCALL", "inventory_release_v1", "3", "stock:{42}:available",
                                 "idem:{42}:9001", "rel:{42}:9001", "3", "600"}));
    }

    // What a read of the record key proves after a lost reply.
    void settlement()
    {
        const RepairPlan plan =
            planRepair({RepairKind::Release, "42", "9001", "3", "600", {}}, KeySchema());
        RecordReading r;
        QVERIFY(settleRepair(plan, r).sentence.startsWith("not proven: "));
        r.read = true;
        r.error = core::Sentence::plain(QStringLiteral("timeout"));
        QVERIFY(!settleRepair(plan, r).applied);
        r.error = {};
        QVERIFY(settleRepair(plan, r).sentence.contains("does not exist"));
        r.value = QByteArray("hello");
        QVERIFY(settleRepair(plan, r).sentence.contains("which no release writes"));
        r.value = QByteArray("quantity=3;time=1700000000.123456");
        r.ttlSeconds = 500;
        const RepairSettlement s = settleRepair(plan, r);
        QVERIFY(s.applied);
        QVERIFY2(s.sentence.startsWith("released: the release key rel:{42}:9001 exists"),
                 qPrintable(s.sentence));
        QVERIFY(s.settled() && !s.otherAmount);
        // The same key with another quantity: another release wrote it, not this one.
        r.value = QByteArray("quantity=5;time=1700000000.123456");
        const RepairSettlement other = settleRepair(plan, r);
        QVERIFY(!other.applied);
        QVERIFY(other.settled());
        QCOMPARE(other.otherAmount, std::optional<QByteArray>("5"));
        QVERIFY2(other.sentence.startsWith("not this release: the release key rel:{42}:9001 "
                                           "holds quantity=5"),
                 qPrintable(other.sentence));
    }
};

QTEST_GUILESS_MAIN(TstRepairOutcome)
#include "tst_repair_outcome.moc"
