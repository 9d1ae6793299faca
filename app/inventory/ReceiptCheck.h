// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReceiptForm.h"
#include "core/Wording.h"
#include "redis/CommandSender.h"

#include <QDateTime>
#include <QString>
#include <functional>
#include <optional>

namespace inventory {

// What a receipt key holds right now, and what that says about the deduction of its order.
struct ReceiptStatus
{
    QByteArray key;
    // Non-empty: the check itself failed, and says nothing about the deduction. The window
    // shows `.text`; the log and the CLI keep `.english`.
    core::Sentence error;
    bool exists = false;
    QByteArray type;                         // "string" (v1), "hash" (v2), "none", or other
    ReceiptForm form = ReceiptForm::Missing; // what the deduction functions make of it
    std::optional<qint64> remaining;         // the stock left by the order's deduction
    std::optional<qint64> quantity;          // v2 receipts record the quantity
    std::optional<qint64> recordedTime;      // v2 receipts: unix seconds of the deduction
    QByteArray rawValue;                     // the value as read, for display
    qint64 ttlSeconds = -2;                  // -1: no TTL, -2: missing
    QString source;                          // how it was read
    QDateTime checkedUtc;

    bool ok() const { return error.isEmpty(); }
    // When the receipt expires (invalid when it has no TTL or does not exist).
    QDateTime expiresUtc() const;
    // "7 d 0 h (604800 s)", "no TTL", "missing".
    QString ttlText(core::Wording wording = core::Wording::Translated) const;
    // "happened", "not_found", "anomalous" (the functions refuse this key, see ReceiptForm),
    // "check_failed": for --json and tests.
    QString verdictName() const;
    // A sentence: whether the deduction happened, and when a retry would deduct again.
    QString verdict() const;

private:
    QString retryWindow() const;
    QString expiryText() const;
};

// "6 d 23 h 59 min", "42 s": a duration for people.
QString humanDuration(qint64 seconds, core::Wording wording = core::Wording::Translated);

// Reads one receipt. When FUNCTION LIST shows inventory_receipt_v1, through
// FCALL_RO inventory_receipt_v1 1 <key> (a no-writes function: it knows the receipt format of
// its library); otherwise directly: TYPE, TTL, and GET or HGETALL. Reads only.
// `done` runs on the context's thread.
void checkReceipt(redis::CommandSender &sender, const QByteArray &key, QObject *context,
                  std::function<void(const ReceiptStatus &)> done, int timeoutMs = -1);
ReceiptStatus checkReceiptBlocking(redis::CommandSender &sender, const QByteArray &key,
                                   int timeoutMs = -1);

// Decoders, public for tests.
ReceiptStatus decodeReceiptFunctionReply(const QByteArray &key, const redis::Reply &reply);
// From the replies of TYPE, TTL, GET, HGETALL (in that order).
ReceiptStatus decodeDirectReceipt(const QByteArray &key, const QList<redis::ReplyResult> &r);

} // namespace inventory
