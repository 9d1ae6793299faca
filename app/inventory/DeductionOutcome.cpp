// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionOutcome.h"

#include "PreWriteErrors.h"
#include "core/Bytes.h"
#include "redis/ReplyShape.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace inventory {

namespace {

// The sentences people read (titles, meaning, next step) are translated in the window; the CLI
// installs no translator and prints the English. summary() is the audit log's record and stays
// English.
struct OutcomeText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::DeductionOutcome)
};

// A contract anomaly's words in both copies: the result card shows the text, summary() and
// --json the English.
core::Sentence anomalySaid(const char *source)
{
    return core::Sentence::translated("inventory::DeductionOutcome", source);
}

// Why no reply came, or the one shared sentence for none.
core::Sentence transportWhy(const core::Sentence &transportError)
{
    return transportError.isEmpty() ? redis::RedisError::noReply() : transportError;
}

QString transportKindText(const core::Sentence &transportError)
{
    return transportWhy(transportError).english;
}

// The call ran, but its reply is none the contract allows: it may have written anything.
// `why` says in words what was unexpected; the raw reply is kept in replyText for the audit
// record only.
DeductionOutcome outsideContract(const redis::Reply &r, const core::Sentence &why)
{
    DeductionOutcome o;
    o.kind = OutcomeKind::MayHaveWritten;
    o.replyText = r.debugString();
    o.anomaly = why;
    return o;
}

DeductionOutcome fromServerError(const redis::RedisError &e)
{
    DeductionOutcome o;
    o.kind =
        isPreWriteRefusal(e.message.english) ? OutcomeKind::Rejected : OutcomeKind::MayHaveWritten;
    o.serverError = e.message;
    o.replyText = e.message.english;
    return o;
}

} // namespace

QString outcomeName(OutcomeKind kind)
{
    switch (kind) {
    case OutcomeKind::Deducted:
        return QStringLiteral("deducted");
    case OutcomeKind::AlreadyApplied:
        return QStringLiteral("already_applied");
    case OutcomeKind::Insufficient:
        return QStringLiteral("insufficient");
    case OutcomeKind::StockMissing:
        return QStringLiteral("stock_missing");
    case OutcomeKind::Rejected:
        return QStringLiteral("rejected");
    case OutcomeKind::MayHaveWritten:
        return QStringLiteral("may_have_written");
    case OutcomeKind::Unknown:
        return QStringLiteral("unknown");
    case OutcomeKind::NotSent:
        return QStringLiteral("not_sent");
    }
    return {};
}

QString outcomeTitle(OutcomeKind kind)
{
    switch (kind) {
    case OutcomeKind::Deducted:
        return OutcomeText::tr("Deducted");
    case OutcomeKind::AlreadyApplied:
        return OutcomeText::tr("Already applied");
    case OutcomeKind::Insufficient:
        return OutcomeText::tr("Insufficient stock");
    case OutcomeKind::StockMissing:
        return OutcomeText::tr("Stock missing");
    case OutcomeKind::Rejected:
        return OutcomeText::tr("Rejected");
    case OutcomeKind::MayHaveWritten:
        return OutcomeText::tr("Error, may have written");
    case OutcomeKind::Unknown:
        return OutcomeText::tr("Outcome unknown");
    case OutcomeKind::NotSent:
        return OutcomeText::tr("Not sent");
    }
    return {};
}

