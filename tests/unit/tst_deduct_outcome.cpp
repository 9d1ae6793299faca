// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding deduction replies into outcomes (v1, and the codes v2 will add), receipt replies,
// and the transport failures that make an outcome unknown or leave it unsent.
#include "inventory/DeductionOutcome.h"
#include "inventory/ReceiptCheck.h"

#include <QTest>

using namespace inventory;
using redis::RedisError;
using redis::Reply;

namespace {
Reply pair(qint64 a, qint64 b)
{
    return Reply::array({Reply::integer(a), Reply::integer(b)});
}
} // namespace

class TstDeductOutcome : public QObject
{
    Q_OBJECT

private slots:
    void functionReplies()
    {
        auto o = decodeFunctionReply(pair(1, 7));
        QCOMPARE(o.kind, OutcomeKind::Deducted);
        QCOMPARE(o.remaining, 7);
        o = decodeFunctionReply(pair(2, 7));
        QCOMPARE(o.kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(o.remaining, 7);
        QVERIFY(!o.recordedQuantity);
        o = decodeFunctionReply(pair(0, 2));
        QCOMPARE(o.kind, OutcomeKind::Insufficient);
        QCOMPARE(o.stock, 2);
        o = decodeFunctionReply(pair(-2, 0));
        QCOMPARE(o.kind, OutcomeKind::StockMissing);
        // v2: applied before with another quantity; nothing changed.
        o = decodeFunctionReply(pair(-3, 5), ReplyContract::FunctionV2, 3);
        QCOMPARE(o.kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(o.recordedQuantity, 5);
        QVERIFY(o.meaning(DeductionMode::Function).contains(QLatin1String("quantity 5")));
        // A receipt that is not a number is still a duplicate.
        o = decodeFunctionReply(Reply::array({Reply::integer(2), Reply::bulk("abc")}));
        QCOMPARE(o.kind, OutcomeKind::AlreadyApplied);
        QVERIFY(!o.remaining);
    }

    // A reply we cannot read: the call ran, and a reply outside the contract proves nothing
    // about what it did: it may have written.
    void unreadableRepliesMayHaveWritten_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::newRow("integer") << Reply::integer(1);
        QTest::newRow("short array") << Reply::array({Reply::integer(1)});
        QTest::newRow("unknown code") << pair(9, 1);
        QTest::newRow("nil") << Reply::nil();
        QTest::newRow("deducted without remaining")
            << Reply::array({Reply::integer(1), Reply::bulk("x")});
    }
    void unreadableRepliesMayHaveWritten()
    {
        QFETCH(Reply, reply);
        const auto o = decodeFunctionReply(reply);
        QCOMPARE(o.kind, OutcomeKind::MayHaveWritten);
        QVERIFY(o.outsideContract());
        QCOMPARE(o.replyText, reply.debugString());
        // Described in words, never dumped raw into the sentence (issue 14, item 8).
        QVERIFY2(!o.summary().contains(QLatin1String("(integer)")), qPrintable(o.summary()));
        QVERIFY(!o.summary().contains(QLatin1Char('[')));
        QVERIFY(!o.anomaly.isEmpty());
    }

    // Issue 14, item 8: `recorded remaining [(integer) 2, "abc"]` and "Deducted -1".
    void anomalousValuesAreWordsNotRawReplies()
    {
        const auto text =
            decodeFunctionReply(Reply::array({Reply::integer(2), Reply::bulk("abc")}));
        QCOMPARE(text.kind, OutcomeKind::AlreadyApplied);
        for (const QString &s : {text.summary(), text.meaning(DeductionMode::Function)}) {
            QVERIFY2(!s.contains(QLatin1String("(integer)")), qPrintable(s));
            QVERIFY2(!s.contains(QLatin1String("abc")), qPrintable(s));
            QVERIFY2(s.contains(QLatin1String("not a number")), qPrintable(s));
            QVERIFY2(s.contains(QLatin1String("anomal")), qPrintable(s));
        }
        // A negative remaining is never "deducted".
        const auto negative = decodeFunctionReply(pair(1, -1));
        QCOMPARE(negative.kind, OutcomeKind::MayHaveWritten);
        QVERIFY(!negative.remaining);
        QVERIFY2(negative.summary().contains(QLatin1String("below zero")),
                 qPrintable(negative.summary()));
        QCOMPARE(decodeScriptReply(pair(1, -1)).kind, OutcomeKind::MayHaveWritten);
        QCOMPARE(decodeScriptReply(pair(0, -5)).kind, OutcomeKind::MayHaveWritten);
        // A negative recorded remaining: still a duplicate, but the value is an anomaly.
        const auto recorded = decodeFunctionReply(pair(2, -4));
        QCOMPARE(recorded.kind, OutcomeKind::AlreadyApplied);
        QVERIFY(!recorded.remaining);
        QVERIFY2(recorded.summary().contains(QLatin1String("below zero")),
                 qPrintable(recorded.summary()));
        QVERIFY(!recorded.meaning(DeductionMode::Function).contains(QLatin1String("-4")));
        const auto code = decodeFunctionReply(pair(9, 1));
        QVERIFY2(code.summary().contains(QLatin1String("code 9")), qPrintable(code.summary()));
    }

    void scriptReplies()
    {
        QCOMPARE(decodeScriptReply(pair(1, 4)).kind, OutcomeKind::Deducted);
        QCOMPARE(decodeScriptReply(pair(0, 4)).stock, 4);
        QCOMPARE(decodeScriptReply(pair(-1, 0)).kind, OutcomeKind::StockMissing);
        QCOMPARE(decodeScriptReply(pair(-2, 0)).kind, OutcomeKind::MayHaveWritten);
        QCOMPARE(decodeScriptReply(pair(2, 4)).kind, OutcomeKind::MayHaveWritten);
    }

    // Issue 29, D4: replies outside docs/contracts.md were read as known outcomes ("deducted",
    // "already applied with quantity 0", "stock missing, nothing was written"). Each contract
    // has its own codes, integer types, two elements and ranges; anything else may have
    // written, and the record keeps the reply as it came.
    void hostileRepliesMayHaveWritten_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::addColumn<int>("contract");
        QTest::addColumn<qint64>("quantity");
        const int v1 = int(ReplyContract::FunctionV1), v2 = int(ReplyContract::FunctionV2),
                  script = int(ReplyContract::Script);
        QTest::newRow("v1 remaining absurd") << pair(1, 9223372036854775807LL) << v1 << 3LL;
        QTest::newRow("script remaining absurd") << pair(1, 9223372036854775807LL) << script << 3LL;
        QTest::newRow("remaining above stock bound - quantity") << pair(1, 999999998) << v1 << 3LL;
        QTest::newRow("three elements")
            << Reply::array({Reply::integer(1), Reply::integer(97), Reply::integer(5)}) << v1
            << 3LL;
        QTest::newRow("strings") << Reply::array({Reply::bulk("1"), Reply::bulk("97")}) << v1
                                 << 3LL;
        QTest::newRow("string remaining")
            << Reply::array({Reply::integer(1), Reply::bulk("97")}) << v1 << 3LL;
        QTest::newRow("-3 from v1") << pair(-3, 0) << v1 << 3LL;
        QTest::newRow("-3 from v1 with a quantity") << pair(-3, 5) << v1 << 3LL;
        QTest::newRow("-3 from v2 with quantity 0") << pair(-3, 0) << v2 << 3LL;
        QTest::newRow("-3 from v2 with this quantity") << pair(-3, 3) << v2 << 3LL;
        QTest::newRow("-3 from the script") << pair(-3, 5) << script << 3LL;
        QTest::newRow("-2 with a value") << pair(-2, 55) << v1 << 3LL;
        QTest::newRow("-1 from a function") << pair(-1, 0) << v1 << 3LL;
        QTest::newRow("-1 with a value") << pair(-1, 7) << script << 3LL;
        QTest::newRow("insufficient with enough stock") << pair(0, 50) << v1 << 3LL;
        QTest::newRow("insufficient above the stock bound") << pair(0, 1000000001) << script << 0LL;
        QTest::newRow("nested array")
            << Reply::array({Reply::integer(2), Reply::array({Reply::integer(7)})}) << v1 << 3LL;
        QTest::newRow("status") << Reply::status("OK") << v1 << 3LL;
        QTest::newRow("empty array") << Reply::array({}) << script << 3LL;
    }
    void hostileRepliesMayHaveWritten()
    {
        QFETCH(Reply, reply);
        QFETCH(int, contract);
        QFETCH(qint64, quantity);
        const std::optional<qint64> q = quantity ? std::optional(quantity) : std::nullopt;
        const auto o = contract == int(ReplyContract::Script)
                           ? decodeScriptReply(reply, q)
                           : decodeFunctionReply(reply, ReplyContract(contract), q);
        QCOMPARE(outcomeName(o.kind), QStringLiteral("may_have_written"));
        QVERIFY(o.outsideContract());
        QVERIFY(!o.remaining && !o.stock && !o.recordedQuantity);
        QCOMPARE(o.replyText, reply.debugString());
        // The audit log's readers know the kind by this opening (PriorDeductions, OutcomeBuckets).
        QVERIFY2(o.summary().startsWith(QLatin1String("error, may have written: a reply outside")),
                 qPrintable(o.summary()));
        for (auto mode : {DeductionMode::Function, DeductionMode::Script}) {
            const QString words = o.meaning(mode) + o.nextStep(mode);
            QVERIFY2(!words.contains(QLatin1String("Nothing was written")), qPrintable(words));
            QVERIFY2(!words.contains(QLatin1String("safe")), qPrintable(words));
        }
    }

