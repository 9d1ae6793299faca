// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionContext.h"
#include "inventory/RepairRequest.h"
#include "profiles/Environment.h"

#include <QDialog>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace gate {
class WriteGate;
}

namespace ui {

class NoticeBanner;

// The confirmation before a release or an adjustment from the Reconcile tab: where it runs
// (the connection's name, the node, the environment badge), the exact FCALL with every
// argument, and what the audit log will hold. An adjustment is edited here (delta, its
// idempotency id, a reason, which is required); the command follows every keystroke and Run
// waits for a valid one. On a read-only session Run is off and "Unlock writes…" asks for the
// typed profile name (the gate's own unlock); nothing here bypasses the gate.
class RepairDialog : public QDialog
{
    Q_OBJECT
public:
    RepairDialog(const inventory::RepairRequest &request, const inventory::DeductionContext &ctx,
                 gate::WriteGate &gate, profiles::Environment environment,
                 QWidget *parent = nullptr);
    // Several releases (a selection of release candidates), confirmed together: every FCALL is
    // shown, and each is sent and audited on its own, as one would be.
    RepairDialog(const QList<inventory::RepairRequest> &releases,
                 const inventory::DeductionContext &ctx, gate::WriteGate &gate,
                 profiles::Environment environment, QWidget *parent = nullptr);

    // The plan of what the fields say now (ok() once valid).
    const inventory::RepairPlan &plan() const { return m_plan; }
    // Every plan, in the order they will be sent (one for a single repair).
    const QList<inventory::RepairPlan> &plans() const { return m_plans; }
    QString commandText() const;
    QPushButton *runButton() const { return m_run; }
    QPushButton *unlockButton() const { return m_unlock; }
    // "FCALL inventory_release_v1 3 stock:{sku-1}:available ..." with each argument shown
    // as escaped text.
    static QString renderCommand(const redis::Command &command);

private:
    void addAdjustFields(QFormLayout *form);
    QDialogButtonBox *buildButtons(bool release);
    QString introText() const;
    void replan();
    void updateRunState();

    inventory::RepairRequest m_request;
    inventory::DeductionContext m_ctx;
    gate::WriteGate &m_gate;
    inventory::RepairPlan m_plan;
    QList<inventory::RepairRequest> m_batch; // releases after the first, for a selection
    QList<inventory::RepairPlan> m_plans;
    QLineEdit *m_delta = nullptr, *m_id = nullptr;
    QPlainTextEdit *m_reason = nullptr;
    QLabel *m_command = nullptr, *m_problems = nullptr, *m_arguments = nullptr;
    NoticeBanner *m_readOnly = nullptr;
    QFormLayout *m_form = nullptr;
    QPushButton *m_run = nullptr, *m_unlock = nullptr;
};

} // namespace ui
