// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadWizard.h"

#include "BackupPage.h"
#include "ConfirmPage.h"
#include "ContractPage.h"
#include "DiffPage.h"
#include "PreflightPage.h"
#include "ResultPage.h"

#include <QScreen>

namespace ui {

LoadWizard::LoadWizard(functions::ChangeContext context, functions::ChangeSpec spec,
                       QWidget *parent)
    : QWizard(parent)
    , m_change(new functions::LibraryChange(std::move(context), std::move(spec), this))
    , m_contract(new ContractPage(*m_change, this))
    , m_diff(new DiffPage(*m_change, this))
    , m_preflight(new PreflightPage(*m_change, this))
    , m_backup(new BackupPage(*m_change, this))
    , m_confirm(new ConfirmPage(*m_change, this))
    , m_result(new ResultPage(*m_change, this))
{
    const functions::ChangeSpec &s = m_change->spec();
    switch (s.action) {
    case functions::ChangeAction::Load:
        setWindowTitle(
            tr("Load %1 from %2").arg(s.library, s.fileLabel(core::Wording::Translated)));
        break;
    case functions::ChangeAction::Delete:
        setWindowTitle(tr("Delete %1").arg(s.library));
        break;
    case functions::ChangeAction::RestoreCode:
        setWindowTitle(tr("Roll back %1").arg(s.library));
        break;
    case functions::ChangeAction::RestoreDump:
        setWindowTitle(tr("Restore the function dump (%1)")
                           .arg(QString::fromLatin1(functions::policyArgument(s.policy))));
        break;
    }
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    setPage(Contract, m_contract);
    setPage(Diff, m_diff);
    setPage(Preflight, m_preflight);
    setPage(Backup, m_backup);
    setPage(Confirm, m_confirm);
    setPage(Result, m_result);
    connect(m_result, &ResultPage::finished, this, &LoadWizard::changeFinished);
    resize(defaultSize(screen() ? screen()->availableGeometry().size() : QSize()));
}

QSize LoadWizard::defaultSize(const QSize &available)
{
    // 1280x720 fits a 1366x768 laptop with its task bar; a smaller screen gets all of it
    // (the pages shrink and scroll).
    QSize size(1280, 720);
    if (available.isValid() && !available.isEmpty())
        size = size.boundedTo(available - QSize(16, 40)); // the frame and title bar
    return size;
}

} // namespace ui
