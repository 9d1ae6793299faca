// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionHistory.h"

#include <QFrame>

class QFormLayout;
class QLabel;
class QPushButton;

namespace ui {

// The result of one deduction: a coloured title, what it means, what to do next, the stock
// just before and after and the receipt with its TTL (each labelled as a separate read), the
// exact command, and the latest re-check. Its buttons ask the panel to check or retry the
// entry it shows.
class ResultCard : public QFrame
{
    Q_OBJECT
public:
    explicit ResultCard(QWidget *parent = nullptr);

    void showIdle();
    void showRunning(const inventory::DeductionPlan &plan, bool retry);
    void showEntry(const inventory::DeductionHistory::Entry &entry);
    void setChecking(bool checking);
    int entryId() const { return m_entryId; } // 0: none

    QString titleText() const;
    QString meaningText() const;
    QString checkText() const;
    QPushButton *checkButton() const { return m_checkButton; }
    QPushButton *retryButton() const { return m_retry; }

signals:
    void checkRequested(int entryId);
    void retryRequested(int entryId);

private:
    static QString titleValue(const inventory::DeductionOutcome &outcome);
    void showReads(const inventory::DeductionResult &result);
    void showDetail(const inventory::DeductionResult &result);
    void showCheck(const inventory::DeductionHistory::Entry &entry);
    void showButtons(inventory::OutcomeKind kind, bool function);
    void setColor(const QColor &strong, const QColor &tint);
    QLabel *addRow(const QString &label, const QString &name);
    void setRowVisible(QLabel *value, bool visible);
    void setRowLabel(QLabel *value, const QString &text);

    int m_entryId = 0;
    QLabel *m_title;
    QLabel *m_meaning;
    QLabel *m_next;
    QFormLayout *m_rows;
    QLabel *m_stockBefore;
    QLabel *m_stockAfter;
    QLabel *m_receipt;
    QLabel *m_command;
    QLabel *m_detail;
    QLabel *m_check;
    QPushButton *m_checkButton;
    QPushButton *m_retry;
};

} // namespace ui
