// SPDX-License-Identifier: GPL-3.0-or-later
#include "PriorDeductions.h"

#include "core/Bytes.h"

#include <QCoreApplication>

namespace inventory {

namespace {

bool kindMayHaveDeducted(OutcomeKind kind)
{
    switch (kind) {
    case OutcomeKind::Deducted:
    case OutcomeKind::AlreadyApplied:
    case OutcomeKind::MayHaveWritten:
    case OutcomeKind::Unknown:
        return true;
    default:
        return false;
    }
}

// The audit log keeps DeductionOutcome::summary() as its result: its first words name the kind.
bool resultMayHaveDeducted(const AuditRecord &r)
{
    if (r.outcomeUnknown)
        return true;
    for (const char *prefix : {"deducted", "already applied", "error, may have written"})
        if (r.result.startsWith(QLatin1String(prefix)))
            return true;
    return false;
}

// The order a Script-mode record names in its detail ("script mode; order 9001; ...").
bool detailNamesOrder(const QString &detail, const QByteArray &orderId)
{
    const QString wanted = QStringLiteral("order ") + core::escapeBytes(orderId);
    const QStringList parts = detail.split(QStringLiteral("; "));
    return parts.contains(wanted);
}

QString whenText(const QDateTime &utc)
{
    const QDateTime local = utc.toLocalTime();
    return local.date() == QDate::currentDate()
               ? local.toString(QStringLiteral("HH:mm:ss"))
               : local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// The confirmation dialog's warning, in the window's language; the earlier call's result is
// quoted as recorded (the audit log's English).
struct PriorText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::PriorDeductions)
};

QString describe(const PriorDeduction &p)
{
    const bool function = p.mode == DeductionMode::Function;
    const QString format =
        p.source == PriorDeduction::Source::History
            ? (function ? PriorText::tr("%1, function mode, quantity %2 (this session): %3")
                        : PriorText::tr("%1, script mode, quantity %2 (this session): %3"))
            : (function ? PriorText::tr("%1, function mode, quantity %2 (audit log): %3")
                        : PriorText::tr("%1, script mode, quantity %2 (audit log): %3"));
    return format.arg(whenText(p.timeUtc), QString::fromLatin1(p.quantity), p.result);
}

QList<PriorDeduction> deducting(const QList<PriorDeduction> &prior)
{
    QList<PriorDeduction> out;
    for (const PriorDeduction &p : prior)
        if (p.mayHaveDeducted)
            out << p;
    return out;
}

QList<PriorDeduction> otherQuantity(const DeductionPlan &plan, const QList<PriorDeduction> &prior)
{
    QList<PriorDeduction> out;
    for (const PriorDeduction &p : deducting(prior))
        if (p.mode == DeductionMode::Function && p.quantity != plan.request.quantity)
            out << p;
    return out;
}

} // namespace

QList<PriorDeduction> priorInHistory(const DeductionHistory &history, const DeductionPlan &plan)
{
    QList<PriorDeduction> out;
    const DeductionRequest &want = plan.request;
    if (want.orderId.isEmpty())
        return out;
    for (int row = 0; row < history.rowCount(); ++row) {
        const DeductionResult &r = history.entryAt(row)->result;
        const DeductionRequest &req = r.plan.request;
        if (req.sku != want.sku || req.orderId != want.orderId)
            continue;
        PriorDeduction p;
        p.source = PriorDeduction::Source::History;
        p.timeUtc = r.startedUtc;
        p.mode = req.mode;
        p.quantity = req.quantity;
        p.result = r.outcome.summary();
        p.mayHaveDeducted = kindMayHaveDeducted(r.outcome.kind);
        out << p;
    }
    return out;
}

