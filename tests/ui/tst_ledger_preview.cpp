// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/reconcile/LedgerForm.h"
#include "ui/reconcile/LedgerPreviewDialog.h"

#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

// The ledger preview: the first rows as a run reads them, through the form's own mapping, so a
// wrong column or an unmapped state shows before a run; an unopenable ledger says so.
class TstLedgerPreview : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeLedger(const QString &name, const QByteArray &body)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(body) != body.size())
            return {};
        return path;
    }

    // Opens the preview from the form's button and waits for its rows.
    ui::LedgerPreviewDialog *preview(ui::LedgerForm &form)
    {
        form.findChild<QPushButton *>(QStringLiteral("previewLedgerRows"))->click();
        auto *dialog = form.findChild<ui::LedgerPreviewDialog *>();
        if (dialog && !QTest::qWaitFor([dialog] { return !dialog->isReading(); }, 10000))
            return nullptr; // still reading after 10 s: the test fails on it
        return dialog;
    }

private slots:
    void theFirstRowsThroughTheMapping()
    {
        QByteArray csv = "id,sku,qty,status\n";
        for (int i = 1; i <= 30; ++i)
            csv += "o-" + QByteArray::number(i) + ",sku-1," + QByteArray::number(i % 4 + 1)
                   + (i % 2 ? ",paid\n" : ",refunded\n");
        ui::LedgerForm form;
        form.setLedger(writeLedger(QStringLiteral("mapped.csv"), csv),
                       QStringLiteral("order_id=id,quantity=qty,state=status"));
        form.findChild<QLineEdit *>(QStringLiteral("ledgerStates"))
            ->setText(QStringLiteral("paid=committed,refunded=cancelled"));
        ui::LedgerPreviewDialog *dialog = preview(form);
        QVERIFY(dialog);
        QVERIFY(!dialog->isReading());
        QCOMPARE(dialog->table()->rowCount(), ui::LedgerPreviewDialog::Rows);
        QCOMPARE(dialog->table()->item(0, 1)->text(), QStringLiteral("o-1"));
        QCOMPARE(dialog->table()->item(0, 3)->text(), QStringLiteral("2"));
        QCOMPARE(dialog->table()->item(0, 4)->text(), QStringLiteral("committed"));
        QCOMPARE(dialog->table()->item(1, 4)->text(), QStringLiteral("cancelled"));
        QVERIFY2(dialog->noticeText().contains(QStringLiteral("the ledger has more")),
                 qPrintable(dialog->noticeText()));
    }

    // A state the mapping does not name stops a run: the preview shows the rows before it and
    // says why, as the run would.
    void anUnmappedStateIsShownBeforeARun()
    {
        ui::LedgerForm form;
        form.setLedger(writeLedger(QStringLiteral("states.csv"),
                                   "order_id,sku,quantity,state\n"
                                   "o-1,sku-1,1,committed\no-2,sku-1,2,committed\n"
                                   "o-3,sku-1,1,shipped\no-4,sku-1,1,committed\n"));
        ui::LedgerPreviewDialog *dialog = preview(form);
        QVERIFY(dialog);
        QCOMPARE(dialog->table()->rowCount(), 2);
        QVERIFY2(dialog->noticeText().startsWith(QStringLiteral("A run would stop here:")),
                 qPrintable(dialog->noticeText()));
        QVERIFY2(dialog->noticeText().contains(QStringLiteral("shipped")),
                 qPrintable(dialog->noticeText()));
    }

    void aLedgerThatCannotBeOpenedSaysSo()
    {
        ui::LedgerForm form;
        form.setLedger(m_dir.filePath(QStringLiteral("absent.csv")));
        ui::LedgerPreviewDialog *dialog = preview(form);
        QVERIFY(dialog);
        QCOMPARE(dialog->table()->rowCount(), 0);
        QVERIFY2(dialog->noticeText().startsWith(QStringLiteral("Could not open the ledger: ")),
                 qPrintable(dialog->noticeText()));
    }

    void allRowsOfASmallLedger()
    {
        ui::LedgerForm form;
        form.setLedger(writeLedger(QStringLiteral("small.csv"), "order_id,sku,quantity,state\n"
                                                                "o-1,sku-1,1,committed\n"));
        ui::LedgerPreviewDialog *dialog = preview(form);
        QVERIFY(dialog);
        QCOMPARE(dialog->table()->rowCount(), 1);
        QCOMPARE(dialog->noticeText(), QStringLiteral("All 1 rows of the ledger map cleanly."));
    }
};

QTEST_MAIN(TstLedgerPreview)
#include "tst_ledger_preview.moc"
