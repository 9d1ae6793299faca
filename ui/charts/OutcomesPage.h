#pragma once

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;

namespace inventory {
class AuditIndex;
class DeductionHistory;
} // namespace inventory

namespace ui {

class ChartPanel;

// Deduction outcomes over time, stacked by outcome: this session's deductions (per minute,
// the last 30 minutes; updated as they come) and the audit log's over a chosen period.
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
    void refreshAudit();

private:
    inventory::DeductionHistory *m_history;
    QString m_auditPath;
    ChartPanel *m_session;
    ChartPanel *m_audit;
    QComboBox *m_period;
    QLabel *m_auditStatus;
    std::unique_ptr<inventory::AuditIndex> m_index;
};

} // namespace ui
