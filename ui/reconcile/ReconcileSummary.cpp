// SPDX-License-Identifier: GPL-3.0-or-later
// ReconcilePanel: what a run found, in words and counts; selection, filter and exports.
#include "LedgerForm.h"
#include "ReconcileExport.h"
#include "ReconcileFindingsModel.h"
#include "ReconcilePanel.h"
#include "SkuBalanceModel.h"
#include "core/DataPaths.h"
#include "ui/common/NoticeBanner.h"

#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>

namespace ui {

using reconcile::FindingClass;

namespace {
// A class's title in the window's language (the core's classTitle stays English for the CLI and
// the exports, which a ticket's reader gets).
QString classTitleText(FindingClass c)
{
    switch (c) {
    case FindingClass::InLine:
        return QObject::tr("In line");
    case FindingClass::ReleaseCandidate:
        return QObject::tr("Release candidates");
    case FindingClass::MissingReceipt:
        return QObject::tr("Missing receipts");
    case FindingClass::QuantityDiffers:
        return QObject::tr("Quantities that differ");
    case FindingClass::Released:
        return QObject::tr("Released");
    }
    return {};
}

// "3 release candidates, 2 missing receipts, ...": the classes found, most urgent first.
QString classCounts(const reconcile::Tally &t)
{
    QStringList parts;
    for (FindingClass c :
         {FindingClass::ReleaseCandidate, FindingClass::MissingReceipt,
          FindingClass::QuantityDiffers, FindingClass::Released, FindingClass::InLine})
        parts << QStringLiteral("%1: %2").arg(classTitleText(c)).arg(t.findings[size_t(c)]);
    return parts.join(QStringLiteral(" · "));
}

// What was left out, and why: nothing is counted silently.
QString leftOut(const reconcile::Tally &t)
{
    QStringList parts;
    if (t.rowsOutOfScope)
        parts << QObject::tr("%1 ledger rows out of scope").arg(t.rowsOutOfScope);
    if (t.rowsNotDeducted)
        parts << QObject::tr("%1 failed or cancelled orders never deducted").arg(t.rowsNotDeducted);
    if (t.rowsPending)
        parts << QObject::tr("%1 pending orders (never release candidates)").arg(t.rowsPending);
    if (t.receiptsTooRecent)
        parts << QObject::tr("%1 receipts younger than the grace period").arg(t.receiptsTooRecent);
    if (t.receiptsAgeUnknown)
        parts << QObject::tr("%1 receipts the ledger lacks whose age is unknown (v1)")
                     .arg(t.receiptsAgeUnknown);
    if (t.receiptsOutOfWindow)
        parts << QObject::tr("%1 receipts outside the window").arg(t.receiptsOutOfWindow);
    return parts.isEmpty() ? QString()
                           : QObject::tr("Not judged: %1.").arg(parts.join(QStringLiteral(", ")));
}
} // namespace

void ReconcilePanel::showSummary(const ReconcileResult &result)
{
    const reconcile::Tally &t = result.outcome.tally;
    m_progressText->setText(
        result.couldNotCheck() ? (result.cancelled ? tr("Cancelled.") : tr("Stopped."))
                               : tr("Done at %1: %2 ledger rows read, %3 compared.")
                                     .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")))
                                     .arg(result.outcome.ledger.rows)
                                     .arg(t.rowsCompared));
    const auto kind = result.cancelled ? NoticeBanner::Kind::Warning : NoticeBanner::Kind::Danger;
    if (!result.openError.isEmpty() && result.ledger.isEmpty()) {
        m_summary->setNotice(
            kind, tr("Could not check: %1. Nothing was compared.").arg(result.problem()));
        return;
    }
    // The counts per class are in the Show box; the query ran is the form's.
    QStringList detail;
    if (const QString out = leftOut(t); !out.isEmpty())
        detail << out;
    if (m_findings->inLineNotListed() > 0)
        detail << tr("%1 in-line findings beyond the first %2 are counted, not listed.")
                      .arg(m_findings->inLineNotListed())
                      .arg(ReconcileFindingsModel::InLineCap);
    detail << result.policy.sentence();
    if (result.couldNotCheck()) {
        m_summary->setNotice(kind,
                             tr("Could not check: %1. The findings below are what was read "
                                "before it stopped: nothing may be concluded from them, and "
                                "an order missing from them is not in line.")
                                 .arg(result.problem()),
                             detail.join(QLatin1Char('\n')));
        return;
    }
    m_summary->setNotice(
        t.divergent > 0 ? NoticeBanner::Kind::Warning : NoticeBanner::Kind::Success,
        t.divergent > 0 ? tr("%1: %2. Select one to read what happened and "
                             "what to do.")
                              .arg(tr("%n finding(s) need attention", nullptr, int(t.divergent)),
                                   classCounts(t))
                        : tr("Everything compared is in line (%1).").arg(classCounts(t)),
        detail.join(QLatin1Char('\n')));
}

QString ReconcilePanel::summaryText() const
{
    return m_summary->text();
}

QString ReconcilePanel::repairText() const
{
    return m_repairBanner->text();
}

void ReconcilePanel::updateClassFilter()
{
    std::array<int, reconcile::FindingClasses> counts{};
    for (int row = 0; row < m_findings->rowCount(); ++row)
        ++counts[size_t(m_findings->finding(row).cls)];
    const int keep =
        m_classFilter->currentData().isValid() ? m_classFilter->currentData().toInt() : -1;
    const QSignalBlocker block(m_classFilter);
    m_classFilter->clear();
    m_classFilter->addItem(tr("All classes (%1)").arg(m_findings->rowCount()), -1);
    for (FindingClass c :
         {FindingClass::ReleaseCandidate, FindingClass::MissingReceipt,
          FindingClass::QuantityDiffers, FindingClass::Released, FindingClass::InLine})
        m_classFilter->addItem(
            QStringLiteral("%1 (%2)").arg(classTitleText(c)).arg(counts[size_t(c)]), int(c));
    m_classFilter->setCurrentIndex(std::max(0, m_classFilter->findData(keep)));
    m_resultTabs->setTabText(0, tr("Findings (%1)").arg(m_findings->rowCount()));
    m_resultTabs->setTabText(1, tr("Per SKU (%1)").arg(m_skus->rowCount()));
}

int ReconcilePanel::selectedRow() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

QList<int> ReconcilePanel::selectedCandidates() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows()) {
        const int row = m_proxy->mapToSource(i).row();
        const reconcile::Finding &f = m_findings->finding(row);
        if (f.cls == FindingClass::ReleaseCandidate && f.quantity > 0)
            rows << row;
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

bool ReconcilePanel::selectFirst(FindingClass cls)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex i = m_proxy->index(row, 0);
        if (i.data(ReconcileFindingsModel::ClassRole).toInt() == int(cls)) {
            m_view->setCurrentIndex(i);
            m_view->scrollTo(i);
            return true;
        }
    }
    return false;
}

