// SPDX-License-Identifier: GPL-3.0-or-later
// The deduction form refuses a SKU with a brace while it is typed, as the command line does
// (issue 14: "a}:b" with order "c" shared a receipt key with "a" and "b}:c"). No server.
#include "ui/deduct/DeductionForm.h"

#include <QLabel>
#include <QLineEdit>
#include <QTest>

class TstDeductFormSku : public QObject
{
    Q_OBJECT

private slots:
    void braceInTheSkuIsRefusedInline()
    {
        inventory::DeductionContext ctx;
        ctx.defaultTtlSeconds = 3600;
        ui::DeductionForm form(ctx);
        form.resize(900, 600);
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        auto *sku = form.findChild<QLineEdit *>(QStringLiteral("sku"));
        auto *order = form.findChild<QLineEdit *>(QStringLiteral("order"));
        auto *quantity = form.findChild<QLineEdit *>(QStringLiteral("quantity"));
        auto *message = form.findChild<QLabel *>(QStringLiteral("skuMessage"));
        QVERIFY(sku && order && quantity && message);
        QTest::keyClicks(order, QStringLiteral("c"));
        QTest::keyClicks(quantity, QStringLiteral("1"));
        QTest::keyClicks(sku, QStringLiteral("a}:b"));
        QVERIFY(message->isVisible());
        QVERIFY2(message->text().contains(QLatin1String("'}'")), qPrintable(message->text()));
        QVERIFY(!form.validateAll());

        sku->selectAll();
        QTest::keyClicks(sku, QStringLiteral("a"));
        QVERIFY(!message->isVisible());
        QVERIFY(form.validateAll());
    }
};

QTEST_MAIN(TstDeductFormSku)
#include "tst_deduct_form_sku.moc"
