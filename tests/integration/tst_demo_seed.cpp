// SPDX-License-Identifier: GPL-3.0-or-later
// The demo seeder against a real redis-server: the counts, the genuineness of the receipts
// (they come from real FCALLs) and every planted anomaly, read back independently.
#include "ServerTest.h"
#include "demo/DemoSeeder.h"
#include "redis/LibraryList.h"

#include <QRegularExpression>
#include <QTest>

using namespace demo;

namespace {

bool isCanonical(const QByteArray &v)
{
    static const QRegularExpression re(QStringLiteral("^(0|[1-9][0-9]{0,9})$"));
    return re.match(QString::fromLatin1(v)).hasMatch();
}

QList<QByteArray> allKeys(redis::CommandSender &c)
{
    QList<QByteArray> keys;
    QByteArray cursor = "0";
    do {
        auto r = c.call({"SCAN", cursor, "COUNT", "1000"});
        if (!r.ok() || !r->isArray() || r->size() != 2)
            return {};
        cursor = r->at(0).bytes();
        for (const auto &k : r->at(1).elements())
            keys << k.bytes();
    } while (cursor != "0");
    return keys;
}

const Anomaly *find(const SeedReport &r, Anomaly::Kind kind)
{
    for (const auto &a : r.anomalies)
        if (a.kind == kind)
            return &a;
    return nullptr;
}

} // namespace

class TstDemoSeed : public testsupport::ServerTest
{
    Q_OBJECT

