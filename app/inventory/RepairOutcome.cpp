// SPDX-License-Identifier: GPL-3.0-or-later
#include "RepairOutcome.h"

#include "PreWriteErrors.h"
#include "core/Bytes.h"
#include "redis/ReplyShape.h"

namespace inventory {

namespace {

// The reply is none the contract allows: the call may have written anything.
RepairOutcome repairOutsideContract(RepairKind repair, const redis::Reply &r,
                                    const core::Sentence &why)
{
    RepairOutcome o;
    o.repair = repair;
    o.kind = RepairOutcomeKind::MayHaveWritten;
    o.replyText = r.debugString();
    o.anomaly = why;
    return o;
}

QString functionOf(RepairKind repair)
{
    return QLatin1String(repair == RepairKind::Release ? ReleaseFunctionName : AdjustFunctionName);
}

core::Sentence stockText(const std::optional<qint64> &stock)
{
    return stock ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the stock is %1"))
                       .arg(*stock)
                 : repairSaid(
                     QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the stock key is missing now"));
}

} // namespace

// A repair's sentence in both copies: the window shows the text, the CLI prints the English.
// summary() is the audit log's result and stays English.
core::Sentence repairSaid(const char *source)
{
    return core::Sentence::translated("inventory::RepairOutcome", source);
}

QString RepairOutcome::name() const
{
    const bool release = repair == RepairKind::Release;
    switch (kind) {
    case RepairOutcomeKind::Applied:
        return release ? QStringLiteral("released") : QStringLiteral("adjusted");
    case RepairOutcomeKind::AlreadyApplied:
        return release ? QStringLiteral("already_released") : QStringLiteral("already_applied");
    case RepairOutcomeKind::NoReceipt:
        return QStringLiteral("no_receipt");
    case RepairOutcomeKind::OtherQuantity:
        return QStringLiteral("other_quantity");
    case RepairOutcomeKind::OutOfBounds:
        return QStringLiteral("out_of_bounds");
    case RepairOutcomeKind::StockMissing:
        return QStringLiteral("stock_missing");
    case RepairOutcomeKind::Rejected:
        return QStringLiteral("rejected");
    case RepairOutcomeKind::MayHaveWritten:
        return QStringLiteral("may_have_written");
    case RepairOutcomeKind::Unknown:
        return QStringLiteral("unknown");
    case RepairOutcomeKind::NotSent:
        return QStringLiteral("not_sent");
    }
    return {};
}

QString RepairOutcome::summary() const
{
    const QString n = name().replace(QLatin1Char('_'), QLatin1Char(' '));
    switch (kind) {
    case RepairOutcomeKind::Applied:
    case RepairOutcomeKind::AlreadyApplied:
    case RepairOutcomeKind::OutOfBounds:
        return QStringLiteral("%1: %2").arg(n, stock ? QStringLiteral("stock %1").arg(*stock)
                                                     : QStringLiteral("stock key missing"));
    case RepairOutcomeKind::OtherQuantity:
        return QStringLiteral("%1: the receipt records %2").arg(n).arg(*recordedQuantity);
    case RepairOutcomeKind::NoReceipt:
    case RepairOutcomeKind::StockMissing:
        return n;
    case RepairOutcomeKind::Rejected:
        return QStringLiteral("rejected: %1").arg(serverError.english);
    case RepairOutcomeKind::MayHaveWritten:
        return QStringLiteral("may have written: %1")
            .arg(anomaly.isEmpty() ? serverError.english : anomaly.english);
    case RepairOutcomeKind::Unknown:
        return QStringLiteral("outcome unknown (%1)").arg(transportError.english);
    case RepairOutcomeKind::NotSent:
        return QStringLiteral("not sent: %1").arg(transportError.english);
    }
    return {};
}

core::Sentence RepairOutcome::sentence(const RepairPlan &plan) const
{
    const RepairRequest &r = plan.request;
    const QString sku = core::escapeBytes(r.sku, 60);
    const QString id = core::escapeBytes(r.id, 60);
    const QString amount = QString::fromUtf8(r.amount);
    const bool release = repair == RepairKind::Release;
    // Whole sentences for a release and for an adjustment: a translation keeps its own order.
    switch (kind) {
    case RepairOutcomeKind::Applied:
        return release
                   ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                  "Released: order %1 gave %2 back to SKU %3; the "
                                                  "stock is now %4."))
                         .arg(id, amount, sku, QString::number(*stock))
                   : repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                  "Adjusted: SKU %1 changed by %2 under adjustment "
                                                  "%3; the stock is now %4."))
                         .arg(sku, amount, id, QString::number(*stock));
    case RepairOutcomeKind::AlreadyApplied:
        return (release
                    ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Already released: the release of order %1 on "
                                                   "SKU %2 was applied before (its key exists), so "
                                                   "nothing changed; %3."))
                    : repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Already applied: adjustment %1 on SKU %2 was "
                                                   "applied before (its key exists), so nothing "
                                                   "changed; %3.")))
            .arg(id, sku, stockText(stock));
    case RepairOutcomeKind::NoReceipt:
        return repairSaid(
                   QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                     "Not released: order %1 has no receipt on SKU %2, so no "
                                     "deduction is proven, and nothing was written."))
            .arg(id, sku);
    case RepairOutcomeKind::OtherQuantity:
        return repairSaid(
                   QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                     "Not released: the receipt of order %1 records a deduction "
                                     "of %2, not %3; nothing was written."))
            .arg(id, QString::number(*recordedQuantity), amount);
    case RepairOutcomeKind::OutOfBounds:
        return repairSaid(
                   QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                     "Not adjusted: the stock of SKU %1 is %2, and %3 would take "
                                     "it out of 0..1,000,000,000; nothing was written."))
            .arg(sku, QString::number(*stock), amount);
    default:
        return failureSentence(plan);
    }
}

