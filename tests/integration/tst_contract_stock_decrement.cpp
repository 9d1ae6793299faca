// SPDX-License-Identifier: GPL-3.0-or-later
// Contract of functions/stock_decrement.lua (the seed-000 EVAL script) against a real
// redis-server, as defined in docs/contracts.md: EVALSHA <sha> 1 <stock key> <quantity>.
// Every refusal is followed by the proof that nothing was written (keys, values, TTLs, DBSIZE).
#include "ContractTest.h"

#include <QCryptographicHash>

using namespace redis;
using testsupport::render;
using testsupport::Snapshot;

namespace {
const QByteArray Other = "stock:{43}:available";
const QString CountsError = QStringLiteral("ERR expected one key and one quantity");
} // namespace

class TstContractStockDecrement : public testsupport::ContractTest
{
    Q_OBJECT

public:
    TstContractStockDecrement()
        : ContractTest({Stock, Other})
    {}

private:
    QByteArray m_source;
    QByteArray m_sha;

    Command decrementCommand(const QByteArray &quantity) const
    {
        return {"EVALSHA", m_sha, "1", Stock, quantity};
    }
    ReplyResult decrement(const QByteArray &quantity)
    {
        return m_c->call(decrementCommand(quantity));
    }

private slots:
    void initTestCase()
    {
        startServer();
        if (QTest::currentTestFailed())
            return;
        m_source = testsupport::functionSource(QStringLiteral("stock_decrement.lua"));
        auto sha = m_c->call({"SCRIPT", "LOAD", m_source});
        QVERIFY2(sha.ok() && sha->isBulk(), qPrintable(render(sha)));
        m_sha = sha->bytes();
        // The SHA is the SHA-1 of the exact file, so a client can compute it offline.
        QCOMPARE(m_sha, QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex());
    }

    void init()
    {
        flushAll();
        // Every test starts with the script cached (noscriptAfterFlush flushes it).
        QCOMPARE(render(m_c->call({"SCRIPT", "LOAD", m_source})),
                 QStringLiteral("\"%1\"").arg(QString::fromLatin1(m_sha)));
    }

