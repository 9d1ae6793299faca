// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizardPage>

class QLabel;
class QTableWidget;

namespace ui {

class NoticeBanner;

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
    void showHeading(const functions::ContractDiff &diff);
    void showDetail();
    void showNotices(functions::Verdict verdict);
    void fillTable(const QList<functions::ContractDiff> &diffs);
    void addFunctionRow(const functions::FunctionDiff &f);
    functions::LibraryChange &m_change;
    QLabel *m_heading;
    QLabel *m_verdict;
    QLabel *m_detail;
    QTableWidget *m_table;
    NoticeBanner *m_warnings;
    NoticeBanner *m_refusals;
    bool m_read = false;
};

} // namespace ui
