// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser's scan against a real redis-server: every anomaly class, binary keys and
// values, hash receipts, keys expiring during the scan, a scan cancelled halfway, a rescan
// while one runs (no stale rows), and the models tracking a live scan.
#include "tst_browse_support.h"

#include "ServerTest.h"

#include "browse/AnomalyModel.h"
#include "browse/Cells.h"
#include "browse/InventoryScan.h"
#include "browse/ModelRoles.h"
#include "browse/ReceiptTableModel.h"
#include "browse/SkuTableModel.h"
#include "browse/Summary.h"

#include <QAbstractItemModelTester>

using namespace browse;
using browsetest::seed;
using browsetest::setString;

namespace {

constexpr qint64 Week = 7LL * 24 * 3600 * 1000;

bool runToEnd(InventoryScan &scan, const InventoryScan::Options &o, int timeoutMs = 60000)
{
    QSignalSpy done(&scan, &InventoryScan::finished);
    scan.start(o);
    return done.wait(timeoutMs) && done.size() == 1 && done[0][0].toBool();
}

} // namespace

class TstBrowseScan : public testsupport::ServerTest
{
    Q_OBJECT

private slots:
    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init() { QVERIFY(m_c->call({"FLUSHALL"}).ok()); }

    void everyAnomalyClassBinaryKeysAndHashReceipts()
    {
        const QByteArray binSku("b\x00\xff\n", 4);
        const QByteArray longValue(100000, 'x');
        QList<redis::Command> c;
        for (int i = 1; i <= 200; ++i) { // healthy SKUs, many pages at COUNT 7
            const QByteArray sku = "ok-" + QByteArray::number(i);
            c << setString("stock:{" + sku + "}:available", "50");
            c << setString("idem:{" + sku + "}:" + QByteArray::number(9000 + i), "49", Week);
        }
        c << setString("stock:{text}:available", "12.5") << setString("stock:{neg}:available", "-3")
          << setString("stock:{big}:available", "2000000000")
          << redis::Command{"HSET", "stock:{hash}:available", "v", "1"}
          << setString("stock:{ttl}:available", "9", Week)
          << setString("stock:{ok-1}:available", "50") // unchanged
          << setString("idem:{ok-2}:77", "48")         // no TTL
          << setString("idem:{orphan}:1", "5", Week)   // its stock key does not exist
          << setString("idem:{ok-3}:88", "abc", Week)
          << redis::Command{"HSET", "idem:{ok-4}:h1", "remaining", "47", "quantity",
                            "2",    "time",           "1700000000"}
          << redis::Command{"PEXPIRE", "idem:{ok-4}:h1", QByteArray::number(Week)}
          << redis::Command{"HSET", "idem:{ok-5}:h2", "quantity", "1"} // no remaining field
          << redis::Command{"PEXPIRE", "idem:{ok-5}:h2", QByteArray::number(Week)}
          << setString("stock:{" + binSku + "}:available", longValue)
          << setString("idem:{" + binSku + "}:\r\n", QByteArray("1\x00", 2), Week)
          << setString("unrelated:1", "x") << redis::Command{"RPUSH", "queue", "a", "b"};
        QCOMPARE(seed(*m_c, c), QString());

        InventoryScan scan(*m_c, inventory::KeySchema());
        SkuTableModel skus(scan.store());
        AnomalyModel anomalies(scan.store());
        QAbstractItemModelTester t1(&skus, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&anomalies,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&scan, &InventoryScan::storeChanged, this, [&] {
            skus.sync();
            anomalies.sync();
        });
        InventoryScan::Options o;
        o.count = 7;
        o.pagesInFlight = 3;
        QVERIFY(runToEnd(scan, o));

        const KeyspaceStore &st = scan.store();
        const InventorySummary s = summarize(st);
        QVERIFY(st.totals() == s);
        QCOMPARE(s.receipts, 200 + 6);
        QCOMPARE(s.skus, 200 + 5 + 2); // + orphan + binary
        QCOMPARE(s.anomalies[0], 4);   // text, big, hash, binary (a long non-integer)
        QCOMPARE(s.anomalies[1], 1);   // neg
        QCOMPARE(s.anomalies[2], 1);   // ttl
        QCOMPARE(s.anomalies[3], 1);   // idem:{ok-2}:77 (every other receipt has a TTL)
        QCOMPARE(s.anomalies[4], 1);   // orphan
        QCOMPARE(s.anomalies[5], 3);   // abc, missing field, "1\0"
        QCOMPARE(anomalies.rowCount(), int(s.anomalyTotal()));
        QCOMPARE(scan.stats().otherKeys, 2);

        const uint32_t hash = st.findSku("hash");
        QCOMPARE(st.stockState(hash), StockState::WrongType);
        QCOMPARE(stockText(st, hash), "(a hash, not a string)");
        const uint32_t h1 = st.findReceipt(st.findSku("ok-4"), "h1");
        QVERIFY(st.receiptIsHash(h1));
        QCOMPARE(st.remaining(h1), 47);
        QCOMPARE(st.receiptQuantity(h1), QByteArray("2"));
        QCOMPARE(st.receiptAnomalies(h1), uint8_t(0));
        QCOMPARE(st.receiptValue(st.findReceipt(st.findSku("ok-5"), "h2")),
                 ReceiptValue::MissingField);
        QCOMPARE(st.stockState(st.findSku("orphan")), StockState::Missing);

        // Binary SKU and value: escaped and cut on screen, exact underneath.
        const uint32_t b = st.findSku(binSku);
        QVERIFY(b != KeyspaceStore::None);
        const QModelIndex row = skus.index(skus.rowOfSku(b), SkuTableModel::Sku);
        QCOMPARE(row.data().toString(), "b\\x00\\xff\\n");
        QCOMPARE(row.data(RawBytesRole).toByteArray(), binSku);
        const QString stockShown = skus.index(row.row(), SkuTableModel::Stock).data().toString();
        QVERIFY(stockShown.size() < 200);
        QVERIFY(stockShown.contains(QChar(0x2026)));
        QCOMPARE(st.stockRaw(b), longValue);
        const uint32_t br = st.findReceipt(b, "\r\n");
        QCOMPARE(st.receiptKey(br), "idem:{" + binSku + "}:\r\n");
        QCOMPARE(remainingText(st, br), "\"1\\x00\"");
        for (int r = 0; r < skus.rowCount(); ++r)
            for (int col = 0; col < SkuTableModel::ColumnCount; ++col)
                for (QChar ch : skus.index(r, col).data().toString())
                    QVERIFY2(ch.unicode() >= 0x20, "a control character reached the screen");
    }