    // The contract's own shapes, at the edges of their ranges, stay known outcomes.
    void contractEdgesAreOutcomes()
    {
        QCOMPARE(decodeFunctionReply(pair(1, 999999997), ReplyContract::FunctionV1, 3).kind,
                 OutcomeKind::Deducted);
        QCOMPARE(decodeFunctionReply(pair(0, 2), ReplyContract::FunctionV1, 3).kind,
                 OutcomeKind::Insufficient);
        QCOMPARE(decodeScriptReply(pair(0, 1000000000)).kind, OutcomeKind::Insufficient);
        QCOMPARE(decodeFunctionReply(pair(2, 1000000000)).kind, OutcomeKind::AlreadyApplied);
        QCOMPARE(decodeFunctionReply(pair(-2, 0), ReplyContract::FunctionV2, 3).kind,
                 OutcomeKind::StockMissing);
        QCOMPARE(decodeFunctionReply(pair(-3, 1000000), ReplyContract::FunctionV2, 3).kind,
                 OutcomeKind::AlreadyApplied);
    }

    void serverErrorsAreRejectedWithTheirText()
    {
        const auto o = decodeFunctionReply(RedisError::fromServer("ERR invalid quantity"));
        QCOMPARE(o.kind, OutcomeKind::Rejected);
        QCOMPARE(o.serverError.english, QStringLiteral("ERR invalid quantity"));
        QVERIFY(o.meaning(DeductionMode::Function).contains(QLatin1String("ERR invalid quantity")));
        const auto missing = decodeFunctionReply(RedisError::fromServer("ERR Function not found"));
        QVERIFY(missing.nextStep(DeductionMode::Function).contains(QLatin1String("Load")));
        // An error reply inside the Reply (not lifted by the transport) is the same.
        QCOMPARE(decodeScriptReply(Reply::error("ERR invalid stock")).kind, OutcomeKind::Rejected);
    }

