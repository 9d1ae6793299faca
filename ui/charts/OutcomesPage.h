// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;

namespace inventory {
class AuditIndex;
class AuditLoader;
class AuditLogWatcher;
class DeductionHistory;
} // namespace inventory

namespace ui {

class ChartPanel;

// Deduction outcomes over time, stacked by outcome: this session's deductions (per minute,
// the last 30 minutes; updated as they come) and the audit log's over a chosen period, read
// again when the file changes while the page is on screen, whoever appended to it (this
// console, another window, inventory-cli in a terminal).
class OutcomesPage : public QWidget
{
    Q_OBJECT
public:
    OutcomesPage(inventory::DeductionHistory *history, QString auditPath,
                 QWidget *parent = nullptr);
    ~OutcomesPage() override;
    QList<ChartPanel *> panels() const;

public slots:
    void refreshSession();
    // Reads what the audit log gained and redraws. A long stretch (the first read of a big
    // log) is read on a worker and drawn when it is done; the GUI thread never parses it.
    void refreshAudit();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void drawAudit();
    void auditLoaded();

    inventory::DeductionHistory *m_history;
    QString m_auditPath;
    ChartPanel *m_session;
    ChartPanel *m_audit;
    QComboBox *m_period;
    QLabel *m_auditStatus;
    std::unique_ptr<inventory::AuditIndex> m_index; // with the loader while it reads
    inventory::AuditLoader *m_loader;
    inventory::AuditLogWatcher *m_auditWatcher;
    bool m_refreshAgain = false; // asked during a load: read what came after it
};

} // namespace ui