QString DeductionOutcome::summary() const
{
    const auto num = [](const std::optional<qint64> &v) {
        return v ? QString::number(*v) : QStringLiteral("?");
    };
    switch (kind) {
    case OutcomeKind::Deducted:
        return QStringLiteral("deducted: remaining %1").arg(num(remaining));
    case OutcomeKind::AlreadyApplied:
        if (recordedQuantity)
            return QStringLiteral("already applied with quantity %1 (nothing changed)")
                .arg(*recordedQuantity);
        if (!remaining)
            return QStringLiteral("already applied: %1, an anomaly (nothing changed)")
                .arg(anomaly.english);
        return QStringLiteral("already applied: recorded remaining %1 (nothing changed)")
            .arg(*remaining);
    case OutcomeKind::Insufficient:
        return QStringLiteral("insufficient: stock %1 (nothing changed)").arg(num(stock));
    case OutcomeKind::StockMissing:
        return QStringLiteral("stock missing (nothing changed)");
    case OutcomeKind::Rejected:
        return QStringLiteral("rejected: %1").arg(serverError.english);
    case OutcomeKind::MayHaveWritten:
        // The opening is what readers of the audit log match (PriorDeductions, OutcomeBuckets).
        return QStringLiteral("%1%2").arg(
            outsideContract()
                ? QStringLiteral("error, may have written: a reply outside the contract (%1)")
                      .arg(anomaly.english)
                : QStringLiteral("error, may have written: %1").arg(serverError.english),
            stockMoved.isEmpty() ? QString() : QStringLiteral(" (stock moved %1)").arg(stockMoved));
    case OutcomeKind::Unknown:
        return QStringLiteral("outcome unknown (%1)").arg(transportKindText(transportError));
    case OutcomeKind::NotSent:
        return QStringLiteral("not sent: %1").arg(transportError.english);
    }
    return {};
}

QString DeductionOutcome::meaning(DeductionMode mode) const
{
    const bool function = mode == DeductionMode::Function;
    switch (kind) {
    case OutcomeKind::Deducted:
        return function ? OutcomeText::tr("Stock was deducted and this order's receipt was "
                                          "written. Remaining stock: %1.")
                              .arg(remaining.value_or(0))
                        : OutcomeText::tr("Stock was deducted. Remaining stock: %1. The script "
                                          "keeps no receipt.")
                              .arg(remaining.value_or(0));
    case OutcomeKind::AlreadyApplied:
        return alreadyAppliedMeaning();
    case OutcomeKind::Insufficient:
        // Whole sentences per mode: a translation cannot glue a fragment in.
        return (function ? OutcomeText::tr("Not enough stock: %1 available, fewer than asked. "
                                           "Nothing was written (no receipt).")
                         : OutcomeText::tr("Not enough stock: %1 available, fewer than asked. "
                                           "Nothing was written."))
            .arg(stock.value_or(0));
    case OutcomeKind::StockMissing:
        return OutcomeText::tr("The stock key does not exist. Nothing was written: a deduction "
                               "never creates stock.");
    case OutcomeKind::Rejected:
        // Redis ends some errors with a full stop ("... SHUTDOWN NOSAVE."): not twice.
        return OutcomeText::tr("The server refused the call: %1. Nothing was written.")
            .arg(serverError.text.endsWith(QLatin1Char('.')) ? serverError.text.chopped(1)
                                                             : serverError.text);
    case OutcomeKind::MayHaveWritten:
        return mayHaveWrittenMeaning(function);
    case OutcomeKind::Unknown:
        return OutcomeText::tr("The call was sent but its result is unknown (%1). The deduction "
                               "may or may not have happened.")
            .arg(transportWhy(transportError).text);
    case OutcomeKind::NotSent:
        return OutcomeText::tr("Nothing was sent to the server: %1. Nothing changed.")
            .arg(transportError.text);
    }
    return {};
}

QString DeductionOutcome::alreadyAppliedMeaning() const
{
    if (recordedQuantity)
        return OutcomeText::tr("This order was already deducted, with quantity %1, not the "
                               "quantity asked now. Nothing changed.")
            .arg(*recordedQuantity);
    if (!remaining)
        return OutcomeText::tr("This order was already deducted earlier; nothing changed. "
                               "But %1: an anomaly (written by hand or by other code), so "
                               "what the first deduction left is unknown.")
            .arg(anomaly.text);
    return OutcomeText::tr("This order was already deducted earlier; nothing changed. The "
                           "first deduction left %1 in stock.")
        .arg(*remaining);
}