    // Only an error known to come before any write is "rejected, nothing was written, retrying
    // is safe"; any other error may come after a write (a Lua error undoes nothing).
    void errorsThatMayComeAfterAWrite_data()
    {
        QTest::addColumn<QByteArray>("error");
        QTest::addColumn<bool>("preWrite");
        QTest::newRow("contract: quantity") << QByteArray("ERR invalid quantity") << true;
        QTest::newRow("contract: ttl") << QByteArray("ERR invalid ttl") << true;
        QTest::newRow("contract: stock") << QByteArray("ERR invalid stock") << true;
        QTest::newRow("contract: receipt") << QByteArray("ERR invalid receipt") << true;
        QTest::newRow("contract: counts")
            << QByteArray("ERR expected two keys (stock, receipt) and two arguments (quantity, "
                          "ttl)")
            << true;
        QTest::newRow("script: counts")
            << QByteArray("ERR expected one key and one quantity") << true;
        QTest::newRow("1.2.0 permission check")
            << QByteArray("NOPERM this user may not run SET on the keys of this deduction; "
                          "nothing was written")
            << true;
        QTest::newRow("FCALL denied")
            << QByteArray("NOPERM this user has no permissions to run the 'fcall' command") << true;
        QTest::newRow("not loaded") << QByteArray("ERR Function not found") << true;
        QTest::newRow("replica") << QByteArray("READONLY You can't write against a read only "
                                               "replica.")
                                 << true;
        QTest::newRow("busy") << QByteArray("BUSY Redis is busy running a script.") << true;
        QTest::newRow("oom before the call")
            << QByteArray("OOM command not allowed when used memory > 'maxmemory'.") << true;
        QTest::newRow("SET denied inside (the issue's case)")
            << QByteArray("ERR The user executing the script can't run this command or "
                          "subcommand script: inventory_deduct_v1, on @user_function:70.")
            << false;
        QTest::newRow("OOM inside a script")
            << QByteArray("OOM command not allowed when used memory > 'maxmemory'. script: "
                          "inventory_deduct_v1, on @user_function:70.")
            << false;
        QTest::newRow("wrong type inside")
            << QByteArray("WRONGTYPE Operation against a key holding the wrong kind of value "
                          "script: inventory_deduct_v1, on @user_function:49.")
            << false;
        QTest::newRow("runtime error") << QByteArray("ERR user_function:12: attempt to compare "
                                                     "nil with number")
                                       << false;
        QTest::newRow("unknown text") << QByteArray("ERR something new") << false;
    }
    void errorsThatMayComeAfterAWrite()
    {
        QFETCH(QByteArray, error);
        QFETCH(bool, preWrite);
        for (const auto &o : {decodeFunctionReply(RedisError::fromServer(error)),
                              decodeScriptReply(Reply::error(error))}) {
            QCOMPARE(o.kind, preWrite ? OutcomeKind::Rejected : OutcomeKind::MayHaveWritten);
            QCOMPARE(o.serverError.english, QString::fromUtf8(error));
            for (auto mode : {DeductionMode::Function, DeductionMode::Script}) {
                const QString words = o.meaning(mode) + o.nextStep(mode);
                if (!preWrite)
                    QVERIFY2(!words.contains(QLatin1String("safe")), qPrintable(words));
                QCOMPARE(words.contains(QLatin1String("Nothing was written")), preWrite);
                QCOMPARE(words.contains(QLatin1String("may have written")), !preWrite);
            }
        }
    }

