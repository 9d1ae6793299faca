#include "OrderSentence.h"

#include "Cells.h"
#include "Values.h"
#include "core/Bytes.h"
#include "inventory/ReceiptForm.h"

#include <QDateTime>

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

// "until 14:03:22 UTC today (in 3 h 6 min)"
QString until(qint64 expiryMs, qint64 nowMs)
{
    return QStringLiteral("until %1 (in %2)")
        .arg(formatLocalTime(expiryMs, nowMs), formatDuration(expiryMs - nowMs));
}

// A key the functions refuse as a receipt: a retry fails rather than deducts, until it expires.
QString invalidRetry(const KeyspaceStore &st, uint32_t r, qint64 nowMs)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry == NoExpiry)
        return QStringLiteral("Safe to retry: a retry fails (it deducts nothing) until someone "
                              "repairs or deletes the key; it never expires by itself. Check the "
                              "stock and the audit log first.");
    if (expiry <= nowMs)
        return QStringLiteral("Safe to retry: no. The key has just expired: a retry now deducts "
                              "again.");
    return QStringLiteral("Safe to retry: a retry fails (it deducts nothing) %1. After that a "
                          "retry deducts again, unless someone repairs or deletes the key first.")
        .arg(until(expiry, nowMs));
}

QString deducted(const KeyspaceStore &st, uint32_t r)
{
    QString units;
    if (st.receiptIsHash(r))
        if (const auto q = parseCanonicalInteger(st.receiptQuantity(r)))
            units = *q == 1 ? QStringLiteral(" 1 unit") : QStringLiteral(" %1 units").arg(*q);
    QString when;
    if (st.receiptIsHash(r) && !st.receiptTime(r).isEmpty())
        when = QStringLiteral(" at %1").arg(formatReceiptTime(st.receiptTime(r)));
    // A v1 receipt records only what was left, not how much was taken: say so rather than let
    // the one number be read as the quantity.
    const QString what = units.isEmpty() ? QStringLiteral("Deducted%1 (this receipt does not "
                                                          "record how many units).")
                                               .arg(when)
                                         : QStringLiteral("Deducted%1%2.").arg(units, when);
    switch (st.receiptValue(r)) {
    case ReceiptValue::Integer:
        return QStringLiteral("%1 Stock left right after this order: %2.")
            .arg(what)
            .arg(st.remaining(r));
    case ReceiptValue::NotInteger:
        return QStringLiteral("%1 The stock left after it was recorded as %2, which is not a "
                              "number: an anomaly, written by hand or by other code.")
            .arg(what, remainingText(st, r));
    case ReceiptValue::MissingField: // only hashes have fields
    case ReceiptValue::WrongType:
        break; // the functions refuse these: explainOrder explains them (ReceiptForm::Invalid)
    }
    return {};
}

QString retry(const KeyspaceStore &st, uint32_t r, qint64 nowMs, bool soon)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry == NoExpiry)
        return QStringLiteral("Safe to retry: yes, at any time: the receipt never expires (an "
                              "anomaly: it was written without an expiry, so it is never freed).");
    if (expiry <= nowMs)
        return QStringLiteral("Safe to retry: no. The receipt has just expired: a retry now "
                              "deducts again.");
    if (soon)
        return QStringLiteral("Safe to retry: yes, but only %1: the receipt expires soon. After "
                              "that a retry deducts again.")
            .arg(until(expiry, nowMs));
    return QStringLiteral("Safe to retry: yes, %1: a retry before then changes nothing. After "
                          "that a retry deducts again.")
        .arg(until(expiry, nowMs));
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
                              "retry deducts nothing and answers 'no stock key'.")
            .arg(core::escapeBytes(st.stockKey(s), DisplayBytes));
    }
    return {};
}

} // namespace

bool expiresSoon(qint64 expiryMs, qint64 nowMs, qint64 warnWithinMs)
{
    return expiryMs != NoExpiry && expiryMs > nowMs && expiryMs - nowMs <= warnWithinMs;
}

OrderExplanation explainOrder(const KeyspaceStore &st, uint32_t r, qint64 nowMs,
                              qint64 warnWithinMs)
{
    OrderExplanation e;
    e.expiringSoon = expiresSoon(st.receiptExpiryMs(r), nowMs, warnWithinMs);
    e.stockNow = stockNow(st, st.skuOfReceipt(r));
    QByteArray type;
    if (formOf(st, r, &type) == inventory::ReceiptForm::Invalid) {
        e.deducted = inventory::invalidReceiptSentence(type);
        e.retry = invalidRetry(st, r, nowMs);
        return e;
    }
    e.deducted = deducted(st, r);
    e.retry = retry(st, r, nowMs, e.expiringSoon);
    return e;
}

QString orderSentence(const KeyspaceStore &st, uint32_t r, qint64 nowMs, qint64 warnWithinMs)
{
    return explainOrder(st, r, nowMs, warnWithinMs).text();
}

QString orderNotFoundSentence(const QByteArray &orderId)
{
    return QStringLiteral("No receipt for order %1 in any SKU: either it was never deducted, or "
                          "its receipt has expired. A retry now would deduct.")
        .arg(core::escapeBytes(orderId, DisplayBytes));
}

QString formatLocalTime(qint64 epochMs, qint64 nowMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(epochMs);
    const QDate today = QDateTime::fromMSecsSinceEpoch(nowMs).date();
    const QString time = t.toString(QStringLiteral("HH:mm:ss"));
    const QString zone = t.timeZoneAbbreviation();
    if (t.date() == today)
        return QStringLiteral("%1 %2 today").arg(time, zone);
    if (t.date() == today.addDays(1))
        return QStringLiteral("%1 %2 tomorrow").arg(time, zone);
    return QStringLiteral("%1 %2 %3").arg(t.toString(QStringLiteral("yyyy-MM-dd")), time, zone);
}

} // namespace browse
