// The key browser panel offscreen over a real redis-server: it scans when shown, lists SKUs
// and receipts, answers an order id typed into the lookup with its sentence, lists
// anomalies, copies exact bytes, and runs a guarded delete through a confirmation that shows
// the exact command, into the audit log.
#include "AuditTrail.h"
#include "RedisFixture.h"

#include "browse/AnomalyView.h"
#include "browse/BrowserPanel.h"
#include "browse/FlatKeyView.h"
#include "browse/KeyActionDialog.h"
#include "browse/ModelRoles.h"
#include "browse/OrderLookupView.h"
#include "browse/SkuBrowserView.h"
#include "inventory/AuditLog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

namespace {

constexpr qint64 Hour = 3600LL * 1000;

// Runs `check` on the next modal dialog of type T, then presses its button `buttonName`.
template<class T>
void answerNextDialog(const QString &buttonName, std::function<void(T *)> check)
{
    QTimer::singleShot(50, [=] {
        T *dialog = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *d = qobject_cast<T *>(w); d && d->isVisible())
                dialog = d;
        if (!dialog) {
            answerNextDialog<T>(buttonName, check); // not open yet
            return;
        }
        check(dialog);
        if (auto *b = dialog->template findChild<QPushButton *>(buttonName))
            b->click();
        else
            dialog->reject();
    });
}

} // namespace

