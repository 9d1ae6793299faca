// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizardPage>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ui {

class CommandField;
class NoticeBanner;

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
    NoticeBanner *m_summary;
    QLineEdit *m_path;
    QLabel *m_contents;
    QLabel *m_howBack;
    CommandField *m_command;
    QPushButton *m_again;
    bool m_done = false;
};

} // namespace ui