    void keysExpiringDuringTheScan()
    {
        QList<redis::Command> c;
        for (int i = 0; i < 100; ++i) // these stay
            c << setString("idem:{keep}:" + QByteArray::number(i), "1", Week);
        for (int i = 0; i < 1500; ++i) // these expire over the next 1.5 s, while we scan
            c << setString("idem:{brief}:" + QByteArray::number(i), "1", 1 + i);
        c << setString("stock:{keep}:available", "5") << setString("stock:{brief}:available", "5");
        QCOMPARE(seed(*m_c, c), QString());
        // Data batches lag their SCAN pages by 150 ms, so many keys are listed and then gone.
        browsetest::SlowSender slow(*m_c, 150);
        InventoryScan scan(slow, inventory::KeySchema());
        InventoryScan::Options o;
        o.count = 20;
        o.pagesInFlight = 50;
        const qint64 start = KeyspaceScanner::nowMs();
        QVERIFY(runToEnd(scan, o));
        const KeyspaceStore &st = scan.store();
        QCOMPARE(st.receiptCountOf(st.findSku("keep")), 100u);
        QVERIFY2(scan.stats().vanished > 0, "no key expired between SCAN and GET");
        // Every brief receipt that is listed was alive when read. Its expiry is estimated as the
        // time its PTTL was sent plus the PTTL: sent after `start`, and a live key's PTTL is >= 0
        // (a key is still alive in the millisecond it expires in, PTTL 0), so the estimate is at
        // least `start`. "> start" fails when the send and `start` share a millisecond.
        const uint32_t brief = st.findSku("brief");
        for (uint32_t r = st.firstReceiptOf(brief); r != KeyspaceStore::None; r = st.nextReceipt(r))
            QVERIFY2(st.receiptExpiryMs(r) >= start,
                     qPrintable(QStringLiteral("expiry %1 before the scan's start %2")
                                    .arg(st.receiptExpiryMs(r))
                                    .arg(start)));
        QVERIFY(st.receiptCountOf(brief) < 1500);
        QVERIFY(st.totals() == summarize(st));
    }

