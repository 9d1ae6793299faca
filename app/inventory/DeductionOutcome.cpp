#include "DeductionOutcome.h"

#include "PreWriteErrors.h"
#include "core/Bytes.h"
#include "redis/ReplyShape.h"

#include <algorithm>
#include <iterator>

namespace inventory {

namespace {

QString transportKindText(const QString &transportError)
{
    return transportError.isEmpty() ? QStringLiteral("no reply") : transportError;
}

// The code and the second element of a {code, value, ...} reply; nullopt for any other shape.
struct CodedReply
{
    qint64 code;
    std::optional<qint64> value;
};
std::optional<CodedReply> coded(const redis::Reply &r)
{
    const auto first = r.element(0), second = r.element(1);
    if (!first || !second)
        return std::nullopt;
    const auto code = first->number();
    if (!code)
        return std::nullopt;
    return CodedReply{*code, second->asInteger()};
}

// The call ran, but we cannot tell what it did: only a receipt check can. `why` says in words
// what was unexpected; the raw reply is kept in replyText for the audit record only.
DeductionOutcome unreadable(const redis::Reply &r, const QString &why)
{
    DeductionOutcome o;
    o.kind = OutcomeKind::Unknown;
    o.replyText = r.debugString();
    o.anomaly = why;
    o.transportError = QStringLiteral("unexpected reply: %1").arg(why);
    return o;
}

// Why a reply is not a {code, value} array, in words.
QString shapeProblem(const redis::Reply &r)
{
    if (!r.isArray() || r.size() < 2)
        return QStringLiteral("%1, not the contract's {code, value} array")
            .arg(redis::replyShape(r));
    return QStringLiteral("its first element is %1, not a code").arg(redis::replyShape(r.at(0)));
}

DeductionOutcome fromServerError(const redis::RedisError &e)
{
    DeductionOutcome o;
    o.kind = isPreWriteRefusal(e.message) ? OutcomeKind::Rejected : OutcomeKind::MayHaveWritten;
    o.serverError = e.message;
    o.replyText = e.message;
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
        return QStringLiteral("Deducted");
    case OutcomeKind::AlreadyApplied:
        return QStringLiteral("Already applied");
    case OutcomeKind::Insufficient:
        return QStringLiteral("Insufficient stock");
    case OutcomeKind::StockMissing:
        return QStringLiteral("Stock missing");
    case OutcomeKind::Rejected:
        return QStringLiteral("Rejected");
    case OutcomeKind::MayHaveWritten:
        return QStringLiteral("Error, may have written");
    case OutcomeKind::Unknown:
        return QStringLiteral("Outcome unknown");
    case OutcomeKind::NotSent:
        return QStringLiteral("Not sent");
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
            return QStringLiteral("already applied: %1, an anomaly (nothing changed)").arg(anomaly);
        return QStringLiteral("already applied: recorded remaining %1 (nothing changed)")
            .arg(*remaining);
    case OutcomeKind::Insufficient:
        return QStringLiteral("insufficient: stock %1 (nothing changed)").arg(num(stock));
    case OutcomeKind::StockMissing:
        return QStringLiteral("stock missing (nothing changed)");
    case OutcomeKind::Rejected:
        return QStringLiteral("rejected: %1").arg(serverError);
    case OutcomeKind::MayHaveWritten:
        return QStringLiteral("error, may have written: %1%2")
            .arg(serverError, stockMoved.isEmpty()
                                  ? QString()
                                  : QStringLiteral(" (stock moved %1)").arg(stockMoved));
    case OutcomeKind::Unknown:
        return QStringLiteral("outcome unknown (%1)").arg(transportKindText(transportError));
    case OutcomeKind::NotSent:
        return QStringLiteral("not sent: %1").arg(transportError);
    }
    return {};
}

QString DeductionOutcome::meaning(DeductionMode mode) const
{
    const bool function = mode == DeductionMode::Function;
    switch (kind) {
    case OutcomeKind::Deducted:
        return function ? QStringLiteral("Stock was deducted and this order's receipt was "
                                         "written. Remaining stock: %1.")
                              .arg(remaining.value_or(0))
                        : QStringLiteral("Stock was deducted. Remaining stock: %1. The script "
                                         "keeps no receipt.")
                              .arg(remaining.value_or(0));
    case OutcomeKind::AlreadyApplied:
        if (recordedQuantity)
            return QStringLiteral("This order was already deducted, with quantity %1, not the "
                                  "quantity asked now. Nothing changed.")
                .arg(*recordedQuantity);
        if (!remaining)
            return QStringLiteral("This order was already deducted earlier; nothing changed. "
                                  "But %1: an anomaly (written by hand or by other code), so "
                                  "what the first deduction left is unknown.")
                .arg(anomaly);
        return QStringLiteral("This order was already deducted earlier; nothing changed. The "
                              "first deduction left %1 in stock.")
            .arg(*remaining);
    case OutcomeKind::Insufficient:
        return QStringLiteral("Not enough stock: %1 available, fewer than asked. Nothing was "
                              "written%2.")
            .arg(stock.value_or(0))
            .arg(function ? QStringLiteral(" (no receipt)") : QString());
    case OutcomeKind::StockMissing:
        return QStringLiteral("The stock key does not exist. Nothing was written: a deduction "
                              "never creates stock.");
    case OutcomeKind::Rejected:
        // Redis ends some errors with a full stop ("... SHUTDOWN NOSAVE."): not twice.
        return QStringLiteral("The server refused the call: %1. Nothing was written.")
            .arg(serverError.endsWith(QLatin1Char('.')) ? serverError.chopped(1) : serverError);
    case OutcomeKind::MayHaveWritten:
        return QStringLiteral("The call failed: %1. %2A Lua error does not undo what ran "
                              "before it, so this call may have written (for example deducted "
                              "stock without writing %3).")
            .arg(serverError,
                 stockMoved.isEmpty()
                     ? QStringLiteral("This is not one of the contract's checks before writing. ")
                     : QStringLiteral("The stock moved during the call (%1). ").arg(stockMoved),
                 function ? QStringLiteral("the receipt") : QStringLiteral("all it meant to"));
    case OutcomeKind::Unknown:
        return QStringLiteral("The call was sent but its result is unknown (%1). The deduction "
                              "may or may not have happened.")
            .arg(transportKindText(transportError));
    case OutcomeKind::NotSent:
        return QStringLiteral("Nothing was sent to the server: %1. Nothing changed.")
            .arg(transportError);
    }
    return {};
}

QString DeductionOutcome::nextStep(DeductionMode mode) const
{
    const bool function = mode == DeductionMode::Function;
    switch (kind) {
    case OutcomeKind::Deducted:
        return function ? QStringLiteral("Nothing to do. Retrying this order while its receipt "
                                         "lives returns Already applied.")
                        : QStringLiteral("Nothing to do. Do not run it again for the same "
                                         "order: the script would deduct again.");
    case OutcomeKind::AlreadyApplied:
        return QStringLiteral("Nothing to do. Check the receipt to see when it expires: after "
                              "that, the same order would deduct again.");
    case OutcomeKind::Insufficient:
        return QStringLiteral("Restock or lower the quantity. The same order id can be used "
                              "again: nothing was recorded for it.");
    case OutcomeKind::StockMissing:
        return QStringLiteral("Check the SKU and the profile's key templates, or create the "
                              "stock key first.");
    case OutcomeKind::Rejected:
        if (serverError.contains(QLatin1String("Function not found"), Qt::CaseInsensitive))
            return QStringLiteral("Load the inventory library on this server (Functions), then "
                                  "run again.");
        if (serverError.startsWith(QLatin1String("NOPERM")))
            return QStringLiteral("This user lacks the ACL permission for the call; use a user "
                                  "that may run deductions.");
        if (serverError.contains(QLatin1String("invalid stock")))
            return QStringLiteral("The stock key holds something that is not a whole number "
                                  "from 0 to 1,000,000,000 (or is not a string); correct it, "
                                  "then run again.");
        if (serverError.startsWith(QLatin1String("READONLY")))
            return QStringLiteral("This server is a replica; connect to the primary.");
        if (serverError.startsWith(QLatin1String("BUSY")))
            return QStringLiteral("Another client's script or function has been running too "
                                  "long, and the server answers nothing else meanwhile. Wait for "
                                  "it to end (or have it stopped with SCRIPT KILL or FUNCTION "
                                  "KILL), then run again: nothing was written.");
        if (serverError.startsWith(QLatin1String("OOM")))
            return QStringLiteral("The server is out of memory (maxmemory reached, and its policy "
                                  "evicts nothing): free memory or raise maxmemory, then run "
                                  "again: nothing was written.");
        return QStringLiteral("Fix the cause above and run again; retrying is safe, nothing was "
                              "written.");
    case OutcomeKind::MayHaveWritten:
        return function ? QStringLiteral("Do not retry yet: check the stock and the receipt "
                                         "first. If the stock went down and there is no receipt, "
                                         "the deduction happened without one, and a retry would "
                                         "deduct again.")
                        : QStringLiteral("Do not retry: check the stock first. The script may "
                                         "have deducted, and a retry may deduct twice.");
    case OutcomeKind::Unknown:
        return function ? QStringLiteral("Check the receipt: it tells whether the deduction "
                                         "happened. Retrying with the same order id is safe: it "
                                         "deducts at most once.")
                        : QStringLiteral("Check the stock before doing anything. Do not retry "
                                         "blindly: the script is not idempotent and a retry may "
                                         "deduct twice.");
    case OutcomeKind::NotSent:
        if (transportError.contains(QLatin1String("audit log")))
            return QStringLiteral("Make the audit log writable (free disk space, check the file's "
                                  "permissions), then run again: no write goes out unrecorded.");
        // The cluster router's refusal: reconnecting would not help, the key templates must.
        if (transportError.contains(QLatin1String("different cluster slots")))
            return QStringLiteral("Put the SKU in braces in both key templates of this "
                                  "connection profile (for example stock:{<sku>}:available and "
                                  "idem:{<sku>}:<order>), so that both keys land in one slot.");
        return QStringLiteral("Reconnect, or unlock the session if it is read-only, then run "
                              "again.");
    }
    return {};
}

DeductionOutcome transportOutcome(const redis::RedisError &e)
{
    DeductionOutcome o;
    // Conservative: anything that failed after the bytes were handed to the socket may
    // have run on the server (outcomeUnknown() names the usual two: timeout, lost connection).
    o.kind = (e.outcomeUnknown() || e.written) ? OutcomeKind::Unknown : OutcomeKind::NotSent;
    o.transportError = o.kind == OutcomeKind::NotSent
                           ? e.message
                           : QStringLiteral("%1: %2").arg(e.kindName(), e.message);
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

// What one code of a {code, value} reply means in a contract, and where its value goes.
struct ReplyCode
{
    qint64 code;
    OutcomeKind kind;
    std::optional<qint64> DeductionOutcome::*value; // nullptr: the value is not kept
    bool valueRequired;                             // else {code, "text"} is still readable
};

// inventory_deduct_v1, and v2's codes: {-3, quantity} and extra trailing elements.
constexpr ReplyCode FunctionCodes[] = {
    {1, OutcomeKind::Deducted, &DeductionOutcome::remaining, true},
    // {2, "text"}: a receipt whose value is not a number; still a duplicate.
    {2, OutcomeKind::AlreadyApplied, &DeductionOutcome::remaining, false},
    {0, OutcomeKind::Insufficient, &DeductionOutcome::stock, true},
    {-2, OutcomeKind::StockMissing, nullptr, false},
    // v2: this order was applied with a different quantity.
    {-3, OutcomeKind::AlreadyApplied, &DeductionOutcome::recordedQuantity, false},
};

// stock_decrement.lua: every reply is two integers.
constexpr ReplyCode ScriptCodes[] = {
    {1, OutcomeKind::Deducted, &DeductionOutcome::remaining, true},
    {0, OutcomeKind::Insufficient, &DeductionOutcome::stock, true},
    {-1, OutcomeKind::StockMissing, nullptr, true},
};

// Words for a value a code carries that is not a number from 0: `what` names the value.
QString valueProblem(const redis::Reply &value, const QString &what)
{
    const auto v = value.asInteger();
    return v ? QStringLiteral("%1 is below zero").arg(what)
             : QStringLiteral("%1 is %2, not a number").arg(what, redis::replyShape(value));
}

QString valueName(OutcomeKind kind, bool quantity)
{
    if (quantity)
        return QStringLiteral("the recorded quantity");
    switch (kind) {
    case OutcomeKind::AlreadyApplied:
        return QStringLiteral("the recorded remaining");
    case OutcomeKind::Insufficient:
        return QStringLiteral("the stock");
    default:
        return QStringLiteral("the remaining stock");
    }
}

template<std::size_t N>
DeductionOutcome decodeReply(const redis::ReplyResult &result, const ReplyCode (&codes)[N])
{
    if (!result.ok())
        return result.error().kind == redis::RedisError::Kind::Server
                   ? fromServerError(result.error())
                   : transportOutcome(result.error());
    const redis::Reply &r = result.value();
    if (r.isError())
        return fromServerError(redis::RedisError::fromServer(r.bytes()));
    const auto c = coded(r);
    if (!c)
        return unreadable(r, shapeProblem(r));
    const auto known = std::find_if(std::begin(codes), std::end(codes),
                                    [&](const ReplyCode &k) { return k.code == c->code; });
    if (known == std::end(codes))
        return unreadable(
            r, QStringLiteral("code %1, which the contract does not define").arg(c->code));
    // Stock, remaining and quantities are never below zero: a negative one is never shown as
    // "deducted -1" or "stock -5", whatever the code says.
    const bool valueOk = c->value && *c->value >= 0;
    const QString problem =
        valueOk
            ? QString()
            : valueProblem(r.at(1), valueName(known->kind,
                                              known->value == &DeductionOutcome::recordedQuantity));
    if (known->valueRequired && !valueOk)
        return unreadable(r, QStringLiteral("code %1, but %2").arg(c->code).arg(problem));
    DeductionOutcome o;
    o.replyText = r.debugString();
    o.kind = known->kind;
    if (known->value && valueOk)
        o.*(known->value) = c->value;
    else if (known->value)
        o.anomaly = problem;
    return o;
}

} // namespace

DeductionOutcome decodeFunctionReply(const redis::ReplyResult &result)
{
    return decodeReply(result, FunctionCodes);
}

DeductionOutcome decodeScriptReply(const redis::ReplyResult &result)
{
    return decodeReply(result, ScriptCodes);
}

} // namespace inventory
