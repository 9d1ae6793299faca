// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"
#include "ServerEvidence.h"

#include <QString>
#include <QStringList>

namespace browse {

// Receipts that expire within this window are flagged: a retry after that deducts again, so
// a support person who says "retry later" must know the window is about to close.
constexpr qint64 DefaultExpiryWarningMs = 5 * 60 * 1000;

// True when the receipt still protects its order but will stop within warnWithinMs.
bool expiresSoon(qint64 expiryMs, qint64 nowMs, qint64 warnWithinMs);

// How far "a retry changes nothing" is proven. A receipt's TTL is an upper bound of the
// protection, not a promise: eviction, or a restart without persistence, can end it sooner.
enum class RetryVerdict {
    Safe,         // the receipt exists, nothing can remove it before it expires
    ProbablySafe, // it exists, but something could remove it sooner (stated as a risk)
    NotProven,    // it exists, but the evidence is missing or says it may go at any time
    No,           // it has expired: a retry deducts again
    Refused,      // the key is not a valid receipt: a retry fails until it is repaired
};
QString retryVerdictName(RetryVerdict v); // safe, probably_safe, not_proven, no, refused

// What one receipt proves, in the words a support person uses, one line per question:
//   deducted: "Deducted 2 units at 2024-06-01 14:03:22 +02:00. Stock left right after this
//              order: 7."
//   retry:    "Safe to retry: yes, until 14:03:22 UTC today (in 3 h 6 min): a retry before
//              then changes nothing. After that a retry deducts again. Nothing removes it
//              sooner: maxmemory-policy noeviction, and it is on disk (AOF)."
//   stockNow: "Stock now: 40."
// The retry line rests on the server evidence given; without it (nullptr, or a failed read)
// it says "not proven" and why.
struct OrderExplanation
{
    QString deducted;
    QString retry;
    QString stockNow;
    bool expiringSoon = false; // the retry line is a warning (see DefaultExpiryWarningMs)
    RetryVerdict verdict = RetryVerdict::NotProven;
    QStringList retryReasons; // what the verdict rests on, or what could end it sooner

    QStringList lines() const { return {deducted, retry, stockNow}; }
    QString text() const { return lines().join(QLatin1Char(' ')); }
};

OrderExplanation explainOrder(const KeyspaceStore &store, uint32_t receipt, qint64 nowMs,
                              const ServerEvidence *evidence,
                              qint64 warnWithinMs = DefaultExpiryWarningMs);

// When no SKU holds a receipt for the order. No receipt never proves that nothing happened:
// the sentence says what else removes receipts, narrowed by what was read of each server
// (its start time, persistence, evictions). `searchComplete` false: the search itself is not
// proof of anything.
QString orderNotFoundSentence(const QByteArray &orderId, const QList<ServerEvidence> &evidence,
                              bool searchComplete);

// "14:03:22 UTC today", "09:00:00 CET tomorrow", "2024-06-08 14:03:22 CEST": the local time
// a support person can repeat to a customer, with the zone so a server in UTC is not misread.
QString formatLocalTime(qint64 epochMs, qint64 nowMs);

} // namespace browse
