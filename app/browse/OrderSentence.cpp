#include "OrderSentence.h"

#include "Cells.h"
#include "Values.h"
#include "core/Bytes.h"
#include "inventory/ReceiptForm.h"

namespace browse {

namespace {

// What the deduction functions make of this receipt (see inventory/ReceiptForm.h), and the
// TYPE it has.
inventory::ReceiptForm formOf(const KeyspaceStore &st, uint32_t r, QByteArray *type)
{
    if (st.receiptValue(r) == ReceiptValue::WrongType) {
        *type = st.receiptRaw(r);
        return inventory::receiptForm(*type);
    }
    if (!st.receiptIsHash(r)) {
        *type = "string";
        return inventory::ReceiptForm::String;
    }
    *type = "hash";
    std::optional<QByteArray> remaining;
    if (st.receiptValue(r) == ReceiptValue::Integer)
        remaining = QByteArray::number(st.remaining(r));
    else if (st.receiptValue(r) == ReceiptValue::NotInteger)
        remaining = st.receiptRaw(r);
    const QByteArray quantity = st.receiptQuantity(r);
    return inventory::receiptForm(
        *type, remaining, quantity.isEmpty() ? std::nullopt : std::optional<QByteArray>(quantity));
}

QString invalidWindow(const KeyspaceStore &st, uint32_t r, qint64 nowMs)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry == NoExpiry)
        return inventory::invalidReceiptWindow({});
    if (expiry <= nowMs)
        return QStringLiteral("The key has just expired: a retry now would deduct again.");
    return inventory::invalidReceiptWindow(
        QStringLiteral("%1 (%2)").arg(formatDuration(expiry - nowMs), formatExpiry(expiry)));
}

QString whatHappened(const KeyspaceStore &st, uint32_t r)
{
    QString quantity;
    if (st.receiptIsHash(r) && parseCanonicalInteger(st.receiptQuantity(r)))
        quantity = QStringLiteral(" %1").arg(QString::fromLatin1(st.receiptQuantity(r)));
    QString when;
    if (st.receiptIsHash(r) && !st.receiptTime(r).isEmpty())
        when = QStringLiteral(" at %1").arg(formatReceiptTime(st.receiptTime(r)));
    switch (st.receiptValue(r)) {
    case ReceiptValue::Integer:
        return QStringLiteral("Deducted%1%2: %3 left after this order.")
            .arg(quantity, when)
            .arg(st.remaining(r));
    case ReceiptValue::NotInteger:
        return QStringLiteral("Deducted%1%2 (a receipt exists), but the recorded remaining %3 "
                              "is not a number: an anomaly, written by hand or by other code.")
            .arg(quantity, when, remainingText(st, r));
    case ReceiptValue::MissingField: // only hashes have fields
    case ReceiptValue::WrongType:
        break; // the functions refuse these: orderSentence explains them (ReceiptForm::Invalid)
    }
    return {};
}

QString window(const KeyspaceStore &st, uint32_t r, qint64 nowMs)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry == NoExpiry)
        return QStringLiteral("The receipt never expires (it has no TTL, an anomaly): every "
                              "retry returns the first result.");
    if (expiry <= nowMs)
        return QStringLiteral("The receipt has just expired: a retry now would deduct again.");
    return QStringLiteral("Receipt expires in %1 (%2); a retry before then returns the first "
                          "result, after that it would deduct again.")
        .arg(formatDuration(expiry - nowMs), formatExpiry(expiry));
}

QString stockNow(const KeyspaceStore &st, uint32_t s)
{
    switch (st.stockState(s)) {
    case StockState::Integer:
        return QStringLiteral("Stock now: %1.").arg(st.stockValue(s));
    case StockState::NotInteger:
    case StockState::WrongType:
        return QStringLiteral("Stock now: %1, which is not valid: a new deduction of this SKU "
                              "fails with an error.")
            .arg(stockText(st, s));
    case StockState::Missing:
    case StockState::Unseen:
        return QStringLiteral("The stock key %1 does not exist now: once the receipt is gone a "
                              "retry would deduct nothing and answer 'no stock key'.")
            .arg(core::escapeBytes(st.stockKey(s), DisplayBytes));
    }
    return {};
}

} // namespace

QString orderSentence(const KeyspaceStore &st, uint32_t r, qint64 nowMs)
{
    QByteArray type;
    if (formOf(st, r, &type) == inventory::ReceiptForm::Invalid)
        return inventory::invalidReceiptSentence(type) + QLatin1Char(' ')
               + invalidWindow(st, r, nowMs) + QLatin1Char(' ') + stockNow(st, st.skuOfReceipt(r));
    return whatHappened(st, r) + QLatin1Char(' ') + window(st, r, nowMs) + QLatin1Char(' ')
           + stockNow(st, st.skuOfReceipt(r));
}

QString orderNotFoundSentence(const QByteArray &orderId)
{
    return QStringLiteral("No receipt for order %1 in any SKU: either it was never deducted, or "
                          "its receipt has expired. A retry now would deduct.")
        .arg(core::escapeBytes(orderId, DisplayBytes));
}

} // namespace browse