    // The stock moved during a call that returned an error: something wrote.
    void stockThatMovedMayHaveWritten()
    {
        const auto refused = decodeFunctionReply(RedisError::fromServer("ERR invalid ttl"));
        QCOMPARE(withStockReadings(refused, "100", "100").kind, OutcomeKind::Rejected);
        QCOMPARE(withStockReadings(refused, std::nullopt, "95").kind, OutcomeKind::Rejected);
        const auto moved = withStockReadings(refused, "100", "95");
        QCOMPARE(moved.kind, OutcomeKind::MayHaveWritten);
        QCOMPARE(moved.stockMoved, QStringLiteral("100 → 95"));
        QCOMPARE(moved.summary(),
                 QStringLiteral("error, may have written: ERR invalid ttl (stock moved 100 → 95)"));
        QVERIFY(moved.meaning(DeductionMode::Function)
                    .contains(QStringLiteral("The stock moved during the call (100 → 95)")));
        QVERIFY(moved.nextStep(DeductionMode::Function).startsWith("Do not retry yet"));
        const auto deducted = decodeFunctionReply(pair(1, 95));
        QCOMPARE(withStockReadings(deducted, "100", "95").kind, OutcomeKind::Deducted);
    }

    void transportFailures()
    {
        const auto timeout =
            RedisError::unanswered(RedisError::Kind::Timeout, core::Sentence::plain("no reply"));
        QCOMPARE(decodeFunctionReply(timeout).kind, OutcomeKind::Unknown);
        const auto lost = RedisError::unanswered(RedisError::Kind::ConnectionLost,
                                                 core::Sentence::plain("closed"));
        QCOMPARE(decodeScriptReply(lost).kind, OutcomeKind::Unknown);
        const RedisError unsentTimeout{RedisError::Kind::Timeout,
                                       RedisError::Delivery::NotSent,
                                       {},
                                       core::Sentence::plain(QStringLiteral("could not connect"))};
        QCOMPARE(decodeFunctionReply(unsentTimeout).kind, OutcomeKind::NotSent);
        const auto notSent =
            decodeFunctionReply(RedisError::notSent(core::Sentence::plain("read-only session")));
        QCOMPARE(notSent.kind, OutcomeKind::NotSent);
        QVERIFY(
            notSent.meaning(DeductionMode::Function).contains(QLatin1String("Nothing was sent")));
        // Written, then the stream broke: may have run.
        const auto protocol =
            RedisError::unanswered(RedisError::Kind::Protocol, core::Sentence::plain("bad byte"));
        QCOMPARE(decodeFunctionReply(protocol).kind, OutcomeKind::Unknown);
    }

