// SPDX-License-Identifier: GPL-3.0-or-later
#include "ContractTest.h"

#include <algorithm>

namespace testsupport {

using redis::Command;

ContractTest::ContractTest(QList<QByteArray> watchedKeys, QObject *parent)
    : QObject(parent)
    , m_watched(std::move(watchedKeys))
{}

void ContractTest::startServer()
{
    QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    m_c = m_redis.connect();
    QCOMPARE(m_c->state(), redis::ConnectionState::Ready);
}

void ContractTest::startWithLibrary()
{
    startServer();
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(run({"FUNCTION", "LOAD", "REPLACE", functionSource("inventory_lib_v1.lua")}),
             QStringLiteral("\"inventory_lib_v1\""));
}

void ContractTest::flushAll()
{
    QCOMPARE(run({"FLUSHALL", "SYNC"}), QStringLiteral("+OK"));
}

void ContractTest::expectUnchanged(const Command &command, const QString &reply)
{
    const Snapshot before = snap();
    QCOMPARE(run(command), reply);
    VERIFY_NOTHING_WRITTEN(before);
}

void ContractTest::expectServerError(const redis::ReplyResult &r, const QString &message)
{
    QVERIFY2(!r.ok(), qPrintable(render(r)));
    QCOMPARE(r.error().kind, redis::RedisError::Kind::Server);
    QCOMPARE(r.error().code, message.section(QLatin1Char(' '), 0, 0).toLatin1());
    QCOMPARE(r.error().message.english, message);
    QVERIFY(!r.error().mayHaveRun());
}

void ContractTest::expectRefused(const Command &command, const QString &message)
{
    const Snapshot before = snap();
    expectServerError(m_c->call(command), message);
    VERIFY_NOTHING_WRITTEN(before);
}

DeductionContractTest::DeductionContractTest(QByteArray function, QObject *parent)
    : ContractTest({Stock, Receipt, OtherReceipt}, parent)
    , m_function(std::move(function))
{}

Command DeductionContractTest::deductCommand(const QByteArray &quantity, const QByteArray &ttl,
                                             const QByteArray &receipt) const
{
    return {"FCALL", m_function, "2", Stock, receipt, quantity, ttl};
}

std::unique_ptr<redis::RedisClient> ContractTest::connectAs(const QList<QByteArray> &rules)
{
    const QString reset =
        run(Command{"ACL", "SETUSER", "partial", "reset", "on", ">partial-pw", "&*"} + rules);
    if (reset != QStringLiteral("+OK"))
        qWarning("ACL SETUSER: %s", qPrintable(reset));
    redis::ConnectionOptions options = m_redis.options();
    options.username = QStringLiteral("partial");
    options.password = QStringLiteral("partial-pw");
    return m_redis.connect(options);
}

void DeductionContractTest::checkPartialPermissionRow()
{
    QFETCH(QList<QByteArray>, rules);
    QFETCH(QStringList, errors);
    QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
    const auto user = connectAs(rules);
    QCOMPARE(user->state(), redis::ConnectionState::Ready);
    const Snapshot before = snap();
    const redis::ReplyResult r = user->call(deductCommand("5", "60"));
    QVERIFY2(!r.ok() && r.error().kind == redis::RedisError::Kind::Server, qPrintable(render(r)));
    const QString message = r.error().message.english;
    QVERIFY2(std::any_of(errors.begin(), errors.end(),
                         [&](const QString &e) { return message.startsWith(e); }),
             qPrintable(message));
    VERIFY_NOTHING_WRITTEN(before);
    QCOMPARE(render(deduct("5", "60")), QStringLiteral("{1,95}"));
}

namespace {

struct NamedBytes
{
    const char *name;
    QByteArray value;
};

QList<NamedBytes> invalidNumbers()
{
    return {
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
}

} // namespace

void addInvalidNumberRows(const char *column)
{
    QTest::addColumn<QByteArray>(column);
    for (const auto &[name, value] : invalidNumbers())
        QTest::newRow(name) << value;
}

void addInvalidArgumentRows()
{
    QTest::addColumn<QByteArray>("quantity");
    QTest::addColumn<QByteArray>("ttl");
    QTest::addColumn<QString>("error");
    const QString quantityError = QStringLiteral("ERR invalid quantity");
    const QString ttlError = QStringLiteral("ERR invalid ttl");
    for (const auto &[name, value] : invalidNumbers()) {
        QTest::addRow("quantity %s", name) << value << QByteArray("60") << quantityError;
        QTest::addRow("ttl %s", name) << QByteArray("1") << value << ttlError;
    }
    QTest::newRow("quantity 1000001") << QByteArray("1000001") << QByteArray("60") << quantityError;
    QTest::newRow("ttl 31536001") << QByteArray("1") << QByteArray("31536001") << ttlError;
    QTest::newRow("both invalid: quantity first")
        << QByteArray("0") << QByteArray("0") << quantityError;
}

void addDeductionCountRows(const QByteArray &stock, const QByteArray &receipt,
                           const QByteArray &otherReceipt)
{
    QTest::addColumn<QByteArrayList>("args");
    QTest::addColumn<QString>("error");
    const QString counts =
        QStringLiteral("ERR expected two keys (stock, receipt) and two arguments (quantity, ttl)");
    QTest::newRow("0 keys 0 args") << QByteArrayList{"0"} << counts;
    QTest::newRow("0 keys 4 args") << QByteArrayList{"0", stock, receipt, "1", "60"} << counts;
    QTest::newRow("1 key 2 args") << QByteArrayList{"1", stock, "1", "60"} << counts;
    QTest::newRow("1 key 3 args") << QByteArrayList{"1", stock, receipt, "1", "60"} << counts;
    QTest::newRow("2 keys 0 args") << QByteArrayList{"2", stock, receipt} << counts;
    QTest::newRow("2 keys 1 arg") << QByteArrayList{"2", stock, receipt, "1"} << counts;
    QTest::newRow("2 keys 3 args") << QByteArrayList{"2", stock, receipt, "1", "60", "x"} << counts;
    QTest::newRow("3 keys 2 args")
        << QByteArrayList{"3", stock, receipt, otherReceipt, "1", "60"} << counts;
    QTest::newRow("3 keys 1 arg") << QByteArrayList{"3", stock, receipt, "1", "60"} << counts;
    QTest::newRow("numkeys above arguments")
        << QByteArrayList{"3", stock, receipt}
        << QStringLiteral("ERR Number of keys can't be greater than number of args");
    QTest::newRow("negative numkeys") << QByteArrayList{"-1", stock, receipt, "1", "60"}
                                      << QStringLiteral("ERR Number of keys can't be negative");
    QTest::newRow("numkeys not a number") << QByteArrayList{"x", stock, receipt, "1", "60"}
                                          << QStringLiteral("ERR Bad number of keys provided");
}

void addInvalidStockRows(const QByteArray &stock)
{
    QTest::addColumn<QByteArrayList>("setup");
    const auto str = [&](const QByteArray &v) {
        return QByteArrayList{"SET", stock, v};
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
    QTest::newRow("hash") << QByteArrayList{"HSET", stock, "available", "10"};
    QTest::newRow("list") << QByteArrayList{"RPUSH", stock, "10"};
    QTest::newRow("set") << QByteArrayList{"SADD", stock, "10"};
    QTest::newRow("zset") << QByteArrayList{"ZADD", stock, "10", "a"};
    QTest::newRow("stream") << QByteArrayList{"XADD", stock, "*", "available", "10"};
}

void addInvalidReceiptRows(const QByteArray &receipt)
{
    QTest::addColumn<QByteArrayList>("setup");
    QTest::newRow("hash without quantity") << QByteArrayList{"HSET", receipt, "remaining", "7"};
    QTest::newRow("hash without remaining") << QByteArrayList{"HSET", receipt, "quantity", "3"};
    const auto hash = [&](const QByteArray &remaining, const QByteArray &quantity) {
        return QByteArrayList{"HSET", receipt, "remaining", remaining, "quantity", quantity};
    };
    QTest::newRow("quantity 0") << hash("7", "0");
    QTest::newRow("quantity 01") << hash("7", "01");
    QTest::newRow("quantity above 1000000") << hash("7", "1000001");
    QTest::newRow("remaining negative") << hash("-1", "3");
    QTest::newRow("remaining text") << hash("x", "3");
    QTest::newRow("list") << QByteArrayList{"RPUSH", receipt, "7"};
    QTest::newRow("set") << QByteArrayList{"SADD", receipt, "7"};
    QTest::newRow("zset") << QByteArrayList{"ZADD", receipt, "7", "a"};
    QTest::newRow("stream") << QByteArrayList{"XADD", receipt, "*", "remaining", "7"};
}

void addDeductionRows()
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
    QTest::newRow("ttl 1") << QByteArray("5") << QByteArray("2") << QByteArray("1") << qint64(3);
    QTest::newRow("ttl 31536000") << QByteArray("5") << QByteArray("5") << QByteArray("31536000")
                                  << qint64(0);
}

DeductionRow deductionRow()
{
    QFETCH(QByteArray, stock);
    QFETCH(QByteArray, quantity);
    QFETCH(QByteArray, ttl);
    QFETCH(qint64, remaining);
    return {stock, quantity, ttl, remaining};
}

void addInsufficientRows()
{
    QTest::addColumn<QByteArray>("stock");
    QTest::addColumn<QByteArray>("quantity");
    QTest::newRow("0 < 1") << QByteArray("0") << QByteArray("1");
    QTest::newRow("5 < 6") << QByteArray("5") << QByteArray("6");
    QTest::newRow("1 < 1000000") << QByteArray("1") << QByteArray("1000000");
    QTest::newRow("999999 < 1000000") << QByteArray("999999") << QByteArray("1000000");
}

void addPartialPermissionRows(const QList<QByteArray> &writes)
{
    QTest::addColumn<QList<QByteArray>>("rules");
    // Any of these prefixes: the server's own errors are worded as Redis 7.0 words them, or
    // as Redis 7.2 and later and Valkey (a fork of 7.2) do; our function's are the same on all.
    QTest::addColumn<QStringList>("errors");
    for (const QByteArray &w : writes)
        QTest::newRow(("may not " + w).constData())
            << QList<QByteArray>{"~*", "+@all", "-" + w.toLower()}
            << QStringList{QStringLiteral("NOPERM this user may not run %1 on the keys of this "
                                          "deduction; nothing was written")
                               .arg(QString::fromLatin1(w))};
    // FCALL's keys are read-write: Redis refuses the call itself, before the function runs.
    QTest::newRow("may write stock keys only")
        << QList<QByteArray>{"%R~*", "~stock:*", "+@all"}
        << QStringList{QStringLiteral("NOPERM this user has no permissions to access one of the "
                                      "keys used as arguments"),
                       QStringLiteral("NOPERM No permissions to access a key")};
    // A read the function makes is denied: Redis's own error, raised before any write.
    QTest::newRow("may not TYPE") << QList<QByteArray>{"~*", "+@all", "-type"}
                                  << scriptAclDenials();
}

} // namespace testsupport
