// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "TopologyWait.h"
#include "browse/InventoryScan.h"
#include "browse/KeyAction.h"
#include "browse/KeyLocator.h"
#include "browse/RowRefresher.h"
#include "profiles/Environment.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QProgressBar;
class QSpinBox;
class QPushButton;
class QTabWidget;
class QTimer;

namespace ui {

class AnomalyView;
class ScanPaceControl;
class FlatKeyView;
class OrderLookupView;
class SkuBrowserView;

// The key browser: SKUs with stock and receipts, order lookup, every key, anomalies. It runs
// the scan it is given (the window's, which other tabs read too) and sends every read
// through that scan's sender, asynchronously (the window never waits on the network);
// guarded key actions go through the write sender, if one is set, after a confirmation that
// shows the exact command, and are written to the audit log.
class BrowserPanel : public QWidget
{
    Q_OBJECT
public:
    // The scan (and its sender) is not owned and must outlive the panel.
    BrowserPanel(browse::InventoryScan &scan, inventory::KeySchema schema,
                 QWidget *parent = nullptr);
    ~BrowserPanel() override;

    // Key actions (set/remove TTL, delete a receipt) go through this sender: give it the
    // session's write-gated one. nullptr (the default) disables them. Not owned; set nullptr
    // before it is destroyed.
    void setWriteSender(redis::CommandSender *writer);
    // Non-empty: actions are disabled and their tooltips say this (e.g. "read-only session
    // on production profile 'X': unlock it to allow writes"). Empty: enabled.
    void setReadOnlyReason(const QString &reason);
    // Profile, server and run id for the audit records; the log path (empty: the default).
    void setAuditContext(const browse::AuditContext &audit);
    // SCAN COUNT for the SKU scan (default 1000).
    void setScanCount(int count);
    // The session's label picks the scan pace (production: gentle); the bar can change it.
    void setEnvironment(profiles::Environment environment);
    ScanPaceControl *scanPace() const { return m_pace; }
    // Per batch of a scan (default 30 s): a node that does not answer within it is named as
    // failed, and the other nodes' keys stay.
    void setScanTimeoutMs(int ms) { m_scanTimeoutMs = ms; }
    // The cluster's topology (not owned; the router's, which outlives the panel), or nullptr
    // on a standalone server. Every key table gets Node and Slot columns on a cluster only.
    // Call again when the topology changed.
    void setTopology(const redis::ClusterTopology *topology);
    // Whether the sender knows yet if it talks to a cluster (default true). Until it does, a
    // scan waits: begun earlier, it would walk the seed node alone.
    void setTopologyKnown(bool known);
    // Scan the first time the panel is shown (default on).
    void setAutoScan(bool on) { m_autoScan = on; }

    void rescan();
    void cancelScan();
    void lookUpOrder(const QByteArray &orderId);
    // "Find order" (Ctrl+F anywhere): the order lookup tab, its input focused.
    void findOrder();
    // Receipts expiring within this window are flagged in every view (default 5 min; the
    // spin box in the bar changes it and it is remembered in QSettings).
    void setExpiryWarningMs(qint64 ms);
    qint64 expiryWarningMs() const;

    browse::InventoryScan &inventoryScan() { return m_scan; }
    SkuBrowserView *skuView() const { return m_skuView; }
    OrderLookupView *orderView() const { return m_orderView; }
    FlatKeyView *flatView() const { return m_flatView; }
    AnomalyView *anomalyView() const { return m_anomalyView; }
    QTabWidget *tabs() const { return m_tabs; }
    QString statusText() const;

signals:
    void statusMessage(const QString &message);
    // A guarded action changed a key (after the server confirmed it).
    void keyChanged(const QByteArray &key);
    // A key action was written to the audit log: every attempt, refused or failed ones too
    // (connect the audit viewer's reload here rather than to keyChanged).
    void auditRecorded();
    void scanFinished(bool complete);
    // The order lookup's "Show in audit log": the audit records of one order in one SKU
    // (sku empty: in every SKU). The window routes it to the audit viewer.
    void auditRecordsRequested(const QString &sku, const QString &order);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QHBoxLayout *createScanBar();
    QTabWidget *createViews();
    void startTimers();
    void connectScan();
    void connectViews();
    void onScanProgress(qint64 seen, qint64 dbSize);
    void onScanFinished(bool complete, const QString &error);
    void startScan();
    void requestAction(const browse::KeyAction &action);
    void onActionFinished(const browse::KeyActionRunner::Outcome &outcome);
    void syncViews();
    void scheduleSync();
    void refreshVisible();
    void updateCounts();
    void updateWritable();
    void exportCurrent();
    void setStatus(const QString &message);
    // Each node's part of the scan, on a cluster: "127.0.0.1:7001 done, 1,204 keys · …".
    void updateNodeProgress();

    redis::CommandSender &m_sender;
    inventory::KeySchema m_schema;
    browse::InventoryScan &m_scan;
    browse::RowRefresher m_refresher;
    redis::CommandSender *m_writer = nullptr;
    browse::KeyActionRunner *m_runner = nullptr;
    browse::AuditContext m_audit;
    // What confirmations show: production until the window says otherwise (fails closed).
    profiles::Environment m_environment = profiles::Environment::Production;
    QString m_readOnlyReason;
    browse::KeyLocator m_locator;
    // Each page is stored in one turn of the window's event loop: a quarter of the CLI's
    // 1000-key page keeps that turn short (ten million keys on a loaded laptop).
    int m_scanCount = 250;
    int m_scanTimeoutMs = 30000;
    TopologyWait m_topologyWait;
    bool m_autoScan = true;
    bool m_scannedOnce = false;

    QPushButton *m_rescan = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_export = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_counts = nullptr;
    QLabel *m_nodes = nullptr;        // per node progress, on a cluster only
    QSpinBox *m_warnWithin = nullptr; // minutes
    ScanPaceControl *m_pace = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    SkuBrowserView *m_skuView = nullptr;
    OrderLookupView *m_orderView = nullptr;
    FlatKeyView *m_flatView = nullptr;
    AnomalyView *m_anomalyView = nullptr;
    QTimer *m_syncTimer = nullptr;
    QTimer *m_tickTimer = nullptr;
    QTimer *m_refreshTimer = nullptr;
};

} // namespace ui