    void decrements_data()
    {
        QTest::addColumn<QByteArray>("stock");
        QTest::addColumn<QByteArray>("quantity");
        QTest::addColumn<qint64>("remaining");
        QTest::newRow("3 of 10") << QByteArray("10") << QByteArray("3") << qint64(7);
        QTest::newRow("quantity 1, last unit") << QByteArray("1") << QByteArray("1") << qint64(0);
        QTest::newRow("quantity equals stock") << QByteArray("25") << QByteArray("25") << qint64(0);
        QTest::newRow("quantity 1000000")
            << QByteArray("1000000") << QByteArray("1000000") << qint64(0);
        QTest::newRow("stock 1000000000")
            << QByteArray("1000000000") << QByteArray("1") << qint64(999999999);
        QTest::newRow("both maxima")
            << QByteArray("1000000000") << QByteArray("1000000") << qint64(999000000);
    }
    void decrements()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QFETCH(qint64, remaining);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        QCOMPARE(render(decrement(quantity)), QStringLiteral("{1,%1}").arg(remaining));
        const auto state = m_c->callBatch({{"GET", Stock}, {"PTTL", Stock}, {"DBSIZE"}});
        QCOMPARE(render(state[0]), QStringLiteral("\"%1\"").arg(remaining));
        QCOMPARE(render(state[1]), QStringLiteral("-1"));
        QCOMPARE(render(state[2]), QStringLiteral("1")); // no receipt, nothing else
    }

    // EVAL with the source gives the same result and caches the same SHA.
    void evalOnce()
    {
        QCOMPARE(render(m_c->call({"SCRIPT", "FLUSH"})), QStringLiteral("+OK"));
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(m_c->call({"EVAL", m_source, "1", Stock, "4"})), QStringLiteral("{1,6}"));
        QCOMPARE(render(m_c->call({"SCRIPT", "EXISTS", m_sha})), QStringLiteral("{1}"));
        QCOMPARE(render(decrement("6")), QStringLiteral("{1,0}"));
        QCOMPARE(render(m_c->call({"EVAL", m_source, "1", Stock, "1"})), QStringLiteral("{0,0}"));
    }

    // Not idempotent, by contract: the same call twice deducts twice.
    void notIdempotent()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(decrement("3")), QStringLiteral("{1,7}"));
        QCOMPARE(render(decrement("3")), QStringLiteral("{1,4}"));
        QCOMPARE(render(m_c->call({"GET", Stock})), QStringLiteral("\"4\""));
    }

    void insufficient_data() { testsupport::addInsufficientRows(); }
    void insufficient()
    {
        QFETCH(QByteArray, stock);
        QFETCH(QByteArray, quantity);
        QCOMPARE(set(Stock, stock), QStringLiteral("+OK"));
        expectUnchanged(decrementCommand(quantity), QStringLiteral("{0,%1}").arg(stock));
    }

    void missingKey()
    {
        QCOMPARE(set(Other, "10"), QStringLiteral("+OK"));
        const Snapshot before = snap();
        QCOMPARE(render(decrement("1")), QStringLiteral("{-1,0}"));
        QCOMPARE(render(decrement("1000000")), QStringLiteral("{-1,0}"));
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(render(m_c->call({"EXISTS", Stock})), QStringLiteral("0"));
    }

    void wrongCounts_data()
    {
        QTest::addColumn<QByteArrayList>("args"); // after EVALSHA <sha>
        QTest::addColumn<QString>("error");
        QTest::newRow("0 keys 0 args") << QByteArrayList{"0"} << CountsError;
        QTest::newRow("0 keys 1 arg") << QByteArrayList{"0", "1"} << CountsError;
        QTest::newRow("0 keys 2 args") << QByteArrayList{"0", Stock, "1"} << CountsError;
        QTest::newRow("1 key 0 args") << QByteArrayList{"1", Stock} << CountsError;
        QTest::newRow("1 key 2 args") << QByteArrayList{"1", Stock, "1", "1"} << CountsError;
        QTest::newRow("2 keys 1 arg") << QByteArrayList{"2", Stock, Other, "1"} << CountsError;
        QTest::newRow("2 keys 0 args") << QByteArrayList{"2", Stock, Other} << CountsError;
        QTest::newRow("numkeys above arguments")
            << QByteArrayList{"2", Stock}
            << QStringLiteral("ERR Number of keys can't be greater than number of args");
        QTest::newRow("negative numkeys") << QByteArrayList{"-1", Stock, "1"}
                                          << QStringLiteral("ERR Number of keys can't be negative");
    }
    void wrongCounts()
    {
        QFETCH(QByteArrayList, args);
        QFETCH(QString, error);
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        QCOMPARE(set(Other, "100"), QStringLiteral("+OK"));
        expectRefused(QByteArrayList{"EVALSHA", m_sha} + args, error);
    }

    void invalidQuantity_data()
    {
        testsupport::addInvalidNumberRows();
        QTest::newRow("1000001") << QByteArray("1000001");
    }
    void invalidQuantity()
    {
        QFETCH(QByteArray, quantity);
        // Checked before the key: the same error whether the stock exists or not.
        const Command call = decrementCommand(quantity);
        expectRefused(call, QStringLiteral("ERR invalid quantity"));
        QCOMPARE(set(Stock, "100"), QStringLiteral("+OK"));
        expectRefused(call, QStringLiteral("ERR invalid quantity"));
    }

    void invalidStock_data() { testsupport::addInvalidStockRows(Stock); }
    void invalidStock()
    {
        QFETCH(QByteArrayList, setup);
        QVERIFY(m_c->call(setup).ok());
        QVERIFY(snap().keys.at(0).type != "none");
        expectRefused(decrementCommand("1"), QStringLiteral("ERR invalid stock"));
    }

    // After SCRIPT FLUSH, EVALSHA is a server error NOSCRIPT (not an outcome-unknown, nothing
    // ran); SCRIPT LOAD gives the same SHA back and the retry runs once.
    void noscriptAfterFlush()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        QCOMPARE(render(m_c->call({"SCRIPT", "FLUSH"})), QStringLiteral("+OK"));
        QCOMPARE(render(m_c->call({"SCRIPT", "EXISTS", m_sha})), QStringLiteral("{0}"));
        const Snapshot before = snap();
        auto r = decrement("1");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QCOMPARE(r.error().code, QByteArray("NOSCRIPT"));
        QVERIFY(r.error().isServer("NOSCRIPT"));
        QVERIFY(!r.error().mayHaveRun());
        VERIFY_NOTHING_WRITTEN(before);
        QCOMPARE(render(m_c->call({"SCRIPT", "LOAD", m_source})),
                 QStringLiteral("\"%1\"").arg(QString::fromLatin1(m_sha)));
        QCOMPARE(render(decrement("1")), QStringLiteral("{1,9}"));
    }

    // A read-only run refuses the write: the stock is unchanged.
    void evalshaRoCannotDecrement()
    {
        QCOMPARE(set(Stock, "10"), QStringLiteral("+OK"));
        const Snapshot before = snap();
        auto r = m_c->call({"EVALSHA_RO", m_sha, "1", Stock, "1"});
        QVERIFY2(!r.ok(), qPrintable(render(r)));
        QCOMPARE(r.error().kind, RedisError::Kind::Server);
        QVERIFY2(
            r.error().message.english.contains(QStringLiteral("Write commands are not allowed")),
            qPrintable(render(r)));
        VERIFY_NOTHING_WRITTEN(before);
    }
};

QTEST_GUILESS_MAIN(TstContractStockDecrement)
#include "tst_contract_stock_decrement.moc"
