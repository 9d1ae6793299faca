// SPDX-License-Identifier: GPL-3.0-or-later
#include "inventory/KeySchema.h"
#include "redis/Slot.h"

#include <QTest>

using inventory::KeySchema;

class TstKeySchema : public QObject
{
    Q_OBJECT

private slots:
    void defaultsBuildTheDocumentedKeys()
    {
        KeySchema s;
        QCOMPARE(s.stockKey("sku-42"), QByteArray("stock:{sku-42}:available"));
        QCOMPARE(s.receiptKey("sku-42", "9001"), QByteArray("idem:{sku-42}:9001"));
        QCOMPARE(s.stockPattern(), QByteArray("stock:{*}:available"));
        QCOMPARE(s.receiptPattern(), QByteArray("idem:{*}:*"));
        QCOMPARE(s.receiptPatternForOrder("9001"), QByteArray("idem:{*}:9001"));
        QCOMPARE(s.receiptPatternForSku("a*b"), QByteArray("idem:{a\\*b}:*"));
        QVERIFY(s.sharesSlot("sku-42"));
    }

    void parsesKeysBack()
    {
        KeySchema s;
        QCOMPARE(s.skuOfStockKey("stock:{42}:available").value(), QByteArray("42"));
        QVERIFY(!s.skuOfStockKey("stock:{}:available"));
        QVERIFY(!s.skuOfStockKey("stock:42"));
        const auto r = s.parseReceiptKey("idem:{42}:order:7");
        QVERIFY(r);
        QCOMPARE(r->sku, QByteArray("42"));
        QCOMPARE(r->orderId, QByteArray("order:7"));
        QVERIFY(!s.parseReceiptKey("idem:{42}:"));
        QVERIFY(!s.parseReceiptKey("other:{42}:1"));
    }

    void customTemplates()
    {
        auto s = KeySchema::fromTemplates("inv:<sku>", "rcpt:<sku>:<order>");
        QVERIFY(s.ok());
        QCOMPARE(s->stockKey("7"), QByteArray("inv:7"));
        QCOMPARE(s->receiptKey("7", "1"), QByteArray("rcpt:7:1"));
        QVERIFY(!s->sharesSlot("7")); // no hash tag: the panel must refuse in a cluster
    }

    void rejectsBadTemplates_data()
    {
        QTest::addColumn<QString>("stock");
        QTest::addColumn<QString>("receipt");
        QTest::newRow("no sku in stock") << "stock:x"
                                         << "idem:{<sku>}:<order>";
        QTest::newRow("two skus") << "s:<sku>:<sku>"
                                  << "idem:{<sku>}:<order>";
        QTest::newRow("no order") << "stock:{<sku>}"
                                  << "idem:{<sku>}";
        QTest::newRow("order first") << "stock:{<sku>}"
                                     << "idem:<order>:<sku>";
        QTest::newRow("adjacent") << "stock:{<sku>}"
                                  << "idem:<sku><order>";
        QTest::newRow("same") << "x:<sku>:<order>"
                              << "x:<sku>:<order>";
    }
    void rejectsBadTemplates()
    {
        QFETCH(QString, stock);
        QFETCH(QString, receipt);
        auto s = KeySchema::fromTemplates(stock, receipt);
        QVERIFY(!s.ok());
        QVERIFY(!s.error().isEmpty());
    }

    // Reference values from CLUSTER KEYSLOT on Redis 7.
    void clusterSlots()
    {
        QCOMPARE(redis::keySlot("foo"), 12182);
        QCOMPARE(redis::keySlot("123456789"), 12739);
        QCOMPARE(redis::keySlot("{user1000}.following"), redis::keySlot("user1000"));
        QCOMPARE(redis::keySlot("foo{}{bar}"), redis::keySlot("foo{}{bar}"));
        QCOMPARE(redis::hashTagOf("foo{}{bar}"), QByteArray("foo{}{bar}"));
        QCOMPARE(redis::hashTagOf("foo{{bar}}zap"), QByteArray("{bar"));
    }
};

QTEST_GUILESS_MAIN(TstKeySchema)
#include "tst_key_schema.moc"