QString DeductionOutcome::mayHaveWrittenMeaning(bool function) const
{
    if (outsideContract())
        return stockMoved.isEmpty()
                   ? OutcomeText::tr("The server answered something the contract never "
                                     "returns (%1). Such a reply proves nothing about what the "
                                     "call did: it may have written.")
                         .arg(anomaly.text)
                   : OutcomeText::tr("The server answered something the contract never "
                                     "returns (%1), and the stock moved during the call (%2). "
                                     "Such a reply proves nothing about what the call did: it "
                                     "may have written.")
                         .arg(anomaly.text, stockMoved);
    const QString failed = OutcomeText::tr("The call failed: %1.").arg(serverError.text);
    const QString why =
        stockMoved.isEmpty()
            ? OutcomeText::tr("This is not one of the contract's checks before "
                              "writing.")
            : OutcomeText::tr("The stock moved during the call (%1).").arg(stockMoved);
    const QString lua = function ? OutcomeText::tr("A Lua error does not undo what ran before "
                                                   "it, so this call may have written (for "
                                                   "example deducted stock without writing the "
                                                   "receipt).")
                                 : OutcomeText::tr("A Lua error does not undo what ran before "
                                                   "it, so this call may have written (for "
                                                   "example deducted stock without writing all "
                                                   "it meant to).");
    return QStringList{failed, why, lua}.join(QLatin1Char(' '));
}

namespace {

// After a server error: what to do depends on which error it was.
QString rejectedNextStep(const QString &serverError)
{
    if (serverError.contains(QLatin1String("Function not found"), Qt::CaseInsensitive))
        return OutcomeText::tr("Load the inventory library on this server (the Libraries "
                               "tab, or inventory-cli functions load), then run again.");
    if (serverError.startsWith(QLatin1String("NOPERM")))
        return OutcomeText::tr("This user lacks the ACL permission for the call; use a user "
                               "that may run deductions.");
    if (serverError.contains(QLatin1String("invalid stock")))
        return OutcomeText::tr("The stock key holds something that is not a whole number "
                               "from 0 to 1,000,000,000 (or is not a string); correct it, "
                               "then run again.");
    if (serverError.startsWith(QLatin1String("READONLY")))
        return OutcomeText::tr("This server is a replica; connect to the primary.");
    if (serverError.startsWith(QLatin1String("BUSY")))
        return OutcomeText::tr("Another client's script or function has been running too "
                               "long, and the server answers nothing else meanwhile. Wait for "
                               "it to end (or have it stopped with SCRIPT KILL or FUNCTION "
                               "KILL), then run again: nothing was written.");
    if (serverError.startsWith(QLatin1String("OOM")))
        return OutcomeText::tr("The server is out of memory (maxmemory reached, and its policy "
                               "evicts nothing): free memory or raise maxmemory, then run "
                               "again: nothing was written.");
    return OutcomeText::tr("Fix the cause above and run again; retrying is safe, nothing was "
                           "written.");
}

QString notSentNextStep(NotSentReason reason)
{
    switch (reason) {
    case NotSentReason::InvalidRequest:
        return OutcomeText::tr("Correct what is named above, then run again: nothing was "
                               "sent.");
    case NotSentReason::AuditLog:
        return OutcomeText::tr("Make the audit log writable (free disk space, check the file's "
                               "permissions), then run again: no write goes out unrecorded.");
    // Reconnecting would not help, the key templates must.
    case NotSentReason::CrossSlot:
        return OutcomeText::tr("Put the SKU in braces in both key templates of this "
                               "connection profile (for example stock:{<sku>}:available and "
                               "idem:{<sku>}:<order>), so that both keys land in one slot.");
    case NotSentReason::Replica:
        return OutcomeText::tr("Connect to the primary named above and run it there; a "
                               "replica's copy is overwritten by its primary.");
    case NotSentReason::RoleUnknown:
        return OutcomeText::tr("Run again once the server answers INFO (it may be busy with "
                               "a long script, BUSY, or loading its data) and this user may "
                               "run INFO: a write goes only to a server known to be a "
                               "primary.");
    case NotSentReason::GateRefused:
        return OutcomeText::tr("Unlock the session (File > Unlock writes, type the profile "
                               "name) if this write is meant for it, then run again: nothing "
                               "was sent.");
    case NotSentReason::Other:
        break;
    }
    return OutcomeText::tr("Reconnect, then run again: nothing was sent.");
}

} // namespace

