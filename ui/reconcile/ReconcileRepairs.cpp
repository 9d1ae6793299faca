// SPDX-License-Identifier: GPL-3.0-or-later
// ReconcilePanel: releases and adjustments from the findings, through the write gate, each
// confirmed with its exact FCALL, audited with the finding, and re-checked by reading its key.
#include "ReconcileFindingsModel.h"
#include "ReconcilePanel.h"
#include "RepairDialog.h"
#include "core/Bytes.h"
#include "ui/common/NoticeBanner.h"

#include <QDateTime>

namespace ui {

using namespace inventory;
using reconcile::FindingClass;

namespace {
// What the audit record keeps of why: the finding, as the run stated it. In English whatever the
// window's language, as the CLI writes it: one audit log, read by whoever investigates.
QString findingReason(const reconcile::Finding &f, const QString &ledger)
{
    return QStringLiteral("Reconcile finding %1 for order %2 of SKU %3 (ledger %4): %5")
        .arg(reconcile::className(f.cls), core::escapeBytes(f.orderId, 80),
             core::escapeBytes(f.sku, 80), ledger, reconcile::recordSentence(f));
}

NoticeBanner::Kind bannerKind(RepairOutcomeKind kind)
{
    switch (kind) {
    case RepairOutcomeKind::Applied:
        return NoticeBanner::Kind::Success;
    case RepairOutcomeKind::AlreadyApplied:
        return NoticeBanner::Kind::Info;
    case RepairOutcomeKind::MayHaveWritten:
    case RepairOutcomeKind::Unknown:
    case RepairOutcomeKind::Rejected:
        return NoticeBanner::Kind::Danger;
    default:
        return NoticeBanner::Kind::Warning;
    }
}
} // namespace

void ReconcilePanel::releaseSelected()
{
    const QList<int> rows = selectedCandidates();
    if (rows.isEmpty() || m_running || m_repairing || m_dialog)
        return;
    QList<RepairRequest> requests;
    for (int row : rows) {
        const reconcile::Finding &f = m_findings->finding(row);
        RepairRequest r;
        r.kind = RepairKind::Release;
        r.sku = f.sku;
        r.id = f.orderId;
        r.amount = QByteArray::number(f.quantity);
        r.ttlSeconds = QByteArray::number(m_ctx.deduct.defaultTtlSeconds);
        r.reason = findingReason(f, m_ledgerText);
        requests << r;
    }
    if (requests.size() == 1) {
        openRepair(requests.first(), rows.first());
        return;
    }
    auto *dialog = new RepairDialog(requests, m_ctx.deduct, *m_ctx.gate, m_environment, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, rows] { executeAll(dialog->plans(), rows); });
    dialog->open();
}

void ReconcilePanel::executeAll(const QList<RepairPlan> &plans, const QList<int> &rows)
{
    // One after the other, each audited on its own; the first that is not cleanly applied
    // (refused, unknown, not sent, or another amount recorded) stops the rest unsent.
    QStringList outcomes;
    const auto collect =
        connect(this, &ReconcilePanel::repairFinished, this, [&](const RepairResult &r) {
            outcomes << tr("order %1: %2")
                            .arg(core::escapeBytes(r.plan.request.id, 60), r.outcome.summary());
        });
    qsizetype sent = 0;
    bool clean = true;
    while (clean && sent < plans.size()) {
        clean = execute(plans[sent], rows[sent]);
        ++sent;
    }
    disconnect(collect);
    const QString head =
        clean ? tr("All %1 releases of the selection were sent, each audited:").arg(plans.size())
        : sent < plans.size()
            ? tr("Release %1 of %2 stopped the selection: the %n after it were not sent.", "",
                 int(plans.size() - sent))
                  .arg(sent)
                  .arg(plans.size())
            : tr("All %1 releases of the selection were sent, each audited; the last was not "
                 "applied:")
                  .arg(plans.size());
    // The last outcome's own banner (its sentence, the audit log) follows the list.
    m_repairBanner->setNotice(
        m_repairBanner->kind(),
        QStringList{head, outcomes.join(QLatin1Char('\n')), m_repairBanner->text()}.join(
            QLatin1Char('\n')));
}

void ReconcilePanel::adjustSelected()
{
    const int row = selectedRow();
    if (row < 0 || m_running || m_repairing || m_dialog)
        return;
    const reconcile::Finding &f = m_findings->finding(row);
    RepairRequest r;
    r.kind = RepairKind::Adjust;
    r.sku = f.sku;
    // One id per correction: kept when the dialog is used again for a retry of the same one.
    r.id = "reconcile-" + f.orderId + '-'
           + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddHHmmss")).toUtf8();
    r.ttlSeconds = QByteArray::number(m_ctx.deduct.defaultTtlSeconds);
    r.reason = findingReason(f, m_ledgerText);
    openRepair(r, row);
}

void ReconcilePanel::openRepair(const RepairRequest &request, int row)
{
    auto *dialog = new RepairDialog(request, m_ctx.deduct, *m_ctx.gate, m_environment, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, row] { execute(dialog->plan(), row); });
    dialog->open(); // window-modal, no nested event loop
}

