// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DeductionRequest.h"
#include "redis/Reply.h"

#include <QString>
#include <optional>

namespace inventory {

// What one deduction call did, decoded from its reply. NotSent is not a deduction outcome: the
// command never reached the server (disconnected, read-only session, refused by the client).
enum class OutcomeKind {
    Deducted,       // {1, remaining}
    AlreadyApplied, // {2, recorded remaining}; v2: {-3, recorded quantity} (other quantity)
    Insufficient,   // {0, stock}
    StockMissing,   // function {-2, 0}, script {-1, 0}
    Rejected,       // an error reply known to come before any write (PreWriteErrors.h)
    MayHaveWritten, // any other error reply, a stock that moved, or a reply outside the
                    // contract (an anomaly): never "safe to retry"
    Unknown,        // sent, no reply (timeout, connection lost)
    NotSent,
};

// Why a NotSent outcome did not go out, named where it was refused: the advice follows it,
// never the words of the refusal.
enum class NotSentReason {
    Other,          // disconnected, or anything else: reconnect and run again
    InvalidRequest, // a field of the request
    CrossSlot,      // the stock and receipt keys hash to different slots
    GateRefused,    // the session's write gate: unlock it to write there
    AuditLog,       // the attempt could not be recorded first
    Replica,        // the server is a replica
    RoleUnknown,    // the server's role could not be read
};

// "deducted", "already_applied", "insufficient", "stock_missing", "rejected",
// "may_have_written", "unknown", "not_sent": the names the CLI's --json and the audit log use.
QString outcomeName(OutcomeKind kind);
// "Deducted", "Already applied", ...: for people.
QString outcomeTitle(OutcomeKind kind);

struct DeductionOutcome
{
    OutcomeKind kind = OutcomeKind::Unknown;
    std::optional<qint64> remaining;        // Deducted; AlreadyApplied: the recorded remaining
    std::optional<qint64> stock;            // Insufficient: the current stock
    std::optional<qint64> recordedQuantity; // AlreadyApplied by v2 with another quantity
    // Rejected, MayHaveWritten: the server's text (plain), or the console's own words in both
    // copies when it wrote them (a script it could not load).
    core::Sentence serverError;
    QString stockMoved; // MayHaveWritten: "100 → 95" when the stock read before and after differ
    core::Sentence transportError; // Unknown / NotSent: what the client saw
    NotSentReason notSentReason = NotSentReason::Other;
    QString replyText; // the raw reply, escaped, for the record (never for sentences)
    // What was unexpected in the reply, in words ("the recorded remaining is a string, not a
    // number"); empty when the reply had the contract's shape. With kind MayHaveWritten the
    // whole reply was outside the contract; with AlreadyApplied only the recorded value was.
    // The window shows .text, summary() and --json the English.
    core::Sentence anomaly;

    // MayHaveWritten because the reply was none the contract allows (not a server error).
    bool outsideContract() const
    {
        return kind == OutcomeKind::MayHaveWritten && !anomaly.isEmpty();
    }

    // One line for the audit log and the CLI: "deducted: remaining 7",
    // "outcome unknown (timeout): ...".
    QString summary() const;
    // What it means and what to do next, for the result card.
    QString meaning(DeductionMode mode) const;
    QString nextStep(DeductionMode mode) const;

private:
    QString alreadyAppliedMeaning() const;
    QString mayHaveWrittenMeaning(bool function) const;
};

// Whose replies are decoded: each returns only the codes docs/contracts.md gives it.
enum class ReplyContract {
    FunctionV1, // inventory_deduct_v1: {1|2|0, n}, {-2, 0}
    FunctionV2, // inventory_deduct_v2: as v1, and {-3, recorded quantity}
    Script,     // stock_decrement.lua: {1|0, n}, {-1, 0}
};

// Decodes the reply of FCALL inventory_deduct_v1 (or v2). Only the contract's shapes are
// outcomes: exactly two elements, integer code and value, the value within what the call could
// have produced for `quantity` (when given). Anything else is an anomaly: MayHaveWritten, the
// raw reply kept in replyText, since a server (or a function under our name) that answers
// outside the contract may have done anything.
DeductionOutcome decodeFunctionReply(const redis::ReplyResult &result,
                                     ReplyContract contract = ReplyContract::FunctionV1,
                                     std::optional<qint64> quantity = std::nullopt);
// Decodes the reply of EVALSHA stock_decrement.lua, as strictly.
DeductionOutcome decodeScriptReply(const redis::ReplyResult &result,
                                   std::optional<qint64> quantity = std::nullopt);
// A transport failure (not a server error) as an outcome: NotSent or Unknown.
DeductionOutcome transportOutcome(const redis::RedisError &error);
// An error whose stock read before and after differs is MayHaveWritten, with the readings:
// something wrote during the call, perhaps this call before its error. Other outcomes are
// returned as they are.
DeductionOutcome withStockReadings(DeductionOutcome outcome,
                                   const std::optional<QByteArray> &before,
                                   const std::optional<QByteArray> &after);

} // namespace inventory