    SeedReport m_report;

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(), QString());
        const auto r = seedDemoBlocking(*m_c);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().english));
        m_report = r.value();
    }

    void planIsDeterministic()
    {
        const SeedPlan a = buildSeedPlan({});
        const SeedPlan b = buildSeedPlan({});
        QCOMPARE(a.stock, b.stock);
        QCOMPARE(a.orders, b.orders);
        QCOMPARE(a.anomalies, b.anomalies);
        QVERIFY(a.retries > 0);
    }

    void reportCounts()
    {
        QCOMPARE(m_report.libraryName, QByteArray("inventory_lib_v1"));
        QCOMPARE(m_report.stockKeys, 240);
        QVERIFY2(m_report.receipts >= 400, qPrintable(QString::number(m_report.receipts)));
        QVERIFY(m_report.duplicates > 0);   // retried orders answered {2, recorded}
        QVERIFY(m_report.insufficient > 0); // sold-out SKUs answered {0, stock}
        QCOMPARE(m_report.missingStock, 0);
        QVERIFY2(m_report.roundTrips <= 5, qPrintable(QString::number(m_report.roundTrips)));
        QCOMPARE(m_report.anomalies.size(), 6);
        QCOMPARE(m_report.keyCount, m_c->call({"DBSIZE"})->toInteger());
    }

    void libraryIsLoaded()
    {
        const auto libs = redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST"}).value());
        QVERIFY(libs.ok());
        QCOMPARE(libs->size(), 1);
        QCOMPARE(libs->first().name, QStringLiteral("inventory_lib_v1"));
        QCOMPARE(libs->first().functions.first().name, QStringLiteral("inventory_deduct_v1"));
    }

    // Every key is a stock key or a receipt; stock is canonical and without TTL and receipts
    // have TTLs spread from minutes to 7 days, except where an anomaly says otherwise; and
    // each SKU's lowest recorded remaining equals its stock, as real deductions leave it.
    void keysAreRealistic()
    {
        const QRegularExpression stockRe(QStringLiteral("^stock:\\{(sku-\\d+)\\}:available$"));
        const QRegularExpression receiptRe(QStringLiteral("^idem:\\{(sku-\\d+)\\}:(\\d+)$"));
        const QList<QByteArray> keys = allKeys(*m_c);
        QCOMPARE(qint64(keys.size()), m_report.keyCount);
        QList<redis::Command> batch;
        for (const auto &k : keys)
            batch << redis::Command{"GET", k} << redis::Command{"TTL", k};
        const auto replies = m_c->callBatch(batch);
        QCOMPARE(replies.size(), batch.size());

        QSet<QByteArray> anomalyKeys;
        for (const auto &a : m_report.anomalies)
            anomalyKeys.insert(a.key);
        QHash<QByteArray, QByteArray> stock;
        QHash<QByteArray, qint64> lowestReceipt;
        int receipts = 0;
        qint64 minTtl = LLONG_MAX, maxTtl = 0;
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const QString key = QString::fromUtf8(keys[i]);
            const QByteArray value = replies[2 * i]->bytes();
            const qint64 ttl = replies[2 * i + 1]->toInteger();
            const bool planted = anomalyKeys.contains(keys[i]);
            if (const auto m = stockRe.match(key); m.hasMatch()) {
                stock.insert(m.captured(1).toUtf8(), value);
                if (!planted) {
                    QVERIFY2(isCanonical(value), qPrintable(key + " = " + value));
                    QVERIFY2(ttl == -1, qPrintable(key));
                }
            } else if (const auto m = receiptRe.match(key); m.hasMatch()) {
                ++receipts;
                QVERIFY2(isCanonical(value), qPrintable(key + " = " + value));
                const QByteArray sku = m.captured(1).toUtf8();
                lowestReceipt[sku] =
                    std::min(lowestReceipt.value(sku, LLONG_MAX), value.toLongLong());
                if (!planted) {
                    QVERIFY2(ttl > 0 && ttl <= 7 * 24 * 3600, qPrintable(key));
                    minTtl = std::min(minTtl, ttl);
                    maxTtl = std::max(maxTtl, ttl);
                }
            } else {
                QFAIL(qPrintable("unexpected key " + key));
            }
        }
        QCOMPARE(stock.size(), 240);
        QCOMPARE(receipts, m_report.receipts);
        QVERIFY2(minTtl < 3600, qPrintable(QString::number(minTtl)));          // minutes
        QVERIFY2(maxTtl > 6 * 24 * 3600, qPrintable(QString::number(maxTtl))); // ~7 days
        int checked = 0;
        for (auto it = lowestReceipt.cbegin(); it != lowestReceipt.cend(); ++it) {
            const QByteArray key = stockKey(it.key());
            if (anomalyKeys.contains(key) || !stock.contains(it.key()))
                continue;
            QCOMPARE(stock.value(it.key()).toLongLong(), it.value());
            ++checked;
        }
        QVERIFY(checked > 100);
    }

    void anomaliesExist()
    {
        using K = Anomaly::Kind;
        auto &c = *m_c;
        const Anomaly *a = find(m_report, K::NonCanonicalStock);
        QVERIFY(a);
        QCOMPARE(c.call({"GET", a->key})->bytes(), QByteArray("12.5"));

        a = find(m_report, K::NegativeStock);
        QVERIFY(a);
        QCOMPARE(c.call({"GET", a->key})->bytes(), QByteArray("-3"));

        a = find(m_report, K::StockWithTtl);
        QVERIFY(a);
        QVERIFY(a->key.startsWith("stock:{"));
        const qint64 stockTtl = c.call({"TTL", a->key})->toInteger();
        QVERIFY2(stockTtl > 0 && stockTtl <= 6 * 3600, qPrintable(QString::number(stockTtl)));

        a = find(m_report, K::ReceiptAboutToExpire);
        QVERIFY(a);
        const qint64 soon = c.call({"TTL", a->key})->toInteger();
        QVERIFY2(soon > 0 && soon <= 90, qPrintable(QString::number(soon)));

        a = find(m_report, K::ReceiptWithoutStock);
        QVERIFY(a);
        QCOMPARE(c.call({"EXISTS", a->key})->toInteger(), 1);
        const QByteArray sku = a->key.mid(6, a->key.indexOf('}') - 6); // idem:{<sku>}:order
        QCOMPARE(c.call({"EXISTS", stockKey(sku)})->toInteger(), 0);

        a = find(m_report, K::ReceiptWithoutTtl);
        QVERIFY(a);
        QCOMPARE(c.call({"TTL", a->key})->toInteger(), -1);
        QVERIFY(isCanonical(c.call({"GET", a->key})->bytes()));
    }

    // The planted stock values are what the function refuses.
    void nonCanonicalStockIsRefusedByTheFunction()
    {
        const Anomaly *a = find(m_report, Anomaly::Kind::NonCanonicalStock);
        QVERIFY(a);
        const QByteArray sku = a->key.mid(7, a->key.indexOf('}') - 7); // stock:{<sku>}:...
        const auto r = m_c->call(deductCommand(sku, 1, 1, 60));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.english.contains("invalid stock"),
                 qPrintable(r.error().message.english));
    }

    void refusesADatabaseWithKeys()
    {
        const qint64 before = m_c->call({"DBSIZE"})->toInteger();
        const auto r = seedDemoBlocking(*m_c);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().english.contains("refusing"), qPrintable(r.error().english));
        QCOMPARE(m_c->call({"DBSIZE"})->toInteger(), before);
    }
};

QTEST_GUILESS_MAIN(TstDemoSeed)
#include "tst_demo_seed.moc"
