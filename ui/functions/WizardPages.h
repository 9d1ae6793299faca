#pragma once

// The pages of the LoadWizard, one per guard of functions::LibraryChange. Each page drives its
// step of the one shared LibraryChange and is complete only when that step passed.

#include "functions/LibraryChange.h"

#include <QWizardPage>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace ui {

class CodeDiffView;
class CommandField;

// A label styled as a box: "warning" (amber), "error" (red), "info" (blue), "ok" (green).
QLabel *noticeLabel(QWidget *parent);
void setNotice(QLabel *label, const QString &kind, const QString &text);
// The verdict as words and its colour.
QString verdictText(functions::Verdict v);
QString verdictStyle(functions::Verdict v);

// 1. What the change does to the contract: functions added, removed, changed, collisions.
class ContractPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit ContractPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;
    QTableWidget *table() const { return m_table; }

private:
    void render();
    functions::LibraryChange &m_change;
    QLabel *m_heading;
    QLabel *m_verdict;
    QLabel *m_detail;
    QTableWidget *m_table;
    QLabel *m_warnings;
    QLabel *m_refusals;
    bool m_read = false;
};

// 2. The code, before and after.
class DiffPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit DiffPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    CodeDiffView *view() const { return m_view; }

private:
    functions::LibraryChange &m_change;
    CodeDiffView *m_view;
};

// 3. The environment guard and the ACL dry run; a read-only production session can be
// unlocked here (typing the profile name).
class PreflightPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit PreflightPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;
    QTreeWidget *checks() const { return m_checks; }
    QLabel *summary() const { return m_summary; }

private:
    void run();
    void unlock();
    functions::LibraryChange &m_change;
    QTreeWidget *m_checks;
    QLabel *m_summary;
    QPushButton *m_unlock;
    QPushButton *m_again;
    bool m_passed = false;
    bool m_running = false;
};

// 4. The backup: every library's code and a FUNCTION DUMP per node, in a file.
class BackupPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit BackupPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;
    QLineEdit *path() const { return m_path; }
    // The inventory-cli command that rolls back from the backup just written.
    CommandField *command() const { return m_command; }
    static QString rollbackCommand(const functions::ChangeContext &context,
                                   const functions::FunctionBackup &backup);

private:
    void run();
    functions::LibraryChange &m_change;
    QLabel *m_summary;
    QLineEdit *m_path;
    QLabel *m_contents;
    QLabel *m_howBack;
    CommandField *m_command;
    QPushButton *m_again;
    bool m_done = false;
};

// 5. The library name typed out, and for a breaking change a second acknowledgement.
class ConfirmPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit ConfirmPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;
    QLineEdit *typed() const { return m_typed; }
    QCheckBox *acknowledge() const { return m_acknowledge; }

private:
    functions::LibraryChange &m_change;
    QLabel *m_what;
    QLabel *m_prompt;
    QLineEdit *m_typed;
    QCheckBox *m_acknowledge;
    QLabel *m_error;
};

// 6. The change itself, its verification and the audit record.
class ResultPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit ResultPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;

signals:
    void finished(const functions::ExecutionReport &report);

private:
    functions::LibraryChange &m_change;
    QLabel *m_summary;
    QTreeWidget *m_nodes;
    QLabel *m_backup;
    bool m_done = false;
};

} // namespace ui