    void everyKindHasNamesAndSentences()
    {
        const QStringList expected{"deducted", "already_applied",  "insufficient", "stock_missing",
                                   "rejected", "may_have_written", "unknown",      "not_sent"};
        for (int k = 0; k <= int(OutcomeKind::NotSent); ++k) {
            DeductionOutcome o;
            o.kind = OutcomeKind(k);
            QCOMPARE(outcomeName(o.kind), expected.at(k));
            QVERIFY(!outcomeTitle(o.kind).isEmpty());
            for (auto mode : {DeductionMode::Function, DeductionMode::Script}) {
                QVERIFY(!o.meaning(mode).isEmpty());
                QVERIFY(!o.nextStep(mode).isEmpty());
            }
        }
        DeductionOutcome u;
        u.kind = OutcomeKind::Unknown;
        QVERIFY(u.nextStep(DeductionMode::Script).contains(QLatin1String("deduct twice")));
        QVERIFY(u.nextStep(DeductionMode::Function).contains(QLatin1String("Check the receipt")));
        // The cluster router's refusal of keys in two slots: reconnecting would not help. The
        // advice follows the refusal's code, not its words.
        const DeductionOutcome cross = transportOutcome(redis::RedisError::notSent(
            core::Sentence::plain(
                "the keys a (slot 1) and b (slot 2) are in different cluster slots, so no node can "
                "run them together: keep both under one {hash tag}"),
            redis::RedisError::Refusal::CrossSlot));
        QCOMPARE(cross.kind, OutcomeKind::NotSent);
        QVERIFY(cross.meaning(DeductionMode::Function).contains("different cluster slots"));
        QVERIFY(cross.nextStep(DeductionMode::Function).contains("key templates"));
        QVERIFY(!cross.nextStep(DeductionMode::Function).contains("Reconnect"));
        const DeductionOutcome gate = transportOutcome(redis::RedisError::notSent(
            core::Sentence::plain("any words"), redis::RedisError::Refusal::GateRefused));
        QVERIFY(gate.nextStep(DeductionMode::Function).startsWith("Unlock the session"));
        const DeductionOutcome plain =
            transportOutcome(redis::RedisError::notSent(core::Sentence::plain(
                "different cluster slots, read-only session, audit log: words are not codes")));
        QCOMPARE(plain.nextStep(DeductionMode::Function),
                 QStringLiteral("Reconnect, then run again: nothing was sent."));
    }

    void receiptFunctionReplies()
    {
        auto s = decodeReceiptFunctionReply(
            "r", Reply::array({Reply::integer(1), Reply::integer(7), Reply::integer(100),
                               Reply::integer(-1)}));
        QVERIFY(s.ok());
        QVERIFY(s.exists);
        QCOMPARE(s.remaining, 7);
        QCOMPARE(s.ttlSeconds, 100);
        QVERIFY(!s.quantity);
        s = decodeReceiptFunctionReply("r", Reply::array({Reply::integer(1), Reply::integer(7),
                                                          Reply::integer(100), Reply::integer(3)}));
        QCOMPARE(s.quantity, 3);
        s = decodeReceiptFunctionReply("r", Reply::array({Reply::integer(0), Reply::integer(0),
                                                          Reply::integer(-2), Reply::integer(-1)}));
        QVERIFY(s.ok());
        QVERIFY(!s.exists);
        QCOMPARE(s.verdictName(), QStringLiteral("not_found"));
        s = decodeReceiptFunctionReply("r", Reply::integer(1));
        QVERIFY(!s.ok());
        QCOMPARE(s.verdictName(), QStringLiteral("check_failed"));
    }

