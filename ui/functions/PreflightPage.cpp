// SPDX-License-Identifier: GPL-3.0-or-later
#include "PreflightPage.h"

#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/UnlockDialog.h"

#include "functions/ChangeUser.h"
#include "gate/WriteGate.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

using functions::PreflightCheck;

PreflightPage::PreflightPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_checks(new QTreeWidget(this))
    , m_summary(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_unlock(new QPushButton(tr("Unlock this production session…"), this))
    , m_again(new QPushButton(tr("Check again"), this))
{
    setTitle(tr("Step 3 of 6 · Preflight"));
    setSubTitle(tr("Whether this session may make the change: the environment guard, and an ACL "
                   "DRYRUN of the change and of the backup's FUNCTION DUMP for %1, who runs "
                   "every step.")
                    .arg(functions::stepUserText(change.context())));

    m_checks->setColumnCount(3);
    m_checks->setHeaderLabels({tr("Result"), tr("Check"), tr("Detail")});
    m_checks->setRootIsDecorated(false);
    m_checks->setWordWrap(true);
    m_checks->header()->setStretchLastSection(true);
    m_checks->setAccessibleName(tr("Preflight checks"));
    connect(m_unlock, &QPushButton::clicked, this, &PreflightPage::unlock);
    connect(m_again, &QPushButton::clicked, this, &PreflightPage::run);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_unlock);
    buttons->addWidget(m_again);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_checks, 1);
    layout->addLayout(buttons);
}

void PreflightPage::initializePage()
{
    run();
}

bool PreflightPage::isComplete() const
{
    return m_passed && !m_running;
}

void PreflightPage::run()
{
    m_passed = false;
    m_running = true;
    m_again->setEnabled(false);
    m_checks->clear();
    m_summary->setNotice(NoticeBanner::Kind::Info, tr("Checking…"));
    emit completeChanged();
    m_change.preflight([this](const functions::PreflightReport &report) {
        m_running = false;
        m_passed = report.passed();
        m_checks->clear();
        for (const PreflightCheck &c : report.checks) {
            const bool failed = c.state == PreflightCheck::State::Failed;
            const bool warning = c.state == PreflightCheck::State::Warning;
            auto *item = new QTreeWidgetItem(m_checks, {failed    ? tr("✖ refused")
                                                        : warning ? tr("⚠ warning")
                                                                  : tr("✔ passed"),
                                                        c.label.text, c.detail.text});
            item->setForeground(0, failed    ? Palette::error()
                                   : warning ? Palette::warning()
                                             : Palette::ok());
            item->setToolTip(2, c.detail.text);
        }
        for (int c = 0; c < 2; ++c)
            m_checks->resizeColumnToContents(c);
        const QStringList warnings = report.warnings(core::Wording::Translated);
        if (!m_passed)
            m_summary->setNotice(NoticeBanner::Kind::Danger,
                                 tr("The change cannot be made from this session:\n%1")
                                     .arg(report.refusal(core::Wording::Translated)));
        else if (!warnings.isEmpty()) // a warning stays a warning in the summary too
            m_summary->setNotice(
                NoticeBanner::Kind::Warning,
                tr("The change may go ahead, but not every check passed: %1.\n• %2\n"
                   "Next: a backup of what the server holds now.")
                    .arg(warnings.size() == 1 ? tr("one warning")
                                              : tr("%1 warnings").arg(warnings.size()),
                         warnings.join(QStringLiteral("\n• "))));
        else
            m_summary->setNotice(
                NoticeBanner::Kind::Success,
                tr("Every check passed. Next: a backup of what the server holds now."));
        gate::WriteGate *gate = m_change.context().gate;
        m_unlock->setVisible(gate && gate->isReadOnly());
        m_again->setEnabled(true);
        emit completeChanged();
    });
}

void PreflightPage::unlock()
{
    gate::WriteGate *gate = m_change.context().gate;
    if (gate && UnlockDialog::unlock(*gate, this))
        run();
}

} // namespace ui
