// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"
#include "ui/common/NoticeBanner.h"

#include <QWizardPage>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace ui {

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
    NoticeBanner *summary() const { return m_summary; }

private:
    void run();
    void unlock();
    functions::LibraryChange &m_change;
    QTreeWidget *m_checks;
    NoticeBanner *m_summary;
    QPushButton *m_unlock;
    QPushButton *m_again;
    bool m_passed = false;
    bool m_running = false;
};

} // namespace ui