QString DeductionOutcome::nextStep(DeductionMode mode) const
{
    const bool function = mode == DeductionMode::Function;
    switch (kind) {
    case OutcomeKind::Deducted:
        return function ? OutcomeText::tr("Nothing to do. Retrying this order while its receipt "
                                          "lives returns Already applied.")
                        : OutcomeText::tr("Nothing to do. Do not run it again for the same "
                                          "order: the script would deduct again.");
    case OutcomeKind::AlreadyApplied:
        return OutcomeText::tr("Nothing to do. Check the receipt to see when it expires: after "
                               "that, the same order would deduct again.");
    case OutcomeKind::Insufficient:
        return OutcomeText::tr("Restock or lower the quantity. The same order id can be used "
                               "again: nothing was recorded for it.");
    case OutcomeKind::StockMissing:
        return OutcomeText::tr("Check the SKU and the profile's key templates, or create the "
                               "stock key first.");
    case OutcomeKind::Rejected:
        return rejectedNextStep(serverError.english);
    case OutcomeKind::MayHaveWritten:
        return function ? OutcomeText::tr("Do not retry yet: check the stock and the receipt "
                                          "first. If the stock went down and there is no receipt, "
                                          "the deduction happened without one, and a retry would "
                                          "deduct again.")
                        : OutcomeText::tr("Do not retry: check the stock first. The script may "
                                          "have deducted, and a retry may deduct twice.");
    case OutcomeKind::Unknown:
        return function ? OutcomeText::tr("Check the receipt: it tells whether the deduction "
                                          "happened. Retrying with the same order id is safe: it "
                                          "deducts at most once.")
                        : OutcomeText::tr("Check the stock before doing anything. Do not retry "
                                          "blindly: the script is not idempotent and a retry may "
                                          "deduct twice.");
    case OutcomeKind::NotSent:
        return notSentNextStep(notSentReason);
    }
    return {};
}

DeductionOutcome transportOutcome(const redis::RedisError &e)
{
    DeductionOutcome o;
    o.kind = e.mayHaveRun() ? OutcomeKind::Unknown : OutcomeKind::NotSent;
    switch (e.refusal) {
    case redis::RedisError::Refusal::CrossSlot:
        o.notSentReason = NotSentReason::CrossSlot;
        break;
    case redis::RedisError::Refusal::GateRefused:
        o.notSentReason = NotSentReason::GateRefused;
        break;
    case redis::RedisError::Refusal::ReadOnlyView: // a deduction never goes through one
    case redis::RedisError::Refusal::None:
        break;
    }
    o.transportError = o.kind == OutcomeKind::NotSent ? e.message : e.readFailure();
    return o;
}

DeductionOutcome withStockReadings(DeductionOutcome outcome,
                                   const std::optional<QByteArray> &before,
                                   const std::optional<QByteArray> &after)
{
    const bool error =
        outcome.kind == OutcomeKind::Rejected || outcome.kind == OutcomeKind::MayHaveWritten;
    if (!error || !before || !after || *before == *after)
        return outcome;
    outcome.kind = OutcomeKind::MayHaveWritten;
    outcome.stockMoved = QStringLiteral("%1 → %2").arg(core::escapeBytes(*before, 30),
                                                       core::escapeBytes(*after, 30));
    return outcome;
}

namespace {

// What one code means in one contract, and the values it may carry.
struct CodeRule
{
    OutcomeKind kind;
    std::optional<qint64> DeductionOutcome::*value; // nullptr: the value is not kept
    qint64 min, max;                                // the value's range (inclusive)
    // The value, in words: translated only when a reply breaks the rule, not for every reply.
    const char *what;
};

// The rule of `code` in `contract` for a call with `quantity` (when known); nullopt when the
// contract never returns that code.
std::optional<CodeRule> ruleFor(ReplyContract contract, qint64 code, std::optional<qint64> quantity)
{
    const bool script = contract == ReplyContract::Script;
    const qint64 q = quantity.value_or(1);
    if (code == 1) // stock <= MaxStockValue and stock >= quantity before the DECRBY
        return CodeRule{OutcomeKind::Deducted, &DeductionOutcome::remaining, 0, MaxStockValue - q,
                        QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "the remaining stock")};
    if (code == 0) // refused because stock < quantity
        return CodeRule{OutcomeKind::Insufficient, &DeductionOutcome::stock, 0,
                        quantity ? std::min(MaxStockValue, q - 1) : MaxStockValue,
                        QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "the stock")};
    if (code == (script ? -1 : -2))
        return CodeRule{OutcomeKind::StockMissing, nullptr, 0, 0,
                        QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "the value")};
    if (code == 2 && !script) // the receipt's text as the function read it
        return CodeRule{OutcomeKind::AlreadyApplied, &DeductionOutcome::remaining, 0, MaxStockValue,
                        QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "the recorded remaining")};
    if (code == -3 && contract == ReplyContract::FunctionV2) // another quantity than this one
        return CodeRule{OutcomeKind::AlreadyApplied, &DeductionOutcome::recordedQuantity, 1,
                        MaxQuantity,
                        QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "the recorded quantity")};
    return std::nullopt;
}

