// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptForm.h"

#include "DeductionRequest.h"

#include <QCoreApplication>

namespace inventory {

namespace {
// Translated in the window (the receipt verdicts); the CLI prints the English.
struct ReceiptFormText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::ReceiptStatus)
};

bool canonical(const std::optional<QByteArray> &text, qint64 min, qint64 max)
{
    return text && !canonicalNumberProblem(*text, min, max);
}
} // namespace

ReceiptForm receiptForm(QByteArrayView type, const std::optional<QByteArray> &remaining,
                        const std::optional<QByteArray> &quantity)
{
    if (type == "none")
        return ReceiptForm::Missing;
    if (type == "string")
        return ReceiptForm::String;
    // read_receipt accepts a hash only with both fields canonical and a quantity of at least 1.
    if (type == "hash" && canonical(remaining, 0, MaxStockValue)
        && canonical(quantity, 1, MaxQuantity))
        return ReceiptForm::Hash;
    return ReceiptForm::Invalid;
}

QString invalidReceiptSentence(QByteArrayView type)
{
    if (type == "hash")
        return ReceiptFormText::tr("The key at this order's receipt name is a hash without a "
                                   "valid 'remaining' and 'quantity', not a receipt: an anomaly, "
                                   "so whether the order was deducted cannot be read from it. A "
                                   "retry deducts nothing and fails: inventory_deduct_v1 answers "
                                   "WRONGTYPE, inventory_deduct_v2 'ERR invalid receipt'.");
    return ReceiptFormText::tr("The key at this order's receipt name is a %1, not a receipt: an "
                               "anomaly, so whether the order was deducted cannot be read from "
                               "it. A retry deducts nothing and fails: inventory_deduct_v1 "
                               "answers WRONGTYPE, inventory_deduct_v2 'ERR invalid receipt'.")
        .arg(QString::fromLatin1(type));
}

QString invalidReceiptWindow(const QString &expiresIn)
{
    if (expiresIn.isEmpty())
        return ReceiptFormText::tr("It has no TTL: retries keep failing until someone repairs or "
                                   "deletes the key (check the stock and the audit log first).");
    return ReceiptFormText::tr("It expires in %1; after that a retry would deduct again, unless "
                               "someone repairs or deletes the key first.")
        .arg(expiresIn);
}

} // namespace inventory