QList<PriorDeduction> priorInAudit(const QList<AuditRecord> &records, const DeductionPlan &plan,
                                   const KeySchema &schema, const QString &server)
{
    QList<PriorDeduction> out;
    const DeductionRequest &want = plan.request;
    if (want.orderId.isEmpty())
        return out;
    for (const AuditRecord &r : records) {
        if (r.action != QLatin1String("deduct") || r.command.isEmpty() || r.server != server)
            continue;
        const QByteArray verb = r.command.first().toUpper();
        PriorDeduction p;
        p.source = PriorDeduction::Source::AuditLog;
        p.timeUtc = r.timeUtc;
        p.result = r.result;
        p.mayHaveDeducted = resultMayHaveDeducted(r);
        if (verb == "FCALL" && r.command.size() >= 6) {
            // FCALL <function> 2 <stock> <receipt> <quantity> <ttl>
            const auto receipt = schema.parseReceiptKey(r.command.at(4));
            if (!receipt || receipt->sku != want.sku || receipt->orderId != want.orderId)
                continue;
            p.mode = DeductionMode::Function;
            p.quantity = r.command.at(5);
        } else if ((verb == "EVALSHA" || verb == "EVAL") && r.command.size() >= 5) {
            // EVALSHA <sha1> 1 <stock> <quantity>; the order is only in the detail.
            if (schema.skuOfStockKey(r.command.at(3)) != want.sku
                || !detailNamesOrder(r.detail, want.orderId))
                continue;
            p.mode = DeductionMode::Script;
            p.quantity = r.command.at(4);
        } else {
            continue;
        }
        out << p;
    }
    return out;
}

QList<PriorDeduction> mergePrior(const QList<PriorDeduction> &history,
                                 const QList<PriorDeduction> &audit)
{
    // A history entry starts a moment before its write is sent and recorded: the same call
    // has the same mode and quantity, within seconds.
    constexpr qint64 SameCallMs = 10000;
    QList<PriorDeduction> out = history;
    QList<bool> used(history.size(), false);
    for (const PriorDeduction &a : audit) {
        bool duplicate = false;
        for (qsizetype i = 0; i < history.size() && !duplicate; ++i) {
            const PriorDeduction &h = history.at(i);
            // The same outcome class too: a script call that met NOSCRIPT has two records
            // (not run, then deducted) and only the second is the history entry's.
            if (!used[i] && h.mode == a.mode && h.quantity == a.quantity
                && h.mayHaveDeducted == a.mayHaveDeducted
                && qAbs(h.timeUtc.msecsTo(a.timeUtc)) <= SameCallMs) {
                used[i] = true;
                duplicate = true;
            }
        }
        if (!duplicate)
            out << a;
    }
    return out;
}

bool repeatMayDeductTwice(const DeductionPlan &plan, const QList<PriorDeduction> &prior)
{
    return plan.request.mode == DeductionMode::Script && !deducting(prior).isEmpty();
}

QString repeatWarning(const DeductionPlan &plan, const QList<PriorDeduction> &prior)
{
    const QString order = core::escapeBytes(plan.request.orderId, 60);
    const QString sku = core::escapeBytes(plan.request.sku, 60);
    QStringList lines;
    if (plan.request.mode == DeductionMode::Script) {
        const QList<PriorDeduction> earlier = deducting(prior);
        if (earlier.isEmpty())
            return {};
        lines << (earlier.size() == 1
                      ? PriorText::tr("Order %1 of SKU %2 may already have been deducted: an "
                                      "earlier call for it may have deducted. The script keeps "
                                      "no receipt: running it again deducts again.")
                            .arg(order, sku)
                      : PriorText::tr("Order %1 of SKU %2 may already have been deducted: %3 "
                                      "earlier calls for it may have deducted. The script keeps "
                                      "no receipt: running it again deducts again.")
                            .arg(order, sku, QString::number(earlier.size())));
        for (const PriorDeduction &p : earlier)
            lines << QStringLiteral("• ") + describe(p);
        return lines.join(QLatin1Char('\n'));
    }
    const QList<PriorDeduction> other = otherQuantity(plan, prior);
    if (other.isEmpty())
        return {};
    lines << PriorText::tr("Another quantity than before: order %1 of SKU %2 was already tried "
                           "with quantity %3; this call asks for %4. inventory_deduct_v1 keeps "
                           "no quantity in its receipt: while that receipt lives, this call "
                           "returns Already applied and deducts nothing, not %4. A different "
                           "quantity needs a new order id.")
                 .arg(order, sku, QString::fromLatin1(other.last().quantity),
                      QString::fromLatin1(plan.request.quantity));
    for (const PriorDeduction &p : other)
        lines << QStringLiteral("• ") + describe(p);
    return lines.join(QLatin1Char('\n'));
}

} // namespace inventory