    void cancelledHalfwayAppliesNothingLate()
    {
        QList<redis::Command> c;
        for (int i = 0; i < 3000; ++i)
            c << setString("stock:{s" + QByteArray::number(i) + "}:available", "1");
        QCOMPARE(seed(*m_c, c), QString());
        browsetest::SlowSender slow(*m_c, 40);
        InventoryScan scan(slow, inventory::KeySchema());
        QSignalSpy done(&scan, &InventoryScan::finished);
        InventoryScan::Options o;
        o.count = 50;
        o.pagesInFlight = 2;
        scan.start(o);
        QTRY_VERIFY_WITH_TIMEOUT(scan.store().skuCount() >= 500, 20000);
        scan.cancel();
        QCOMPARE(done.size(), 1);
        QCOMPARE(done[0][0].toBool(), false);
        QCOMPARE(done[0][1].toString(), QString()); // cancelled, not failed
        const quint64 revision = scan.store().revision();
        const uint32_t seen = scan.store().skuCount();
        QVERIFY(seen < 3000);
        // The batches still on their way arrive and are dropped.
        QTRY_COMPARE_WITH_TIMEOUT(slow.inFlight, 0, 10000);
        QCOMPARE(scan.store().revision(), revision);
        QCOMPARE(scan.store().skuCount(), seen);
        QVERIFY(!scan.isRunning());
        QCOMPARE(done.size(), 1);
    }

    void rescanWhileRunningShowsNoStaleRows()
    {
        QList<redis::Command> c;
        for (int i = 0; i < 1000; ++i) {
            c << setString("stock:{a-" + QByteArray::number(i) + "}:available", "1");
            c << setString("stock:{b-" + QByteArray::number(i) + "}:available", "2");
        }
        QCOMPARE(seed(*m_c, c), QString());
        browsetest::SlowSender slow(*m_c, 60);
        InventoryScan scan(slow, inventory::KeySchema());
        SkuTableModel model(scan.store());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A small budget: rows arrive in several steps per page, as on a big keyspace.
        connect(&scan, &InventoryScan::storeChanged, &model, [&] { model.sync(37); });
        QSignalSpy done(&scan, &InventoryScan::finished);
        InventoryScan::Options o;
        o.count = 40;
        o.pagesInFlight = 4;
        o.skuGlob = "a-*";
        scan.start(o);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() > 100, 20000);
        o.skuGlob = "b-*"; // a new filter while pages of the old one are in flight
        scan.start(o);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.size(), 1); // the replaced scan ends silently
        QVERIFY(done[0][0].toBool());
        QTRY_COMPARE_WITH_TIMEOUT(slow.inFlight, 0, 10000); // the old scan's late pages are in
        model.sync();
        QCOMPARE(model.rowCount(), 1000);
        for (int r = 0; r < model.rowCount(); ++r)
            QVERIFY2(model.index(r, 0).data().toString().startsWith("b-"), "a stale row survived");
        QCOMPARE(scan.store().skuCount(), 1000u);
    }

    void modelsFollowALiveScanInAnyOrder()
    {
        QList<redis::Command> c;
        for (int i = 0; i < 500; ++i) {
            const QByteArray sku = "sku-" + QByteArray::number(i);
            c << setString("stock:{" + sku + "}:available", QByteArray::number(i % 37));
            for (int r = 0; r < i % 5; ++r)
                c << setString("idem:{" + sku + "}:" + QByteArray::number(r), "3",
                               Week - i * 1000 - r);
        }
        QCOMPARE(seed(*m_c, c), QString());
        for (int column = 0; column < SkuTableModel::ColumnCount; ++column) {
            InventoryScan scan(*m_c, inventory::KeySchema());
            SkuTableModel skus(scan.store());
            ReceiptTableModel receipts(scan.store());
            QAbstractItemModelTester t1(&skus,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
            QAbstractItemModelTester t2(&receipts,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
            skus.sort(column, column % 2 ? Qt::DescendingOrder : Qt::AscendingOrder);
            receipts.showSku(KeyspaceStore::None);
            connect(&scan, &InventoryScan::storeChanged, this, [&] {
                skus.sync(uint32_t(3 + column * 7)); // in steps, as the panel does
                if (receipts.sku() == KeyspaceStore::None && skus.rowCount() > 0)
                    receipts.showSku(skus.skuAt(0));
                receipts.sync();
            });
            InventoryScan::Options o;
            o.count = 25;
            QVERIFY(runToEnd(scan, o));
            int steps = 0;
            while (!skus.sync(50))
                ++steps;
            QVERIFY(steps < 11);
            QCOMPARE(skus.rowCount(), 500);
            skus.sort(column, column % 2 ? Qt::DescendingOrder : Qt::AscendingOrder);
            for (int r = 1; r < skus.rowCount(); ++r) {
                const QVariant a = skus.index(r - 1, column).data(ExportRole);
                const QVariant b = skus.index(r, column).data(ExportRole);
                if (column == SkuTableModel::Stock || column == SkuTableModel::Receipts)
                    QVERIFY(column % 2 ? a.toLongLong() >= b.toLongLong()
                                       : a.toLongLong() <= b.toLongLong());
            }
            QCOMPARE(int(receipts.rowCount()), int(scan.store().receiptCountOf(receipts.sku())));
        }
    }
};

QTEST_GUILESS_MAIN(TstBrowseScan)
#include "tst_browse_scan.moc"