bool ReconcilePanel::execute(const RepairPlan &plan, int row)
{
    if (m_repairing || !plan.ok())
        return false;
    m_repairing = true;
    updateActions();
    const bool release = plan.request.kind == RepairKind::Release;
    m_repairBanner->setNotice(NoticeBanner::Kind::Info,
                              release ? tr("Releasing…") : tr("Adjusting…"));
    // The core has the blocking form only: a few round trips, the window painting meanwhile,
    // every action of this tab off until it returns.
    const RepairResult result = repairBlocking(*m_ctx.writeSender, m_ctx.deduct, plan);
    QStringList lines{result.outcome.sentence(plan).text};
    // "Already applied" under another amount: what was asked was not done.
    const bool otherAmount = result.otherRecordedAmount().has_value();
    if (otherAmount)
        lines << result.otherAmountSentence();
    // Never resent: the record key says whether it was applied. A lost reply is read on
    // another lane than the one the call may be stuck on.
    std::optional<RepairSettlement> settled;
    if (result.outcome.kind == RepairOutcomeKind::Unknown)
        settled = settleRepair(
            plan, readRecordBlocking(*m_ctx.readSender, plan.recordKey, m_ctx.deduct.timeoutMs));
    else if (result.outcome.kind == RepairOutcomeKind::MayHaveWritten)
        settled = settleRepair(plan, result.recordAfter);
    if (settled)
        lines << settled->sentence;
    if (result.outcome.kind == RepairOutcomeKind::Rejected
        && result.outcome.serverError.english.contains(QLatin1String("Function not found")))
        lines << tr("The loaded library has no %1: it came with inventory_lib_v1 1.3.0. Load "
                    "that release from the Libraries tab, then try again.")
                     .arg(QString::fromLatin1(release ? ReleaseFunctionName : AdjustFunctionName));
    for (const core::Sentence &p : result.auditProblems)
        lines << tr("Warning: the audit log did not take the outcome record: %1").arg(p.text);
    lines << tr("Audit log: %1. The summary above is the run's: run the reconciliation again "
                "to read both sides anew.")
                 .arg(m_ctx.deduct.auditLogPath);
    m_repairBanner->setNotice(otherAmount ? NoticeBanner::Kind::Warning
                                          : bannerKind(result.outcome.kind),
                              lines.join(QLatin1Char('\n')));
    const RepairOutcomeKind kind = result.outcome.kind;
    const bool mayHaveReleased =
        kind == RepairOutcomeKind::Applied || kind == RepairOutcomeKind::AlreadyApplied
        || kind == RepairOutcomeKind::MayHaveWritten || kind == RepairOutcomeKind::Unknown;
    if (release && mayHaveReleased)
        recheckRelease(plan, row);
    else if (release)
        m_findings->setOutcome(row, m_findings->finding(row).cls,
                               tr("not released: %1").arg(result.outcome.summary()), {});
    else if (!release
             && (result.outcome.kind == RepairOutcomeKind::Applied
                 || result.outcome.kind == RepairOutcomeKind::AlreadyApplied))
        m_findings->setOutcome(row, m_findings->finding(row).cls,
                               tr("adjusted by %1 (id %2): %3")
                                   .arg(QString::fromUtf8(plan.request.amount),
                                        core::escapeBytes(plan.request.id, 60),
                                        result.outcome.summary()),
                               {});
    m_repairing = false;
    updateActions();
    emit repairFinished(result);
    return !otherAmount
           && (kind == RepairOutcomeKind::Applied || kind == RepairOutcomeKind::AlreadyApplied);
}

void ReconcilePanel::recheckRelease(const RepairPlan &plan, int row)
{
    // "Released" rests on the release key read back, whatever the reply said.
    const RecordReading key =
        readRecordBlocking(*m_ctx.readSender, plan.recordKey, m_ctx.deduct.timeoutMs);
    const reconcile::Finding f = m_findings->finding(row);
    const QString keyName = core::escapeBytes(plan.recordKey, 80);
    if (key.read && key.error.isEmpty() && key.wellFormed(RepairKind::Release)) {
        m_findings->setOutcome(
            row, FindingClass::Released, tr("released: %1 read back (%2)").arg(keyName, key.text()),
            tr("Order %1's deduction of SKU %2 was released (the release key %3 holds %4): "
               "nothing more to do.")
                .arg(core::escapeBytes(f.orderId, 80), core::escapeBytes(f.sku, 80), keyName,
                     key.text()));
        return;
    }
    const QString why =
        !key.error.isEmpty() ? tr("could not read %1 (%2)").arg(keyName, key.error.text)
        : key.value          ? tr("%1 holds %2, which no release writes").arg(keyName, key.text())
                             : tr("%1 does not exist").arg(keyName);
    m_findings->setOutcome(row, f.cls, tr("not proven released: %1").arg(why), {});
}

} // namespace ui