    // Issue 29, D4, for the receipt function: a reply outside {1, remaining, ttl, quantity} or
    // {0, 0, -2, -1} says neither "happened" nor "not found": the check failed.
    void hostileReceiptFunctionReplies_data()
    {
        QTest::addColumn<Reply>("reply");
        const auto four = [](qint64 a, qint64 b, qint64 c, qint64 d) {
            return Reply::array(
                {Reply::integer(a), Reply::integer(b), Reply::integer(c), Reply::integer(d)});
        };
        QTest::newRow("absurd remaining") << four(1, 9223372036854775807LL, 100, -1);
        QTest::newRow("negative remaining") << four(1, -5, 100, -1);
        QTest::newRow("ttl -2 with a receipt") << four(1, 7, -2, -1);
        QTest::newRow("quantity 0") << four(1, 7, 100, 0);
        QTest::newRow("not found with values") << four(0, 7, 100, 3);
        QTest::newRow("five elements")
            << Reply::array({Reply::integer(1), Reply::integer(7), Reply::integer(100),
                             Reply::integer(-1), Reply::integer(0)});
        QTest::newRow("strings") << Reply::array(
            {Reply::bulk("1"), Reply::bulk("7"), Reply::bulk("100"), Reply::bulk("-1")});
        QTest::newRow("three elements")
            << Reply::array({Reply::integer(1), Reply::integer(7), Reply::integer(100)});
        QTest::newRow("empty") << Reply::array({});
    }
    void hostileReceiptFunctionReplies()
    {
        QFETCH(Reply, reply);
        const ReceiptStatus s = decodeReceiptFunctionReply("r", reply);
        QCOMPARE(s.verdictName(), QStringLiteral("check_failed"));
        QVERIFY2(s.error.english.contains(QLatin1String("outside its contract")),
                 qPrintable(s.error.english));
        QVERIFY(!s.verdict().contains(QLatin1String("happened")));
    }

    void directReceiptReads()
    {
        using RR = redis::ReplyResult;
        auto s = decodeDirectReceipt("r", QList<RR>{Reply::status("string"), Reply::integer(60),
                                                    Reply::bulk("7"),
                                                    RedisError::fromServer("WRONGTYPE x")});
        QVERIFY(s.ok());
        QCOMPARE(s.remaining, 7);
        QCOMPARE(s.ttlSeconds, 60);
        s = decodeDirectReceipt(
            "r",
            QList<RR>{
                Reply::status("hash"), Reply::integer(-1), RedisError::fromServer("WRONGTYPE x"),
                Reply::array({Reply::bulk("remaining"), Reply::bulk("7"), Reply::bulk("quantity"),
                              Reply::bulk("3"), Reply::bulk("time"), Reply::bulk("1700000000")})});
        QVERIFY(s.ok());
        QCOMPARE(s.remaining, 7);
        QCOMPARE(s.quantity, 3);
        QCOMPARE(s.recordedTime, 1700000000);
        QVERIFY(s.verdict().contains(QLatin1String("no TTL")));
        s = decodeDirectReceipt("r", QList<RR>{Reply::status("none"), Reply::integer(-2),
                                               Reply::nil(), Reply::array({})});
        QVERIFY(!s.exists);
        QVERIFY(s.verdict().startsWith(QLatin1String("No receipt")));
        // Issue 29, D4: a GET answering an array, or a HGETALL answering nothing, is no
        // receipt's content: the check failed, it proves neither "happened" nor "anomalous".
        s = decodeDirectReceipt("r", QList<RR>{Reply::status("string"), Reply::integer(60),
                                               Reply::array({}), Reply::nil()});
        QCOMPARE(s.verdictName(), QStringLiteral("check_failed"));
        QVERIFY2(s.error.english.contains(QLatin1String("GET answered an empty array")),
                 qPrintable(s.error.english));
        s = decodeDirectReceipt("r", QList<RR>{Reply::status("hash"), Reply::integer(60),
                                               Reply::nil(), Reply::array({})});
        QCOMPARE(s.verdictName(), QStringLiteral("check_failed"));
        s = decodeDirectReceipt("r", QList<RR>{RedisError::unanswered(RedisError::Kind::Timeout,
                                                                      core::Sentence::plain("t")),
                                               Reply::integer(1), Reply::nil(), Reply::nil()});
        QVERIFY(!s.ok());
        QVERIFY(s.verdict().contains(QLatin1String("says nothing")));
    }

    void durations()
    {
        QCOMPARE(humanDuration(42), QStringLiteral("42 s"));
        QCOMPARE(humanDuration(604800), QStringLiteral("7 d 0 h 0 min"));
        QCOMPARE(humanDuration(3661), QStringLiteral("1 h 1 min"));
        QCOMPARE(humanDuration(61), QStringLiteral("1 min 1 s"));
    }
};

QTEST_GUILESS_MAIN(TstDeductOutcome)
#include "tst_deduct_outcome.moc"
