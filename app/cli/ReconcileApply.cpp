// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli reconcile --apply (see ReconcileApply.h).
#include "ReconcileApply.h"

#include "DeductReport.h"
#include "RepairReport.h"
#include "core/Bytes.h"
#include "inventory/AuditQuery.h"

#include <QTextStream>

namespace cli {

using inventory::RepairOutcomeKind;

namespace {

// The outcomes after which the next release may go: the contract answered, nothing unknown.
bool contractAnswered(RepairOutcomeKind kind)
{
    switch (kind) {
    case RepairOutcomeKind::Applied:
    case RepairOutcomeKind::AlreadyApplied:
    case RepairOutcomeKind::NoReceipt:
    case RepairOutcomeKind::OtherQuantity:
    case RepairOutcomeKind::StockMissing:
        return true;
    default:
        return false;
    }
}

// Released as the finding asked: a release key recording another quantity leaves the
// divergence where it was.
bool released(const ReleaseStep &s)
{
    return s.result && !s.result->otherRecordedAmount()
           && (s.result->outcome.kind == RepairOutcomeKind::Applied
               || s.result->outcome.kind == RepairOutcomeKind::AlreadyApplied
               || (s.settlement && s.settlement->applied));
}

bool unsettled(const ReleaseStep &s)
{
    if (!s.result)
        return false;
    const RepairOutcomeKind k = s.result->outcome.kind;
    return (k == RepairOutcomeKind::Unknown || k == RepairOutcomeKind::MayHaveWritten
            || k == RepairOutcomeKind::NotSent)
           && !(s.settlement && s.settlement->settled());
}

QString orderText(const ReleaseStep &s)
{
    return QStringLiteral("order %1, SKU %2, %3")
        .arg(core::escapeBytes(s.finding.orderId, 80), core::escapeBytes(s.finding.sku, 80))
        .arg(s.finding.quantity);
}

} // namespace

std::vector<ReleaseStep> planReleases(const std::vector<reconcile::Finding> &candidates,
                                      const inventory::KeySchema &schema, const QByteArray &ttl,
                                      const QString &ledger)
{
    std::vector<ReleaseStep> steps;
    steps.reserve(candidates.size());
    for (const reconcile::Finding &f : candidates) {
        ReleaseStep s;
        s.finding = f;
        inventory::RepairRequest request;
        request.kind = inventory::RepairKind::Release;
        request.sku = f.sku;
        request.id = f.orderId;
        // 0: neither the receipt nor the ledger said how much (never sent: the contract
        // refuses it, and a guess would give back the wrong amount).
        request.amount = QByteArray::number(f.quantity);
        request.ttlSeconds = ttl;
        request.reason = QStringLiteral("reconcile --apply, finding release_candidate against "
                                        "ledger %1: %2")
                             .arg(ledger, f.sentence);
        s.plan = inventory::planRepair(request, schema);
        if (!s.plan.ok())
            s.notSent = QStringLiteral("not sent: %1").arg(planProblemsLine(s.plan.problems));
        steps.push_back(std::move(s));
    }
    return steps;
}

void applyReleases(
    std::vector<ReleaseStep> &steps, redis::CommandSender &sender,
    const inventory::DeductionContext &ctx,
    const std::function<inventory::RecordReading(const inventory::RepairPlan &)> &settle)
{
    QString stopped;
    for (ReleaseStep &s : steps) {
        if (!s.notSent.isEmpty())
            continue;
        if (!stopped.isEmpty()) {
            s.notSent = stopped;
            continue;
        }
        s.result = inventory::repairBlocking(sender, ctx, s.plan);
        const RepairOutcomeKind kind = s.result->outcome.kind;
        if (kind == RepairOutcomeKind::Unknown)
            s.settlement = inventory::settleRepair(s.plan, settle(s.plan));
        else if (kind == RepairOutcomeKind::MayHaveWritten)
            s.settlement = inventory::settleRepair(s.plan, s.result->recordAfter);
        if (!contractAnswered(kind))
            stopped = QStringLiteral("not sent: the run stopped at %1 (%2)")
                          .arg(orderText(s), s.result->outcome.name());
    }
}

int applyExitCode(const std::vector<ReleaseStep> &steps, qint64 divergent)
{
    qint64 done = 0;
    for (const ReleaseStep &s : steps) {
        if (unsettled(s))
            return 3;
        done += released(s);
    }
    return divergent > done ? ExitFailed : ExitOk;
}

QJsonArray releasesJson(const std::vector<ReleaseStep> &steps, bool applied,
                        const QString &auditPath)
{
    QJsonArray out;
    for (const ReleaseStep &s : steps) {
        QJsonObject j{{QStringLiteral("order"), QString::fromUtf8(s.finding.orderId)},
                      {QStringLiteral("sku"), QString::fromUtf8(s.finding.sku)},
                      {QStringLiteral("quantity"), double(s.finding.quantity)},
                      {QStringLiteral("command"), inventory::commandText(s.plan.command)}};
        if (s.result)
            j.insert(QStringLiteral("result"), repairJson(*s.result, s.settlement, auditPath));
        else
            j.insert(QStringLiteral("sent"),
                     applied ? QJsonValue(s.notSent) : QJsonValue(QStringLiteral("dry run")));
        out.append(j);
    }
    return out;
}

void printReleasesText(QTextStream &out, const std::vector<ReleaseStep> &steps, bool applied,
                       const QString &auditPath)
{
    if (steps.empty())
        return;
    if (!applied)
        out << QStringLiteral("\nDry run, nothing was written. --apply --confirm NAME would send "
                              "one release per candidate (missing receipts and quantities that "
                              "differ are never repaired by --apply):\n");
    else
        out << QStringLiteral("\nReleases (each audited in %1):\n").arg(auditPath);
    for (const ReleaseStep &s : steps) {
        if (!applied) {
            out << "  " << inventory::commandText(s.plan.command)
                << (s.notSent.isEmpty() ? QString() : QStringLiteral("  (%1)").arg(s.notSent))
                << '\n';
            continue;
        }
        out << "  " << orderText(s) << ": ";
        if (!s.result) {
            out << s.notSent << '\n';
            continue;
        }
        out << s.result->outcome.name() << ": " << s.result->outcome.sentence(s.plan).english;
        if (s.settlement)
            out << " " << s.settlement->sentence;
        out << '\n';
    }
}

} // namespace cli
