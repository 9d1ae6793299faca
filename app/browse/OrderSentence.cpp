// SPDX-License-Identifier: GPL-3.0-or-later
#include "OrderSentence.h"

#include "Cells.h"
#include "Values.h"
#include "core/Bytes.h"
#include "inventory/ReceiptForm.h"

#include <QCoreApplication>
#include <QDateTime>
#include <optional>

namespace browse {

namespace {

// The order lookup's sentences are translated in the window; the CLI (inventory-cli order, its
// text and --json) installs no translator and prints the English. The clauses that fill a
// sentence's %n (a time window, the reasons) are phrases a translation can place anywhere.
struct OrderSentenceText
{
    Q_DECLARE_TR_FUNCTIONS(browse::OrderSentence)
};

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
    return OrderSentenceText::tr("until %1 (in %2)")
        .arg(formatLocalTime(expiryMs, nowMs),
             formatDuration(expiryMs - nowMs, core::Wording::Translated));
}

// A key the functions refuse as a receipt: a retry fails rather than deducts, until it expires.
QString invalidRetry(const KeyspaceStore &st, uint32_t r, qint64 nowMs)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry == NoExpiry)
        return OrderSentenceText::tr(
            "Safe to retry: a retry fails (it deducts nothing) until someone "
            "repairs or deletes the key; it never expires by itself. Check the "
            "stock and the audit log first.");
    if (expiry <= nowMs)
        return OrderSentenceText::tr(
            "Safe to retry: no. The key has just expired: a retry now deducts "
            "again.");
    return OrderSentenceText::tr(
               "Safe to retry: a retry fails (it deducts nothing) %1. After that a "
               "retry deducts again, unless someone repairs or deletes the key first.")
        .arg(until(expiry, nowMs));
}

// "Deducted 2 units at 2024-06-01 14:03:22 +02:00.": whole sentences, so that a translation
// keeps its own word order.
QString deductedWhat(const KeyspaceStore &st, uint32_t r)
{
    std::optional<qint64> units;
    if (st.receiptIsHash(r))
        units = parseCanonicalInteger(st.receiptQuantity(r));
    const QString when = st.receiptIsHash(r) && !st.receiptTime(r).isEmpty()
                             ? formatReceiptTime(st.receiptTime(r))
                             : QString();
    // A v1 receipt records only what was left, not how much was taken: say so rather than let
    // the one number be read as the quantity.
    if (!units)
        return when.isEmpty()
                   ? OrderSentenceText::tr("Deducted (this receipt does not record how many "
                                           "units).")
                   : OrderSentenceText::tr("Deducted at %1 (this receipt does not record how many "
                                           "units).")
                         .arg(when);
    if (*units == 1)
        return when.isEmpty() ? OrderSentenceText::tr("Deducted 1 unit.")
                              : OrderSentenceText::tr("Deducted 1 unit at %1.").arg(when);
    return when.isEmpty() ? OrderSentenceText::tr("Deducted %1 units.").arg(*units)
                          : OrderSentenceText::tr("Deducted %1 units at %2.").arg(*units).arg(when);
}

QString deducted(const KeyspaceStore &st, uint32_t r)
{
    const QString what = deductedWhat(st, r);
    switch (st.receiptValue(r)) {
    case ReceiptValue::Integer:
        return what + QLatin1Char(' ')
               + OrderSentenceText::tr("Stock left right after this order: %1.")
                     .arg(st.remaining(r));
    case ReceiptValue::NotInteger:
        return what + QLatin1Char(' ')
               + OrderSentenceText::tr("The stock left after it was recorded as %1, which is not "
                                       "a number: an anomaly, written by hand or by other code.")
                     .arg(remainingText(st, r));
    case ReceiptValue::MissingField: // only hashes have fields
    case ReceiptValue::WrongType:
        break; // the functions refuse these: explainOrder explains them (ReceiptForm::Invalid)
    }
    return {};
}

QString capitalised(QString sentenceStart)
{
    if (!sentenceStart.isEmpty())
        sentenceStart[0] = sentenceStart[0].toUpper();
    return sentenceStart;
}

// When the receipt was written, if it says (v2: "seconds.microseconds" of server time).
std::optional<qint64> writtenAtMs(const KeyspaceStore &st, uint32_t r)
{
    if (!st.receiptIsHash(r))
        return std::nullopt;
    bool ok = false;
    const double seconds = st.receiptTime(r).toDouble(&ok);
    if (!ok || seconds < 1e9 || seconds > 1e11)
        return std::nullopt;
    return qint64(seconds * 1000);
}

struct RetryLine
{
    RetryVerdict verdict;
    QString text;
    QStringList reasons;
};