QString contractName(ReplyContract contract)
{
    switch (contract) {
    case ReplyContract::FunctionV1:
        return QStringLiteral("inventory_deduct_v1");
    case ReplyContract::FunctionV2:
        return QStringLiteral("inventory_deduct_v2");
    case ReplyContract::Script:
        return QStringLiteral("stock_decrement.lua");
    }
    return {};
}

// Why an element is not an integer, in words: a string that reads as a number still is not one
// (Lua numbers arrive as integers), so it is named by its type.
core::Sentence notInteger(const redis::Reply &e)
{
    return e.isBulk() ? anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "a string"))
                      : redis::replyShape(e);
}

DeductionOutcome decodeReply(const redis::ReplyResult &result, ReplyContract contract,
                             std::optional<qint64> quantity)
{
    if (!result.ok())
        return result.error().kind == redis::RedisError::Kind::Server
                   ? fromServerError(result.error())
                   : transportOutcome(result.error());
    const redis::Reply &r = result.value();
    if (r.isError())
        return fromServerError(redis::RedisError::fromServer(r.bytes()));
    if (!r.isArray() || r.size() != 2)
        return outsideContract(
            r, anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome",
                                             "%1, not the contract's {code, value} pair"))
                   .arg(redis::replyShape(r)));
    if (!r.at(0).isInteger())
        return outsideContract(r, anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome",
                                                                "its code is %1, not an integer"))
                                      .arg(notInteger(r.at(0))));
    const qint64 code = *r.at(0).integer();
    const auto rule = ruleFor(contract, code, quantity);
    if (!rule)
        return outsideContract(r, anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome",
                                                                "code %1, which %2 never returns"))
                                      .arg(code, contractName(contract)));
    const redis::Reply &value = r.at(1);
    const bool recorded = code == 2; // a receipt's text, whatever someone stored there
    core::Sentence problem;
    if (!value.isInteger())
        problem =
            anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "%1 is %2, not a number"))
                .arg(anomalySaid(rule->what), notInteger(value));
    else if (*value.integer() < rule->min || *value.integer() > rule->max)
        problem =
            *value.integer() < 0
                ? anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "%1 is below zero"))
                      .arg(anomalySaid(rule->what))
                : anomalySaid(
                      QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "%1 is %2, outside %3..%4"))
                      .arg(anomalySaid(rule->what), *value.integer(), rule->min, rule->max);
    else if (code == -3 && quantity && *value.integer() == *quantity)
        problem = anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome",
                                                "%1 is this call's own quantity"))
                      .arg(anomalySaid(rule->what));
    // {2, text}: the function returns a receipt's text as it found it, and a receipt proves
    // only that the order ran before: still a duplicate, the value an anomaly. Any other code
    // with a value it cannot carry is not the contract's reply at all.
    if (!problem.isEmpty() && !(recorded && (value.isInteger() || value.isBulk())))
        return outsideContract(
            r, anomalySaid(QT_TRANSLATE_NOOP("inventory::DeductionOutcome", "code %1, but %2"))
                   .arg(code, problem));
    DeductionOutcome o;
    o.replyText = r.debugString();
    o.kind = rule->kind;
    if (rule->value && problem.isEmpty())
        o.*(rule->value) = *value.integer();
    else if (rule->value)
        o.anomaly = problem;
    return o;
}

} // namespace

DeductionOutcome decodeFunctionReply(const redis::ReplyResult &result, ReplyContract contract,
                                     std::optional<qint64> quantity)
{
    return decodeReply(result, contract, quantity);
}

DeductionOutcome decodeScriptReply(const redis::ReplyResult &result, std::optional<qint64> quantity)
{
    return decodeReply(result, ReplyContract::Script, quantity);
}

} // namespace inventory
