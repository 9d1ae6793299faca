// SPDX-License-Identifier: GPL-3.0-or-later
#include "ContractPage.h"

#include "WizardVerdict.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "functions/ChangeUser.h"
#include "functions/LibraryVersion.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

using functions::ContractDiff;
using functions::FunctionDiff;
using functions::Verdict;

namespace {

QString flagsText(const std::optional<redis::FunctionInfo> &f)
{
    if (!f)
        return QStringLiteral("—");
    return f->flags.isEmpty() ? QObject::tr("(none)") : f->flags.join(QStringLiteral(", "));
}

QString describe(const std::optional<redis::FunctionInfo> &f)
{
    if (!f)
        return {};
    return f->description && !f->description->isEmpty() ? *f->description
                                                        : QObject::tr("(no description)");
}

// What the function is for: its description after the change (before it, for a removed
// function); both when the change edits it.
QString descriptionText(const FunctionDiff &f)
{
    if (!f.after)
        return describe(f.before);
    if (f.before && f.descriptionChanged)
        return QObject::tr("%1 → %2").arg(describe(f.before), describe(f.after));
    return describe(f.after);
}

QString changeText(const FunctionDiff &f)
{
    if (f.added())
        return QObject::tr("added");
    if (f.removed())
        return QObject::tr("removed");
    QStringList parts;
    if (f.flagsChanged)
        parts << QObject::tr("flags");
    if (f.descriptionChanged)
        parts << QObject::tr("description");
    if (f.bodyChanged)
        parts << QObject::tr("code");
    if (f.renamedCase)
        parts << QObject::tr("name case");
    if (f.bodyUnknown)
        parts << QObject::tr("code not compared");
    return parts.isEmpty() ? QObject::tr("unchanged") : parts.join(QStringLiteral(", "));
}

QColor rowColour(const FunctionDiff &f)
{
    if (f.added())
        return Palette::okTint();
    if (f.verdict == Verdict::Breaking)
        return Palette::noticeError();
    if (f.verdict == Verdict::Compatible)
        return Palette::noticeWarning();
    return {};
}

} // namespace