// What could remove the receipt before it expires, read off the server: `hard` reasons make
// the protection not proven, `risks` only probable, `basis` is what a "yes" rests on.
void weigh(const ServerEvidence &ev, std::optional<qint64> writtenAt, qint64 nowMs,
           QStringList &hard, QStringList &risks, QStringList &basis)
{
    const QString policy = QStringLiteral("maxmemory-policy %1").arg(ev.evictionPolicy);
    const QString memory = ev.memoryText();
    const QString memoryNote = memory.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(memory);
    if (!ev.evictionPossible()) {
        basis << (ev.maxMemory == 0
                      ? OrderSentenceText::tr("no maxmemory is set, so nothing is evicted")
                      : OrderSentenceText::tr("%1 never evicts").arg(policy));
    } else {
        const bool allKeys = ev.evictionPolicy.startsWith(QLatin1String("allkeys"));
        if (ev.evictedKeys > 0)
            hard << OrderSentenceText::tr(
                        "the server has evicted %1 keys since it started (%2%3): "
                        "receipts are among what it evicts, and this one may be next")
                        .arg(ev.evictedKeys)
                        .arg(policy, memoryNote);
        else
            risks << (allKeys ? OrderSentenceText::tr("%1 evicts any key when memory is full%2")
                              : OrderSentenceText::tr("%1 evicts keys with a TTL, receipts "
                                                      "included, when memory is full%2"))
                         .arg(policy, memoryNote);
    }
    if (ev.aofEnabled.value_or(false)) {
        basis << OrderSentenceText::tr("it is on disk (AOF is on)");
    } else if (writtenAt && ev.lastSaveMs >= *writtenAt) {
        basis << OrderSentenceText::tr("it is in the snapshot of %1")
                     .arg(formatLocalTime(ev.lastSaveMs, nowMs));
    } else if (!ev.aofEnabled) {
        risks << OrderSentenceText::tr("the server's persistence could not be read");
    } else {
        const QString last = ev.lastSaveMs > 0
                                 ? OrderSentenceText::tr("last snapshot %1")
                                       .arg(formatLocalTime(ev.lastSaveMs, nowMs))
                                 : OrderSentenceText::tr("no snapshot since it started");
        risks << OrderSentenceText::tr("AOF is off: a restart or failover before the next snapshot "
                                       "loses it (%1)")
                     .arg(last);
    }
}

RetryLine retry(const KeyspaceStore &st, uint32_t r, qint64 nowMs, bool soon,
                const ServerEvidence *ev)
{
    const qint64 expiry = st.receiptExpiryMs(r);
    if (expiry != NoExpiry && expiry <= nowMs)
        return {
            RetryVerdict::No,
            OrderSentenceText::tr("Safe to retry: no. The receipt has just expired: a retry now "
                                  "deducts again."),
            {OrderSentenceText::tr("the receipt has expired")}};
    const QString window =
        expiry == NoExpiry ? OrderSentenceText::tr("at any time (the receipt never expires: an "
                                                   "anomaly, it was written without an expiry)")
        : soon             ? OrderSentenceText::tr("but only %1, as the receipt expires soon")
                     .arg(until(expiry, nowMs))
               : until(expiry, nowMs);
    const QString after = expiry == NoExpiry
                              ? QString()
                              : OrderSentenceText::tr(" After that a retry deducts again.");
    if (!ev)
        return {RetryVerdict::NotProven,
                OrderSentenceText::tr(
                    "Safe to retry: not proven yet. The receipt would protect a retry "
                    "%1, if nothing removes it sooner; reading the server's eviction "
                    "policy and persistence…")
                    .arg(window),
                {OrderSentenceText::tr(
                    "the server's eviction policy and persistence are not read yet")}};
    if (!ev->known())
        return {RetryVerdict::NotProven,
                OrderSentenceText::tr(
                    "Safe to retry: not proven. The receipt would protect a retry %1 "
                    "only if nothing removes it sooner, and the console could not read "
                    "what could (%2). Ask someone who may run INFO for the server's "
                    "maxmemory-policy and persistence.")
                    .arg(window, ev->readError),
                {OrderSentenceText::tr("could not read the server: %1").arg(ev->readError)}};
    QStringList hard, risks, basis;
    weigh(*ev, writtenAtMs(st, r), nowMs, hard, risks, basis);
    if (!hard.isEmpty())
        return {RetryVerdict::NotProven,
                OrderSentenceText::tr(
                    "Safe to retry: not proven. The receipt is there now and would "
                    "protect a retry %1, but %2. Look the order up again right before "
                    "a retry.")
                    .arg(window, hard.join(OrderSentenceText::tr("; ", "between reasons"))),
                hard + risks};
    if (!risks.isEmpty())
        return {RetryVerdict::ProbablySafe,
                OrderSentenceText::tr("Safe to retry: probably, %1, unless the receipt is removed "
                                      "sooner: %2.%3")
                    .arg(window, risks.join(OrderSentenceText::tr("; ", "between reasons")), after),
                risks};
    return {RetryVerdict::Safe,
            OrderSentenceText::tr("Safe to retry: yes, %1: a retry before then changes nothing.%2 "
                                  "Nothing removes the receipt sooner: %3.")
                .arg(window, after, basis.join(OrderSentenceText::tr(", and ", "between reasons"))),
            basis};
}

