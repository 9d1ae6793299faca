// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser panel offscreen over a real redis-server: it scans when shown, lists SKUs
// and receipts, answers an order id typed into the lookup with its sentence, lists
// anomalies, copies exact bytes, and runs a guarded delete through a confirmation that shows
// the exact command, into the audit log.
#include "AuditTrail.h"
#include "DialogAnswer.h"
#include "ServerTest.h"

#include "browse/InventoryScan.h"
#include "browse/ModelRoles.h"
#include "inventory/AuditLog.h"
#include "ui/browse/AnomalyView.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/FlatKeyView.h"
#include "ui/browse/KeyActionDialog.h"
#include "ui/browse/OrderLookupView.h"
#include "ui/browse/SkuBrowserView.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

namespace {

constexpr qint64 Hour = 3600LL * 1000;

} // namespace

class TstBrowsePanel : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(), QString());
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
        for (const auto &r : m_c->callBatch(seed))
            QVERIFY(r.ok());
    }

    // Before the session knows whether the server is a cluster, no view scans: a scan of the
    // seed alone would present part of a cluster's keys as all of them. Asked meanwhile, each
    // says why it waits and runs once the topology is known.
    void viewsWaitForTheTopology()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        panel.setTopologyKnown(false);
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.resize(1400, 900);
        panel.show();
        panel.rescan();
        panel.flatView()->scan("stock:*");
        panel.orderView()->lookUp("9001");
        // Each would be running by now (a scan starts synchronously): none is.
        QVERIFY(!panel.inventoryScan().isRunning());
        QVERIFY(!panel.flatView()->isScanning());
        QVERIFY(!panel.orderView()->isSearching());
        QVERIFY(scanned.isEmpty());
        const auto says = [](const QWidget *view) {
            for (const QLabel *label : view->findChildren<QLabel *>())
                if (label->text().startsWith("Finding out whether the server is a cluster"))
                    return true;
            return false;
        };
        QVERIFY2(panel.statusText().startsWith("Finding out whether the server is a cluster"),
                 qPrintable(panel.statusText()));
        QVERIFY(says(panel.flatView()));
        QVERIFY(says(panel.orderView()));

        panel.setTopologyKnown(true);
        QVERIFY(scanned.wait(20000));
        QCOMPARE(scanned[0][0].toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(panel.flatView()->model().rowCount() > 0, 20000);
        auto *result = panel.findChild<QTextBrowser *>("orderResult");
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains("SKU 43"), 20000);
    }

    void scansListsAndLooksUpAnOrder()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
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
        // The retry line waits for the server's evidence (eviction policy, persistence): until
        // then it says "not proven yet", never "yes".
        QTRY_VERIFY_WITH_TIMEOUT(!result->toPlainText().contains("not proven yet"), 20000);
        const QString text = result->toPlainText();
        // One line per question: deducted, safe to retry until when, stock now.
        QVERIFY2(text.contains("Deducted (this receipt does not record how many units). Stock "
                               "left right after this order: 3.\nSafe to retry: probably, until "),
                 qPrintable(text));
        QVERIFY2(text.contains("(in 6 d 23 h), unless the receipt is removed sooner: AOF is off: "
                               "a restart or failover before the next snapshot loses it ("),
                 qPrintable(text));
        QVERIFY2(text.contains("After that a retry deducts again.\nStock now: 40."),
                 qPrintable(text));
        QVERIFY(!text.contains("TTL"));
        QVERIFY(text.contains("The stock key stock:{43}:available does not exist now"));
        QTRY_VERIFY(panel.findChild<QLabel *>("orderProgress")
                        ->text()
                        .startsWith("2 receipts for order 9001"));
        QTest::keyClicks(input, "9"); // "90019": no such order
        QTest::keyClick(input, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains("No receipt for order 90019"),
                                 20000);
        // No receipt is not proof: the answer says so and names the server's start time.
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains(") started "), 20000);
        QVERIFY2(result->toPlainText().contains("That does not prove it never ran"),
                 qPrintable(result->toPlainText()));
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains(
                                     "This console's audit log has no deduction of this order"),
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
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        QVERIFY(scanned.wait(20000));
        auto *del = panel.skuView()->findChild<QPushButton *>("deleteReceipt");
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("sku-5"));
        panel.skuView()->receiptTable()->selectRow(0);
        QVERIFY(!del->isEnabled()); // no write sender: no actions
        QVERIFY(del->toolTip().contains("not available"));

        const QString log = m_dir.filePath("audit.jsonl");
        panel.setWriteSender(m_c.get());
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
        testsupport::answerNextDialog<ui::KeyActionDialog>(
            "confirmAction", [&](ui::KeyActionDialog *d) {
                shown = d->findChild<QPlainTextEdit *>("exactCommand")->toPlainText();
            });
        del->click();
        QCOMPARE(shown, "DEL 'idem:{sku-5}:5'");
        QTRY_COMPARE_WITH_TIMEOUT(m_c->call({"EXISTS", "idem:{sku-5}:5"})->toInteger(), 0, 5000);
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
        testsupport::answerNextDialog<ui::KeyActionDialog>("no-such-button",
                                                           [](ui::KeyActionDialog *) {});
        del->click();
        QCOMPARE(m_c->call({"EXISTS", "idem:{sku-6}:6"})->toInteger(), 1);
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
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
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
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
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
    // "8 receipts" over 7 rows: the receipts pane's title counts what is there, by the clock,
    // and says when some are about to expire.
    void receiptsTitleCountsOnlyLiveReceipts()
    {
        QList<redis::Command> seed{{"SET", "stock:{cnt}:available", "9"}};
        for (int i = 1; i <= 7; ++i)
            seed << redis::Command{"SET", "idem:{cnt}:" + QByteArray::number(i), "8", "PX",
                                   QByteArray::number(100 * Hour)};
        seed << redis::Command{"SET", "idem:{cnt}:8", "1", "PX", "6000"};
        // The views' clock stands still at the seeding until the first counts are checked, so
        // a slow machine cannot let the short receipt expire before they are read.
        static qint64 seededAt = 0;
        seededAt = QDateTime::currentMSecsSinceEpoch();
        browse::setModelClockForTests([] { return seededAt; });
        const auto realClock = qScopeGuard([] { browse::setModelClockForTests(nullptr); });
        for (const auto &r : m_c->callBatch(seed))
            QVERIFY(r.ok());
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        QVERIFY(scanned.wait(20000));
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("cnt"));
        QTRY_COMPARE(panel.skuView()->receiptModel().rowCount(), 8);
        QString title = panel.skuView()->receiptsTitle();
        QVERIFY2(title.contains(": 8 receipts; 1 expires within 5 min"), qPrintable(title));
        // Once it expired: 7, before the refresh removes the row, and after.
        browse::setModelClockForTests(nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(panel.skuView()->receiptsTitle().contains(": 7 receipts"), 10000);
        QVERIFY(!panel.skuView()->receiptsTitle().contains("expires within"));
        QTRY_COMPARE_WITH_TIMEOUT(panel.skuView()->receiptModel().rowCount(), 7, 15000);
        title = panel.skuView()->receiptsTitle();
        QVERIFY2(title.endsWith(": 7 receipts"), qPrintable(title));
        QVERIFY(m_c->call({"DEL", "stock:{cnt}:available", "idem:{cnt}:1", "idem:{cnt}:2",
                           "idem:{cnt}:3", "idem:{cnt}:4", "idem:{cnt}:5", "idem:{cnt}:6",
                           "idem:{cnt}:7"})
                    .ok());
    }

    // Ticking "Only SKUs with anomalies" hides a SKU: the receipts pane lets go of it too.
    void anomaliesFilterAndReceiptsPaneAgree()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.show();
        QVERIFY(scanned.wait(20000));
        ui::SkuBrowserView *view = panel.skuView();
        const browse::KeyspaceStore &st = panel.inventoryScan().store();
        view->selectSku(st.findSku("sku-7"));
        QTRY_COMPARE(view->receiptModel().rowCount(), 1);
        auto *only = view->findChild<QCheckBox *>("anomaliesOnly");
        only->setChecked(true);
        QCOMPARE(view->skuModel().rowOfSku(st.findSku("sku-7")), -1);
        QCOMPARE(view->receiptModel().sku(), browse::KeyspaceStore::None);
        QCOMPARE(view->receiptModel().rowCount(), 0);
        QCOMPARE(view->receiptsTitle(), "Select a SKU to see its receipts.");
        // A SKU the filter keeps stays selected, with its receipts.
        only->setChecked(false);
        view->selectSku(st.findSku("43")); // a receipt whose stock key is missing
        QTRY_COMPARE(view->receiptModel().rowCount(), 1);
        only->setChecked(true);
        QCOMPARE(view->receiptModel().sku(), st.findSku("43"));
        QCOMPARE(view->receiptModel().rowCount(), 1);
        // The same after a rescan, where the filter is applied again once anomalies are final.
        view->selectSku(st.findSku("neg"));
        panel.rescan();
        QVERIFY(scanned.wait(20000));
        const uint32_t shown = view->receiptModel().sku();
        QVERIFY(shown == browse::KeyspaceStore::None || view->skuModel().rowOfSku(shown) >= 0);
    }

    // PERSIST on a key without a TTL does nothing: the button is off there, on where a TTL is.
    void removeTtlOnlyOnKeysWithATtl()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        panel.setWriteSender(m_c.get());
        panel.show();
        QVERIFY(scanned.wait(20000));
        ui::SkuBrowserView *view = panel.skuView();
        auto *removeTtl = view->findChild<QPushButton *>("removeTtl");
        auto *setStock = view->findChild<QPushButton *>("setStock");
        view->selectSku(panel.inventoryScan().store().findSku("sku-9")); // stock: no TTL
        QVERIFY(!removeTtl->isEnabled());
        QVERIFY(removeTtl->toolTip().contains("no TTL"));
        QVERIFY(setStock->isEnabled());
        QTRY_COMPARE(view->receiptModel().rowCount(), 1);
        view->receiptTable()->selectRow(0); // the receipt has one
        QVERIFY(removeTtl->isEnabled());
        QVERIFY(!setStock->isEnabled()); // stock actions act on the SKU's stock key only
        view->selectSku(panel.inventoryScan().store().findSku("43")); // no stock key
        QVERIFY(!setStock->isEnabled());

        // The same in the list of all keys.
        panel.tabs()->setCurrentIndex(2);
        auto *pattern = panel.findChild<QLineEdit *>("keyPattern");
        auto *flatRemove = panel.flatView()->findChild<QPushButton *>("flatRemoveTtl");
        auto *table = panel.flatView()->findChild<QTableView *>();
        for (const auto &[key, hasTtl] :
             {std::pair{"stock:{sku-9}:available", false}, std::pair{"idem:{sku-9}:9", true}}) {
            pattern->setText(QString::fromLatin1(key));
            QTest::keyClick(pattern, Qt::Key_Return);
            QTRY_COMPARE_WITH_TIMEOUT(panel.flatView()->model().rowCount(), 1, 10000);
            table->selectRow(0);
            QCOMPARE(flatRemove->isEnabled(), hasTtl);
        }
    }

    // A bad stock value is repaired through a dialog that refuses what the functions would
    // refuse, shows the exact command, and writes an audit record.
    void setStockValidatesShowsTheCommandAndIsAudited()
    {
        QVERIFY(m_c->call({"SET", "stock:{bad}:available", "12.5"}).ok());
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        QSignalSpy scanned(&panel, &ui::BrowserPanel::scanFinished);
        const QString log = m_dir.filePath("set-stock-audit.jsonl");
        panel.setWriteSender(m_c.get());
        panel.setAuditContext({log, "local", {}, {}});
        panel.show();
        QVERIFY(scanned.wait(20000));
        panel.skuView()->selectSku(panel.inventoryScan().store().findSku("bad"));
        QStringList commands;
        QList<bool> confirmable;
        QString current;
        testsupport::answerNextDialog<ui::KeyActionDialog>(
            "confirmAction", [&](ui::KeyActionDialog *d) {
                current = d->findChild<QLabel *>("currentStock")->text();
                auto *input = d->findChild<QLineEdit *>("newStock");
                auto *confirm = d->findChild<QPushButton *>("confirmAction");
                for (const char *typed : {"12.5", "-3", "40"}) {
                    input->setText(QString::fromLatin1(typed));
                    commands << d->findChild<QPlainTextEdit *>("exactCommand")->toPlainText();
                    confirmable << confirm->isEnabled();
                }
                // Enter in the field neither cancels (losing the value) nor confirms: it moves
                // to the confirm button.
                input->setFocus();
                QTest::keyClick(input, Qt::Key_Return);
                QVERIFY(d->isVisible());
                QCOMPARE(d->result(), 0);
                // The dialog's focus widget, not hasFocus(): under load the offscreen window may
                // not be the active one, and focus proper needs an active window.
                QCOMPARE(d->focusWidget(), confirm);
            });
        panel.skuView()->findChild<QPushButton *>("setStock")->click();
        QCOMPARE(current, "\"12.5\"");
        // An invalid value previews no command: nothing would be sent.
        QCOMPARE(commands, (QStringList{"(nothing is sent until the value is valid)",
                                        "(nothing is sent until the value is valid)",
                                        "SET 'stock:{bad}:available' 40 XX"}));
        QCOMPARE(confirmable, (QList<bool>{false, false, true}));
        QTRY_COMPARE_WITH_TIMEOUT(m_c->call({"GET", "stock:{bad}:available"})->bytes(),
                                  QByteArray("40"), 5000);
        QTRY_VERIFY(panel.statusText().contains("stock set to 40"));
        const auto trail = testsupport::readAuditTrail(log);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.writes.size(), 1);
        QCOMPARE(trail.writes[0].action, "set_stock");
        QCOMPARE(trail.writes[0].command,
                 (QList<QByteArray>{"SET", "stock:{bad}:available", "40", "XX"}));
        QVERIFY(m_c->call({"DEL", "stock:{bad}:available"}).ok());
    }

    // The order lookup's answer: one line per question, a warning when the retry window is
    // about to close, and a way to the order's audit records.
    void orderLookupWarnsAndLinksToTheAuditLog()
    {
        QVERIFY(m_c->call({"SET", "idem:{sku-77}:5150", "12", "PX", "90000"}).ok());
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        ui::BrowserPanel panel(scan, inventory::KeySchema());
        panel.setAutoScan(false);
        panel.show();
        QSignalSpy audit(&panel, &ui::BrowserPanel::auditRecordsRequested);
        panel.lookUpOrder("5150");
        auto *result = panel.findChild<QTextBrowser *>("orderResult");
        QTRY_VERIFY_WITH_TIMEOUT(result->toPlainText().contains("SKU sku-77"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!result->toPlainText().contains("not proven yet"), 20000);
        QString text = result->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Stock left right after this order: 12.\n\u26a0 Safe "
                                              "to retry: probably, but only until ")),
                 qPrintable(text));
        QVERIFY2(text.contains("as the receipt expires soon, unless the receipt is removed sooner"),
                 qPrintable(text));
        // The window is the user's: at one minute, 90 s is no longer "soon".
        panel.setExpiryWarningMs(60000);
        QTRY_VERIFY(!result->toPlainText().contains("expires soon"));
        QVERIFY(result->toPlainText().contains("unless the receipt is removed sooner"));

        auto *button = panel.findChild<QPushButton *>("orderShowAudit");
        QVERIFY(button->isEnabled());
        button->click(); // no row selected: the order in every SKU
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit[0][0].toString(), QString());
        QCOMPARE(audit[0][1].toString(), "5150");
        panel.orderView()->findChild<QTableView *>("orderReceiptTable")->selectRow(0);
        button->click();
        QCOMPARE(audit.size(), 2);
        QCOMPARE(audit[1][0].toString(), "sku-77");
        QCOMPARE(audit[1][1].toString(), "5150");
        // The link under each receipt asks for the same.
        emit result->anchorClicked(
            QUrl(QStringLiteral("audit:%1").arg(panel.orderView()->model().receiptAt(0))));
        QCOMPARE(audit.size(), 3);
        QCOMPARE(audit[2][0].toString(), "sku-77");
        QVERIFY(m_c->call({"DEL", "idem:{sku-77}:5150"}).ok());
    }
};

QTEST_MAIN(TstBrowsePanel)
#include "tst_browse_panel.moc"