void ReconcilePanel::updateActions()
{
    const int row = selectedRow();
    const bool idle = !m_running && !m_repairing;
    m_run->setEnabled(idle);
    m_cancel->setEnabled(m_running);
    m_form->setEnabled(idle);
    const qsizetype candidates = selectedCandidates().size();
    m_release->setEnabled(idle && candidates > 0);
    m_release->setText(candidates > 1 ? tr("R&elease %n…", "", int(candidates)) : tr("R&elease…"));
    m_adjust->setEnabled(idle && row >= 0);
    const bool any = m_findings->rowCount() > 0;
    m_csv->setEnabled(idle && any);
    m_markdown->setEnabled(idle && any);
    if (row < 0) {
        m_selected->setText(any ? tr("Select a finding to read it whole.") : QString());
        return;
    }
    const reconcile::Finding &f = m_findings->finding(row);
    QString text = QStringLiteral("%1 — %2").arg(findingLabel(f), f.sentence);
    if (const QString status = m_findings->status(row); !status.isEmpty())
        text += tr("\nSince the run: %1").arg(status);
    m_selected->setText(text);
}

std::optional<QString> ReconcilePanel::exportTo(const QString &path, bool markdown) const
{
    const QByteArray bytes = markdown ? reconcileMarkdown(m_summary->text(), *m_findings, *m_skus)
                                      : findingsCsv(*m_findings);
    const auto written = core::writePrivateFile(path, bytes);
    if (!written)
        return written.error().text;
    return std::nullopt;
}

void ReconcilePanel::saveAs(bool markdown)
{
    const QString path = QFileDialog::getSaveFileName(
        this, markdown ? tr("Export the report as Markdown") : tr("Export the findings as CSV"),
        markdown ? QStringLiteral("reconcile.md") : QStringLiteral("reconcile.csv"),
        markdown ? tr("Markdown (*.md)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (const auto problem = exportTo(path, markdown))
        m_repairBanner->setNotice(NoticeBanner::Kind::Danger, tr("Not exported: %1").arg(*problem));
    else
        m_repairBanner->setNotice(NoticeBanner::Kind::Success,
                                  tr("Exported to %1 (readable by you only).").arg(path));
}

} // namespace ui
