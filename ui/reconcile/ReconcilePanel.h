// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReconcileJob.h"
#include "browse/InventoryScan.h"
#include "inventory/DeductionContext.h"
#include "inventory/Repairer.h"
#include "profiles/Environment.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace gate {
class WriteGate;
}

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles

namespace ui {

class LedgerForm;
class LedgerProfileLink;
class NoticeBanner;
class ReconcileFindingsModel;
class RepairDialog;
class SkuBalanceModel;

// What the Reconcile tab works with, from the session.
struct ReconcileContext
{
    redis::CommandSender *scanReader = nullptr;  // the scan and the run's reads: reads only
    redis::CommandSender *readSender = nullptr;  // re-checks after a repair: reads only, a lane
                                                 // that a stuck write does not block
    redis::CommandSender *writeSender = nullptr; // releases and adjustments: through the gate
    gate::WriteGate *gate = nullptr;
    inventory::DeductionContext deduct; // schema, profile name, audit log, receipt TTL, nodes
};

// The Reconcile tab (issue 32): Redis receipts against the order ledger, read-only on both
// sides, then releases and adjustments from the findings through the write gate. A run scans
// the receipts (as the Keys tab does, on a store of its own), then reads the ledger and the
// release keys on a thread of its own; the findings arrive as they are known, grouped by
// class (sorted, and filtered by the class box), each with the core's sentence. A run that
// could not read either side says so over the findings and concludes nothing.
class ReconcilePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReconcilePanel(const ReconcileContext &ctx, QWidget *parent = nullptr);
    ~ReconcilePanel() override;

    // Pre-fills the ledger (as --ledger takes it) and says where it came from.
    void setLedger(const QString &ledger, const QString &columns, const QString &note);
    void setEnvironment(profiles::Environment environment) { m_environment = environment; }
    // The session's saved profile keeps the ledger: the form is filled from it now (the
    // password from the keyring), and "Save in profile" writes it back. Nothing for a
    // connection that is not a saved profile.
    void linkProfile(profiles::ProfileStore &profiles, profiles::SecretStore &secrets);

    void run();
    void cancel();
    bool isRunning() const { return m_running; }
    // Opens the confirmation for the selected release candidates (one, or a selection sent one
    // after the other), or an adjustment of the selected finding's SKU.
    void releaseSelected();
    void adjustSelected();
    // Writes the findings (CSV) or the report (Markdown) to `path`, mode 0600; the error.
    std::optional<QString> exportTo(const QString &path, bool markdown) const;

    LedgerForm *ledgerForm() const { return m_form; }
    ReconcileFindingsModel *findings() const { return m_findings; }
    SkuBalanceModel *skuBalances() const { return m_skus; }
    QTableView *findingsView() const { return m_view; }
    QComboBox *classFilter() const { return m_classFilter; }
    RepairDialog *pendingRepair() const;
    QString summaryText() const;
    QString repairText() const;
    // Selects the first row (in view order) of this class; false when there is none.
    bool selectFirst(reconcile::FindingClass cls);

signals:
    void runFinished(bool couldNotCheck);
    void repairFinished(const inventory::RepairResult &result);

private:
    QWidget *buildResults();
    QLayout *buildActions();
    void startJob();
    void onFinished(const ReconcileResult &result);
    void showSummary(const ReconcileResult &result);
    void updateClassFilter();
    void updateActions();
    int selectedRow() const; // in the model; -1: none
    // The selected release candidates (model rows, in model order), for Release.
    QList<int> selectedCandidates() const;
    void openRepair(const inventory::RepairRequest &request, int row);
    // Sends one repair and shows it; true when the next of a selection may follow (applied,
    // or already applied with the same amount).
    bool execute(const inventory::RepairPlan &plan, int row);
    void executeAll(const QList<inventory::RepairPlan> &plans, const QList<int> &rows);
    void recheckRelease(const inventory::RepairPlan &plan, int row);
    void saveAs(bool markdown);

    ReconcileContext m_ctx;
    profiles::Environment m_environment = profiles::Environment::Production;
    browse::InventoryScan m_scan;
    ReconcileJob m_job;
    ReconcileRequest m_request;
    QString m_ledgerText;
    bool m_running = false, m_repairing = false;
    LedgerForm *m_form;
    NoticeBanner *m_note, *m_summary, *m_repairBanner;
    QPushButton *m_run, *m_cancel, *m_release, *m_adjust, *m_csv, *m_markdown;
    QProgressBar *m_progress;
    QLabel *m_progressText, *m_selected;
    QTabWidget *m_resultTabs;
    QComboBox *m_classFilter;
    ReconcileFindingsModel *m_findings;
    SkuBalanceModel *m_skus;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view, *m_skuView;
    QPointer<RepairDialog> m_dialog;
    LedgerProfileLink *m_profileLink = nullptr;
};

} // namespace ui