class TstBrowsePanel : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_client;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_client = m_redis.connect();
        QList<redis::Command> seed;
        for (int i = 1; i <= 300; ++i) {
            const QByteArray sku = "sku-" + QByteArray::number(i);
            seed << redis::Command{"SET", "stock:{" + sku + "}:available", "50"};
            seed << redis::Command{"SET", "idem:{" + sku + "}:" + QByteArray::number(i), "49", "PX",
                                   QByteArray::number(100 * Hour)};
        }
        seed << redis::Command{"SET", "stock:{42}:available", "40"}
             << redis::Command{"SET", "idem:{42}:9001", "3", "PX",
                               QByteArray::number((6 * 24 + 23) * Hour + 20 * 60000)}
             << redis::Command{"SET", "idem:{43}:9001", "0", "PX", QByteArray::number(2 * Hour)}
             << redis::Command{"SET", "stock:{neg}:available", "-2"};
        for (const auto &r : m_client->callBatch(seed))
            QVERIFY(r.ok());
    }

    void scansListsAndLooksUpAnOrder()
    {
        ui::BrowserPanel panel(*m_client, inventory::KeySchema());
        QAbstractItemModelTester tester(&panel.skuView()->skuModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.resize(1400, 900);
        panel.show(); // the first show starts the scan
        QVERIFY(scanned.wait(20000));
        QCOMPARE(scanned[0][0].toBool(), true);
        auto &skus = panel.skuView()->skuModel();
        QCOMPARE(skus.rowCount(), 303);
        QCOMPARE(skus.index(0, 0).data().toString(), "42"); // digits-only first, by value
        QVERIFY(panel.findChild<QLabel *>("scanCounts")->text().contains("303 SKUs"));
        QCOMPARE(panel.tabs()->tabText(3), "Anomalies (2)"); // negative stock, missing stock

        // Selecting a SKU lists its receipts, with a live TTL.
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("42"));
        auto &receipts = panel.skuView()->receiptModel();
        QTRY_COMPARE(receipts.rowCount(), 1);
        QCOMPARE(receipts.index(0, browse::ReceiptTableModel::Order).data().toString(), "9001");
        QCOMPARE(receipts.index(0, browse::ReceiptTableModel::Ttl).data().toString(), "6 d 23 h");
        QVERIFY(
            panel.findChild<QLabel *>("receiptsTitle")->text().contains("stock:{42}:available"));

        // Type an order id and read the answer.
        panel.tabs()->setCurrentIndex(1);
        auto *input = panel.findChild<QLineEdit *>("orderIdInput");
        QVERIFY(input);
        QTest::keyClicks(input, "9001");
        QTest::keyClick(input, Qt::Key_Return);
        auto *result = panel.findChild<QTextBrowser *>("orderResult");
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains("SKU 43"), 20000);
        const QString text = result->toPlainText();
        QVERIFY2(text.contains("Deducted: 3 left after this order. Receipt expires in 6 d 23 h"),
                 qPrintable(text));
        QVERIFY(text.contains("a retry before then returns the first result, after that it "
                              "would deduct again. Stock now: 40."));
        QVERIFY(text.contains("The stock key stock:{43}:available does not exist now"));
        QTRY_VERIFY(panel.findChild<QLabel *>("orderProgress")
                        ->text()
                        .startsWith("2 receipts for order 9001"));
        QTest::keyClicks(input, "9"); // "90019": no such order
        QTest::keyClick(input, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains("No receipt for order 90019"),
                                 20000);

        // Anomalies: listed, and a double-click shows the SKU.
        panel.tabs()->setCurrentIndex(3);
        auto &anomalies = panel.anomalyView()->model();
        QCOMPARE(anomalies.rowCount(), 2);
        QCOMPARE(anomalies.index(0, 1).data().toString(), "stock:{neg}:available");

        // Copy gives the exact key bytes.
        panel.tabs()->setCurrentIndex(0);
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("sku-7"));
        for (QPushButton *b : panel.skuView()->findChildren<QPushButton *>())
            if (b->text() == "Copy stock key")
                b->click();
        QCOMPARE(QApplication::clipboard()->mimeData()->data("text/plain"),
                 QByteArray("stock:{sku-7}:available"));
    }

    void guardedDeleteShowsTheCommandAndIsAudited()
    {
        ui::BrowserPanel panel(*m_client, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        QVERIFY(scanned.wait(20000));
        auto *del = panel.skuView()->findChild<QPushButton *>("deleteReceipt");
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("sku-5"));
        panel.skuView()->receiptTable()->selectRow(0);
        QVERIFY(!del->isEnabled()); // no write sender: no actions
        QVERIFY(del->toolTip().contains("not available"));

        const QString log = m_dir.filePath("audit.jsonl");
        panel.setWriteSender(m_client.get());
        panel.setAuditContext({log, "local", {}, {}});
        panel.skuView()->receiptTable()->selectRow(0);
        QVERIFY(del->isEnabled());
        auto *setTtl = panel.skuView()->findChild<QPushButton *>("setTtl");
        QCOMPARE(setTtl->text(), "Set TTL on receipt…"); // acts on the receipt, not the stock
        panel.skuView()->skuTable()->selectRow(3);
        QCOMPARE(setTtl->text(), "Set TTL on stock key…");
        QVERIFY(!del->isEnabled());
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("sku-5"));
        panel.skuView()->receiptTable()->selectRow(0);
        QSignalSpy audited(&panel, &ui::BrowserPanel::auditRecorded);
        QString shown;
        answerNextDialog<ui::KeyActionDialog>("confirmAction", [&](ui::KeyActionDialog *d) {
            shown = d->findChild<QPlainTextEdit *>("exactCommand")->toPlainText();
        });
        del->click();
        QCOMPARE(shown, "DEL 'idem:{sku-5}:5'");
        QTRY_COMPARE_WITH_TIMEOUT(m_client->call({"EXISTS", "idem:{sku-5}:5"})->toInteger(), 0,
                                  5000);
        QTRY_VERIFY(panel.statusText().contains("deleted"));
        // The view follows the server: the receipt is gone from the list.
        QTRY_COMPARE_WITH_TIMEOUT(panel.skuView()->receiptModel().rowCount(), 0, 5000);
        QCOMPARE(audited.size(), 1);
        const auto trail = testsupport::readAuditTrail(log);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.raw.size(), 2); // the attempt before DEL was sent, then its outcome
        const auto records = trail.writes;
        QCOMPARE(records.size(), 1);
        QCOMPARE(records[0].action, "delete");
        QCOMPARE(records[0].command, (QList<QByteArray>{"DEL", "idem:{sku-5}:5"}));

        // Cancelling sends nothing.
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("sku-6"));
        panel.skuView()->receiptTable()->selectRow(0);
        answerNextDialog<ui::KeyActionDialog>("no-such-button", [](ui::KeyActionDialog *) {});
        del->click();
        QCOMPARE(m_client->call({"EXISTS", "idem:{sku-6}:6"})->toInteger(), 1);
        QCOMPARE(inventory::AuditLog::read(log).records.size(), 2);

        // A read-only session: the buttons say why.
        panel.setReadOnlyReason("read-only session on production profile 'prod'");
        QVERIFY(!del->isEnabled());
        QCOMPARE(del->toolTip(), "read-only session on production profile 'prod'");
    }

    // A rescan empties the store; the views let go of its rows in the same turn, so nothing
    // paints a row whose SKU is gone (this crashed in a paint within 200 ms of a rescan).
    void rescanForgetsOldRowsAtOnce()
    {
        ui::BrowserPanel panel(*m_client, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        QVERIFY(scanned.wait(20000));
        auto &skus = panel.skuView()->skuModel();
        const int before = skus.rowCount();
        QVERIFY(before > 300);
        panel.rescan();
        QCOMPARE(skus.rowCount(), 0); // no event processed in between
        QVERIFY(scanned.wait(20000));
        QTRY_COMPARE(skus.rowCount(), before);

        panel.tabs()->setCurrentIndex(2);
        auto *pattern = panel.findChild<QLineEdit *>("keyPattern");
        pattern->setText("stock:*");
        QTest::keyClick(pattern, Qt::Key_Return);
        auto &flat = panel.flatView()->model();
        QTRY_COMPARE_WITH_TIMEOUT(flat.rowCount(), 302, 10000);
        pattern->setText("stock:{4*");
        QTest::keyClick(pattern, Qt::Key_Return);
        QCOMPARE(flat.rowCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(flat.rowCount(), 1, 10000); // stock:{42}:available
    }

    void flatViewScansAPattern()
    {
        ui::BrowserPanel panel(*m_client, inventory::KeySchema());
        panel.setAutoScan(false);
        panel.show();
        panel.tabs()->setCurrentIndex(2);
        auto *pattern = panel.findChild<QLineEdit *>("keyPattern");
        pattern->setText("idem:{4*");
        QTest::keyClick(pattern, Qt::Key_Return);
        // Only SKUs 42 and 43 start right after "idem:{4" (the others are "sku-...").
        QTRY_COMPARE_WITH_TIMEOUT(panel.flatView()->model().rowCount(), 2, 10000);
        QCOMPARE(panel.flatView()->model().index(0, 0).data().toString(), "idem:{42}:9001");
        QCOMPARE(panel.flatView()->model().index(0, 1).data().toString(), "string");
    }
};

QTEST_MAIN(TstBrowsePanel)
#include "tst_browse_panel.moc"
