#pragma once

#include "KeyspaceStore.h"

#include <QString>
#include <QStringList>

namespace browse {

// Receipts that expire within this window are flagged: a retry after that deducts again, so
// a support person who says "retry later" must know the window is about to close.
constexpr qint64 DefaultExpiryWarningMs = 5 * 60 * 1000;

// True when the receipt still protects its order but will stop within warnWithinMs.
bool expiresSoon(qint64 expiryMs, qint64 nowMs, qint64 warnWithinMs);

// What one receipt proves, in the words a support person uses, one line per question:
//   deducted: "Deducted 2 units at 2024-06-01 14:03:22 +02:00. Stock left right after this
//              order: 7."
//   retry:    "Safe to retry: yes, until 14:03:22 UTC today (in 3 h 6 min): a retry before
//              then changes nothing. After that a retry deducts again."
//   stockNow: "Stock now: 40."
struct OrderExplanation
{
    QString deducted;
    QString retry;
    QString stockNow;
    bool expiringSoon = false; // the retry line is a warning (see DefaultExpiryWarningMs)

    QStringList lines() const { return {deducted, retry, stockNow}; }
    QString text() const { return lines().join(QLatin1Char(' ')); }
};

OrderExplanation explainOrder(const KeyspaceStore &store, uint32_t receipt, qint64 nowMs,
                              qint64 warnWithinMs = DefaultExpiryWarningMs);

// The explanation as one paragraph (what the CLI's JSON "sentence" field carries).
QString orderSentence(const KeyspaceStore &store, uint32_t receipt, qint64 nowMs,
                      qint64 warnWithinMs = DefaultExpiryWarningMs);

// When no SKU holds a receipt for the order.
QString orderNotFoundSentence(const QByteArray &orderId);

// "14:03:22 UTC today", "09:00:00 CET tomorrow", "2024-06-08 14:03:22 CEST": the local time
// a support person can repeat to a customer, with the zone so a server in UTC is not misread.
QString formatLocalTime(qint64 epochMs, qint64 nowMs);

} // namespace browse
