// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DeductionContext.h"
#include "DeductionOutcome.h"
#include "ReceiptCheck.h"
#include "redis/CommandSender.h"

#include <QDateTime>
#include <QStringList>
#include <functional>
#include <optional>

namespace inventory {

// A key read outside the deduction (just before or just after it): other clients may change
// it in between, so it is context, not proof.
struct KeyReading
{
    bool read = false;               // false: not attempted (e.g. after an unknown outcome)
    core::Sentence error;            // the read failed (or WRONGTYPE)
    std::optional<QByteArray> value; // nullopt: the key does not exist
    QString text() const; // "12", "missing", "not read", "could not read (WRONGTYPE ...)"
    static KeyReading fromReply(const redis::ReplyResult &reply); // of a GET
};

// Everything one deduction did, in the order it happened.
struct DeductionResult
{
    DeductionPlan plan;
    DeductionOutcome outcome;
    QDateTime startedUtc;
    qint64 durationMs = -1; // of the deciding write (FCALL or the final EVALSHA)
    QString runId;          // the server's run_id, read before the call (empty if it moved)
    QString server; // host:port of the node that ran it (a cluster: the slot owner, after MOVED)
    KeyReading stockBefore; // GET, just before
    KeyReading stockAfter;  // GET, just after (skipped when the outcome is unknown or not sent)
    std::optional<ReceiptStatus> receiptAfter; // Function mode, read just after
    bool scriptLoaded = false;  // Script mode: NOSCRIPT came back, SCRIPT LOAD ran, then a retry
    QList<redis::Command> sent; // every write sent, in order (EVALSHA, SCRIPT LOAD, EVALSHA)
    core::Sentences auditProblems; // outcome records that failed (the result is shown anyway)
};

struct DeductionOptions
{
    // Recorded in the audit record's detail, e.g. "retry after an unknown outcome".
    QString note;
};

// Runs one deduction through `sender` (the session's, gated, sender):
//  1. reads the stock, the server's run_id (INFO server) and its role (INFO replication): a
//     replica, or a role that could not be read, is refused (NotSent, nothing written);
//  2. sends the write: FCALL inventory_deduct_v1, or EVALSHA of stock_decrement.lua; on
//     NOSCRIPT (which proves the script did not run) SCRIPT LOAD and EVALSHA once more;
//  3. write-ahead audit: before each write is sent, appends an fsynced attempt record (if
//     that fails, the write is not sent: NotSent, or Rejected after NOSCRIPT, with the audit
//     log's path and why); once its reply is in, the outcome record with the same attempt
//     id, before anything is reported;
//  4. reads the stock and (Function mode) the receipt with its TTL again, unless the outcome
//     is unknown or nothing was sent (readBack; see RetryProtection.h for what it can undo).
// A plan with problems is not sent (NotSent). The run keeps itself alive until the last
// reply, so the audit record is written even when `context` is destroyed before; `done` then
// is not called. `done` runs on the context's thread.
void deduct(redis::CommandSender &sender, const DeductionContext &ctx, const DeductionPlan &plan,
            QObject *context, std::function<void(const DeductionResult &)> done,
            const DeductionOptions &options = {});
DeductionResult deductBlocking(redis::CommandSender &sender, const DeductionContext &ctx,
                               const DeductionPlan &plan, const DeductionOptions &options = {});

// Step 4 of deduct(), on its own: reads the stock and (Function mode) the receipt again into
// a copy of `result` (stockAfter, receiptAfter; an error outcome whose stock moved becomes
// MayHaveWritten). Reads only; `done` runs on the context's thread.
void readBack(redis::CommandSender &sender, DeductionResult result, QObject *context,
              std::function<void(const DeductionResult &)> done, int timeoutMs = -1);
DeductionResult readBackBlocking(redis::CommandSender &sender, const DeductionResult &result,
                                 int timeoutMs = -1);

// After an unknown outcome in Script mode there is no receipt: the stock now, against the
// stock read just before the call, is the only evidence. Says how far it goes.
QString scriptCheckVerdict(const DeductionResult &result, const KeyReading &now);

// What a receipt check says about this call. No receipt is never "did not happen": the
// receipt can have expired or been evicted, or the decrement run without it.
QString receiptVerdict(const DeductionResult &result, const ReceiptStatus &receipt);

// The run_id in a reply of INFO server; empty when it is not there (or the read failed).
QString runIdOf(const redis::ReplyResult &infoServer);

// Reads one key's string value (GET). Reads only; `done` runs on the context's thread.
void readKey(redis::CommandSender &sender, const QByteArray &key, QObject *context,
             std::function<void(const KeyReading &)> done, int timeoutMs = -1);

} // namespace inventory