ContractPage::ContractPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_heading(new QLabel(this))
    , m_verdict(new QLabel(this))
    , m_detail(new QLabel(this))
    , m_table(new QTableWidget(0, 6, this))
    , m_warnings(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_refusals(new NoticeBanner(NoticeBanner::Kind::Info, this))
{
    setTitle(tr("Step 1 of 6 · Contract"));
    setSubTitle(tr("What callers of the functions will see: functions added, removed or "
                   "changed, compared with what the server has loaded now (read as %1).")
                    .arg(functions::stepUserText(change.context())));
    setHeading(m_heading);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHorizontalHeaderLabels({tr("Function"), tr("Change"), tr("Flags now"),
                                        tr("Flags after"), tr("Description"), tr("Notes")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Function changes"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_heading);
    top->addWidget(m_verdict);
    top->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_detail);
    layout->addWidget(m_refusals);
    layout->addWidget(m_warnings);
    layout->addWidget(m_table, 1);
}

void ContractPage::initializePage()
{
    switch (m_change.spec().action) {
    case functions::ChangeAction::RestoreCode:
    case functions::ChangeAction::RestoreDump:
        setTitle(tr("Step 1 of 6 · Contract of the rollback"));
        break;
    case functions::ChangeAction::Delete:
        setTitle(tr("Step 1 of 6 · Contract of the delete"));
        break;
    case functions::ChangeAction::Load:
        setTitle(tr("Step 1 of 6 · Contract"));
        break;
    }
    m_read = false;
    m_heading->setText(tr("Reading the libraries on the server…"));
    m_verdict->hide();
    m_table->setRowCount(0);
    emit completeChanged();
    m_change.fetchState([this] {
        m_read = true;
        render();
        emit completeChanged();
    });
}

bool ContractPage::isComplete() const
{
    return m_read && m_change.refusals().isEmpty();
}

void ContractPage::render()
{
    const QList<ContractDiff> diffs = m_change.contractDiffs();
    const Verdict verdict = m_change.verdict();
    if (!diffs.isEmpty())
        showHeading(diffs.first());
    m_verdict->setText(verdictText(verdict));
    m_verdict->setStyleSheet(verdictStyle(verdict));
    m_verdict->show();
    showDetail();
    showNotices(verdict);
    fillTable(diffs);
}

void ContractPage::showHeading(const ContractDiff &d)
{
    const functions::ChangeSpec &spec = m_change.spec();
    const QString from = !d.beforeUnreadable.isEmpty() ? tr("unknown")
                         : d.existsBefore              ? functions::versionLabel(d.versionBefore)
                                                       : tr("not loaded");
    const QString to = d.existsAfter ? functions::versionLabel(d.versionAfter) : tr("deleted");
    // Loading an older release is a rollback too, whichever way it was started.
    const bool restore = spec.action == functions::ChangeAction::RestoreCode
                         || spec.action == functions::ChangeAction::RestoreDump;
    const bool rollback =
        restore || (spec.action == functions::ChangeAction::Load && d.versionDown);
    m_heading->setText(rollback ? tr("Rollback of %1: %2 → %3").arg(d.library, from, to)
                                : QStringLiteral("%1: %2 → %3").arg(d.library, from, to));
    if (rollback && !restore)
        setTitle(tr("Step 1 of 6 · Contract of the rollback to an older release"));
}

// What each node holds now, and where the new code comes from.
void ContractPage::showDetail()
{
    const functions::ChangeSpec &spec = m_change.spec();
    QStringList detail;
    for (const functions::NodeState &n : m_change.states()) {
        const redis::LibraryInfo *now = n.library(spec.library);
        if (!n.error.isEmpty()) {
            detail << tr("Loaded on %1: could not read FUNCTION LIST: %2")
                          .arg(n.address, n.error.text);
            continue;
        }
        detail << tr("Loaded on %1 (Redis %2): %3")
                      .arg(n.address, n.redisVersion,
                           now ? tr("%1, sha256 %2")
                                     .arg(functions::versionLabel(
                                              functions::libraryVersion(now->code)),
                                          functions::shortFingerprint(
                                              functions::codeFingerprint(now->code)))
                               : tr("not loaded"));
    }
    if (spec.action == functions::ChangeAction::Load)
        detail << tr("New code: %1, sha256 %2")
                      .arg(spec.fileLabel(core::Wording::Translated),
                           functions::shortFingerprint(spec.incoming.fingerprint));
    else if (spec.backup)
        detail << tr("From backup %1 (taken %2)")
                      .arg(spec.backup->path,
                           spec.backup->created.toLocalTime().toString(Qt::ISODate));
    m_detail->setText(detail.join(QLatin1Char('\n')));
}

void ContractPage::showNotices(Verdict verdict)
{
    const QStringList refusals = m_change.refusals(core::Wording::Translated);
    m_refusals->setNotice(
        NoticeBanner::Kind::Danger,
        refusals.isEmpty() ? QString() : tr("Cannot go on:\n• %1").arg(refusals.join("\n• ")));
    QStringList warnings = m_change.warnings(core::Wording::Translated);
    // What the file uses that loads here but not on every server (Valkey's `server`).
    if (m_change.spec().action == functions::ChangeAction::Load)
        warnings << core::copies(m_change.spec().incoming.warnings, core::Wording::Translated);
    if (verdict == Verdict::Breaking)
        warnings.prepend(tr("Breaking: %1. Callers that use these functions will fail; the "
                            "confirmation will ask for a second acknowledgement.")
                             .arg(m_change.breakingReasons(core::Wording::Translated)
                                      .join(QStringLiteral("; "))));
    m_warnings->setNotice(NoticeBanner::Kind::Warning,
                          warnings.isEmpty() ? QString()
                                             : QStringLiteral("• %1").arg(warnings.join("\n• ")));
}

void ContractPage::fillTable(const QList<ContractDiff> &diffs)
{
    m_table->setRowCount(0);
    for (const ContractDiff &d : diffs) {
        if (diffs.size() > 1) { // a restore touching several libraries: a heading row each
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            auto *item = new QTableWidgetItem(
                QStringLiteral("%1 — %2").arg(d.library, d.summary(core::Wording::Translated)));
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
            m_table->setItem(row, 0, item);
            m_table->setSpan(row, 0, 1, m_table->columnCount());
        }
        for (const FunctionDiff &f : d.functions)
            addFunctionRow(f);
    }
    m_table->resizeColumnsToContents();
    // A long description wraps instead of pushing the notes off the page.
    const int descriptionColumn = 4;
    m_table->setColumnWidth(descriptionColumn, qMin(m_table->columnWidth(descriptionColumn), 420));
    m_table->resizeRowsToContents();
}

void ContractPage::addFunctionRow(const FunctionDiff &f)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList cells{f.name,
                            changeText(f),
                            flagsText(f.before),
                            flagsText(f.after),
                            descriptionText(f),
                            f.notesText.join(QStringLiteral("; "))};
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells.at(c));
        if (rowColour(f).isValid())
            item->setBackground(rowColour(f));
        item->setForeground(Palette::noticeText());
        item->setToolTip(cells.at(c));
        m_table->setItem(row, c, item);
    }
}

} // namespace ui