QString stockNow(const KeyspaceStore &st, uint32_t s)
{
    switch (st.stockState(s)) {
    case StockState::Integer:
        return OrderSentenceText::tr("Stock now: %1.").arg(st.stockValue(s));
    case StockState::NotInteger:
    case StockState::WrongType:
        return OrderSentenceText::tr(
                   "Stock now: %1, which is not valid: a new deduction of this SKU "
                   "fails with an error.")
            .arg(stockText(st, s));
    case StockState::Missing:
    case StockState::Unseen:
        return OrderSentenceText::tr(
                   "The stock key %1 does not exist now: once the receipt is gone a "
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

QString retryVerdictName(RetryVerdict v)
{
    switch (v) {
    case RetryVerdict::Safe:
        return QStringLiteral("safe");
    case RetryVerdict::ProbablySafe:
        return QStringLiteral("probably_safe");
    case RetryVerdict::NotProven:
        return QStringLiteral("not_proven");
    case RetryVerdict::No:
        return QStringLiteral("no");
    case RetryVerdict::Refused:
        return QStringLiteral("refused");
    }
    return {};
}

OrderExplanation explainOrder(const KeyspaceStore &st, uint32_t r, qint64 nowMs,
                              const ServerEvidence *evidence, qint64 warnWithinMs)
{
    OrderExplanation e;
    e.expiringSoon = expiresSoon(st.receiptExpiryMs(r), nowMs, warnWithinMs);
    e.stockNow = stockNow(st, st.skuOfReceipt(r));
    QByteArray type;
    if (formOf(st, r, &type) == inventory::ReceiptForm::Invalid) {
        e.deducted = inventory::invalidReceiptSentence(type);
        e.retry = invalidRetry(st, r, nowMs);
        e.verdict = RetryVerdict::Refused;
        return e;
    }
    e.deducted = deducted(st, r);
    RetryLine line = retry(st, r, nowMs, e.expiringSoon, evidence);
    e.retry = line.text;
    e.verdict = line.verdict;
    e.retryReasons = line.reasons;
    return e;
}

QString orderNotFoundSentence(const QByteArray &orderId, const QList<ServerEvidence> &evidence,
                              bool searchComplete)
{
    const QString order = core::escapeBytes(orderId, DisplayBytes);
    if (!searchComplete)
        return OrderSentenceText::tr(
                   "Not proven: the search for order %1 is incomplete, so a receipt it "
                   "did not read may exist. Do not retry on this answer: search again "
                   "once the problem above is solved.")
            .arg(order);
    QStringList out{
        OrderSentenceText::tr("No receipt for order %1 in any SKU. That does not prove it "
                              "never ran: a receipt also disappears when it expires, is "
                              "evicted, or is lost in a restart or failover.")
            .arg(order)};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const ServerEvidence &ev : evidence) {
        if (!ev.known()) {
            out << OrderSentenceText::tr(
                       "Could not read when the server started or what it evicted "
                       "(%1).")
                       .arg(ev.readError);
            continue;
        }
        out << OrderSentenceText::tr("%1 started %2 (up %3): receipts written before then survived "
                                     "only if persistence kept them (%4).")
                   .arg(capitalised(ev.serverText()), formatLocalTime(ev.startedAtMs(), now),
                        formatDuration(ev.uptimeSeconds * 1000, core::Wording::Translated),
                        ev.aofEnabled.value_or(false)
                            ? OrderSentenceText::tr("AOF is on")
                            : OrderSentenceText::tr("AOF is off: only those in its last snapshot"));
        if (ev.evictionPossible() && ev.evictedKeys > 0)
            out << OrderSentenceText::tr("It has evicted %1 keys since (maxmemory-policy %2).")
                       .arg(ev.evictedKeys)
                       .arg(ev.evictionPolicy);
    }
    out << OrderSentenceText::tr("A retry now deducts; if the order ran before, that is a second "
                                 "deduction: check the audit log or the order ledger first.");
    return out.join(QLatin1Char(' '));
}

QString formatLocalTime(qint64 epochMs, qint64 nowMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(epochMs);
    const QDate today = QDateTime::fromMSecsSinceEpoch(nowMs).date();
    const QString time = t.toString(QStringLiteral("HH:mm:ss"));
    const QString zone = t.timeZoneAbbreviation();
    if (t.date() == today)
        return OrderSentenceText::tr("%1 %2 today").arg(time, zone);
    if (t.date() == today.addDays(1))
        return OrderSentenceText::tr("%1 %2 tomorrow").arg(time, zone);
    return QStringLiteral("%1 %2 %3").arg(t.toString(QStringLiteral("yyyy-MM-dd")), time, zone);
}

} // namespace browse