// The outcomes that wrote nothing or may have: the same for a release and an adjustment but
// for their names.
core::Sentence RepairOutcome::failureSentence(const RepairPlan &plan) const
{
    const QString sku = core::escapeBytes(plan.request.sku, 60);
    const QString id = core::escapeBytes(plan.request.id, 60);
    const bool release = repair == RepairKind::Release;
    switch (kind) {
    case RepairOutcomeKind::StockMissing:
        return (release
                    ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Not released: the stock key %1 does not exist, "
                                                   "and a repair never creates one; nothing was "
                                                   "written."))
                    : repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Not adjusted: the stock key %1 does not exist, "
                                                   "and a repair never creates one; nothing was "
                                                   "written.")))
            .arg(core::escapeBytes(plan.stockKey, 80));
    case RepairOutcomeKind::Rejected:
        return (release ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                       "Not released: the server refused the call "
                                                       "before any write (%1)."))
                        : repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                       "Not adjusted: the server refused the call "
                                                       "before any write (%1).")))
            .arg(serverError);
    case RepairOutcomeKind::MayHaveWritten:
        return anomaly.isEmpty()
                   ? repairSaid(
                         QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                           "May have written: the server answered with an error "
                                           "that can come after a write (%1); it was not "
                                           "resent: read its key before doing anything else."))
                         .arg(serverError)
                   : repairSaid(
                         QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                           "May have written: the reply could not be read (%1); "
                                           "it was not resent: read its key before doing "
                                           "anything else."))
                         .arg(anomaly);
    case RepairOutcomeKind::Unknown:
        return (release
                    ? repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Outcome unknown: the release of order %1 on "
                                                   "SKU %2 was sent but no reply came (%3); it was "
                                                   "not resent."))
                    : repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                   "Outcome unknown: adjustment %1 on SKU %2 was "
                                                   "sent but no reply came (%3); it was not "
                                                   "resent.")))
            .arg(id, sku, transportError);
    case RepairOutcomeKind::NotSent:
        return repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "Nothing was sent: %1."))
            .arg(transportError);
    default:
        return {};
    }
}

RepairOutcome repairErrorOutcome(RepairKind repair, const redis::RedisError &e)
{
    RepairOutcome o;
    o.repair = repair;
    if (e.kind == redis::RedisError::Kind::Server) {
        o.kind = isPreWriteRefusal(e.message.english) ? RepairOutcomeKind::Rejected
                                                      : RepairOutcomeKind::MayHaveWritten;
        o.serverError = e.message;
        o.replyText = e.message.english;
        return o;
    }
    // The deduction's rule for transport failures: how far it got, and who refused it.
    const DeductionOutcome t = transportOutcome(e);
    o.kind =
        t.kind == OutcomeKind::NotSent ? RepairOutcomeKind::NotSent : RepairOutcomeKind::Unknown;
    o.notSentReason = t.notSentReason;
    o.transportError = t.transportError;
    return o;
}

RepairOutcome decodeRepairReply(RepairKind repair, const redis::ReplyResult &result,
                                const std::function<std::optional<RepairCodeRule>(qint64)> &rules)
{
    if (!result.ok())
        return repairErrorOutcome(repair, result.error());
    const redis::Reply &r = result.value();
    if (r.isError())
        return repairErrorOutcome(repair, redis::RedisError::fromServer(r.bytes()));
    if (!r.isArray() || r.size() != 2)
        return repairOutsideContract(repair, r,
                                     repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                                  "%1, not the contract's {code, "
                                                                  "value} pair"))
                                         .arg(redis::replyShape(r)));
    if (!r.at(0).isInteger() || !r.at(1).isInteger())
        return repairOutsideContract(
            repair, r,
            repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                         "its code and value are %1 and %2, "
                                         "not two integers"))
                .arg(redis::replyShape(r.at(0)), redis::replyShape(r.at(1))));
    const qint64 code = *r.at(0).integer();
    const qint64 value = *r.at(1).integer();
    const auto rule = rules(code);
    if (!rule)
        return repairOutsideContract(
            repair, r,
            repairSaid(
                QT_TRANSLATE_NOOP("inventory::RepairOutcome", "code %1, which %2 never returns"))
                .arg(QString::number(code), functionOf(repair)));
    if (value < rule->min || value > rule->max)
        return repairOutsideContract(repair, r,
                                     repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                                  "code %1, but %2 is %3, outside "
                                                                  "%4..%5"))
                                         .arg(QString::number(code), rule->what,
                                              QString::number(value), QString::number(rule->min),
                                              QString::number(rule->max)));
    if (rule->notValue && value == *rule->notValue)
        return repairOutsideContract(
            repair, r,
            repairSaid(
                QT_TRANSLATE_NOOP("inventory::RepairOutcome", "code %1, but %2 is this call's own"))
                .arg(QString::number(code), rule->what));
    RepairOutcome o;
    o.repair = repair;
    o.kind = rule->kind;
    o.replyText = r.debugString();
    if (rule->kind == RepairOutcomeKind::OtherQuantity)
        o.recordedQuantity = value;
    else if (rule->kind != RepairOutcomeKind::NoReceipt
             && rule->kind != RepairOutcomeKind::StockMissing && value >= 0)
        o.stock = value; // AlreadyApplied's -1: the stock key is missing
    return o;
}

} // namespace inventory
