// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DeductionOutcome.h"
#include "RepairRequest.h"

#include <QString>
#include <optional>

namespace inventory {

// What one repair call did, decoded from its reply at one boundary (ReleaseOutcome.h,
// AdjustOutcome.h). Each row of docs/contracts.md has its own kind; NotSent is no outcome of
// the function: the command never reached the server.
enum class RepairOutcomeKind {
    Applied,        // {1, stock after}: released / adjusted
    AlreadyApplied, // {2, current stock, or -1: the stock key is missing}: the record key exists
    NoReceipt,      // release {-4, 0}: no receipt, so no deduction to release
    OtherQuantity,  // release {-3, recorded quantity}: the receipt records another quantity
    OutOfBounds,    // adjust {0, current stock}: the stock would leave 0..1,000,000,000
    StockMissing,   // {-2, 0}
    Rejected,       // an error reply known to come before any write (PreWriteErrors.h)
    MayHaveWritten, // any other error reply, or a reply outside the contract (an anomaly)
    Unknown,        // sent, no reply (timeout, connection lost): never resent
    NotSent,
};

struct RepairOutcome
{
    RepairKind repair = RepairKind::Release;
    RepairOutcomeKind kind = RepairOutcomeKind::Unknown;
    // Applied: the stock after; AlreadyApplied (nullopt when the stock key is missing),
    // OutOfBounds: the stock now.
    std::optional<qint64> stock;
    std::optional<qint64> recordedQuantity; // OtherQuantity
    // Each error in both copies, as DeductionOutcome keeps them: the window shows the text, the
    // CLI, --json and the audit log the English.
    core::Sentence serverError; // Rejected, MayHaveWritten: the server's text (plain)
    QString stockMoved;         // MayHaveWritten: "10 → 13" when the stock read around it differs
    // Unknown, NotSent: what the client saw, or why the console did not send it.
    core::Sentence transportError;
    NotSentReason notSentReason = NotSentReason::Other;
    QString replyText;      // the raw reply, escaped, for the record (never for sentences)
    core::Sentence anomaly; // MayHaveWritten: what was outside the contract, in words

    // "released", "already_released", "no_receipt", "other_quantity", "stock_missing" (release);
    // "adjusted", "already_applied", "out_of_bounds", "stock_missing" (adjust); "rejected",
    // "may_have_written", "unknown", "not_sent": the names of --json and the audit log.
    QString name() const;
    // One line for the audit log: "released: stock 10", "outcome unknown (timeout: ...)".
    QString summary() const;
    // One clear sentence for a person, about the call of `plan`: the window shows the text,
    // the CLI prints the English.
    core::Sentence sentence(const RepairPlan &plan) const;

private:
    core::Sentence failureSentence(const RepairPlan &plan) const;
};

// A failed command as an outcome: a server error (Rejected before any write, else
// MayHaveWritten) or a transport failure (NotSent, or Unknown once it may have run).
RepairOutcome repairErrorOutcome(RepairKind repair, const redis::RedisError &error);

// Words of a repair outcome in both copies, in the translation context "inventory::RepairOutcome"
// (mark `source` with QT_TRANSLATE_NOOP there, for lupdate).
core::Sentence repairSaid(const char *source);

// The shared part of the two decoders: what one code means in a repair contract, and the
// values it may carry (inclusive).
struct RepairCodeRule
{
    RepairOutcomeKind kind;
    qint64 min, max;
    core::Sentence what;                 // the value, in words
    std::optional<qint64> notValue = {}; // a value the code never carries (this call's own)
};
// Decodes a {code, value} reply by `rules` (nullopt: the contract never returns that code).
// Only the contract's shapes are outcomes; any other reply is MayHaveWritten with `anomaly`.
RepairOutcome decodeRepairReply(RepairKind repair, const redis::ReplyResult &result,
                                const std::function<std::optional<RepairCodeRule>(qint64)> &rules);

} // namespace inventory
