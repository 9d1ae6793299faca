// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizard>

namespace ui {

class ContractPage;
class DiffPage;
class PreflightPage;
class BackupPage;
class ConfirmPage;
class ResultPage;

// The guarded change of a function library, one page per guard: contract diff, code diff,
// preflight, backup, typed confirmation, result. The same sequence as inventory-cli
// functions load | rollback | delete (functions::LibraryChange); no page can be skipped and a
// page is complete only when its step passed.
class LoadWizard : public QWizard
{
    Q_OBJECT
public:
    enum PageId { Contract, Diff, Preflight, Backup, Confirm, Result };

    // `context`: the session's nodes, environment guard (WriteGate), loading user, backup
    // directory and audit log; `spec`: what to change (LibraryChange::loadSpec(), deleteSpec(),
    // rollbackSpec(), restoreSpec()).
    LoadWizard(functions::ChangeContext context, functions::ChangeSpec spec,
               QWidget *parent = nullptr);

    // The size the wizard opens at: at most 1280x720 (a 1366x768 screen with a task bar), less
    // when the available screen area is smaller.
    static QSize defaultSize(const QSize &available);

    functions::LibraryChange &change() { return *m_change; }
    ContractPage *contractPage() const { return m_contract; }
    DiffPage *diffPage() const { return m_diff; }
    PreflightPage *preflightPage() const { return m_preflight; }
    BackupPage *backupPage() const { return m_backup; }
    ConfirmPage *confirmPage() const { return m_confirm; }

signals:
    // After the change ran (successfully or not): the libraries view refreshes on it.
    void changeFinished(const functions::ExecutionReport &report);

private:
    functions::LibraryChange *m_change;
    ContractPage *m_contract;
    DiffPage *m_diff;
    PreflightPage *m_preflight;
    BackupPage *m_backup;
    ConfirmPage *m_confirm;
    ResultPage *m_result;
};

} // namespace ui
