// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizardPage>

class QLabel;
class QTreeWidget;

namespace ui {

class NoticeBanner;

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
    NoticeBanner *m_summary;
    QTreeWidget *m_nodes;
    QLabel *m_backup;
    bool m_done = false;
};

} // namespace ui
