#pragma once

#include "inventory/DeductionContext.h"

#include <QDialog>

class QPushButton;
class QCheckBox;
class QLabel;

namespace ui {

// Shows exactly what will be sent before a deduction: where (profile, server), the keys with
// their slots, every argument, and the same command for redis-cli, with a button that copies
// it (shell-quoted: it works when pasted). In Script mode a retry after an unknown outcome
// must be acknowledged ("may deduct twice") before Run is enabled.
class ConfirmDeductionDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { First, RetrySameOrder, ScriptRetry };
    ConfirmDeductionDialog(const inventory::DeductionPlan &plan,
                           const inventory::DeductionContext &ctx, Kind kind,
                           const QString &readOnlyNotice, QWidget *parent = nullptr);

    // What is known so far (e.g. the last stock check before a script retry); shown under
    // the introduction.
    void setEvidence(const QString &text);

    QString redisCliCommand() const { return m_cli; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *copyButton() const { return m_copy; }
    QCheckBox *acknowledgement() const { return m_ack; } // ScriptRetry only, else nullptr

private:
    QString m_cli;
    QPushButton *m_run;
    QPushButton *m_copy;
    QCheckBox *m_ack = nullptr;
    QLabel *m_evidence;
};

} // namespace ui
