// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/DemoPlan.h"
#include "inventory/AuditServerChange.h"
#include "session/ConsoleSession.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QLabel;
class QTabWidget;
class QVBoxLayout;

namespace functions {
struct ChangeContext;
}
namespace inventory {
struct DeductionContext;
}
namespace overview {
class ClusterHealth;
class OverviewPoller;
struct ServerOverview;
} // namespace overview

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles

namespace ui {

class AuditViewerPanel;
class BrowserPanel;
class ChartsTab;
class ConnectionStatusWidget;
class DeductionPanel;
class LibrariesView;
class DemoDataPanel;
class LabPanel;
class ServerOverviewPanel;
class ReadinessPanel;
class ReconcilePanel;
class SessionWorkspace;

// The console's window for one connection. It owns the client; the status bar shows the
// connection and the server, the centre the server overview. It never waits on the network:
// every fetch is asynchronous and lands in a slot.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(std::unique_ptr<session::ConsoleSession> session,
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    session::ConsoleSession &session() { return *m_session; }
    redis::RedisClient &client() { return m_session->client(); }
    overview::OverviewPoller &poller() { return *m_poller; }
    profiles::Environment environment() const { return m_environment; }

    // Loads the library and seeds the demo data into the (empty) server behind this window,
    // and shows what was planted. For the embedded demo only. With a `ledgerPath`, the demo's
    // SQLite order ledger is planted there too (demo::plantDemoLedger) and the Reconcile tab
    // is filled in with it.
    void seedDemo(const demo::SeedOptions &options = {}, const QString &ledgerPath = {});

    // The saved profiles and their passwords, for what a tab keeps in the session's profile
    // (the Reconcile tab's ledger).
    void linkProfiles(profiles::ProfileStore &profiles, profiles::SecretStore &secrets);

    QAction *refreshAction() const { return m_refresh; }
    QAction *reconnectAction() const { return m_reconnect; }
    QAction *findOrderAction() const { return m_findOrder; }
    QTabWidget *tabs() const { return m_tabs; }
    // Shows the tab whose title starts with `name` (case-insensitive, '&' ignored).
    bool showTab(const QString &name);

signals:
    // File > New connection: the application opens the dialog and another window.
    void newConnectionRequested();

private:
    void createMenus();
    QWidget *createOverviewTab();
    void connectPoller();
    void createFeaturePanels();
    inventory::DeductionContext deductionContext() const;
    functions::ChangeContext changeContext() const;
    void connectFeaturePanels();
    void addTabShortcuts();
    QWidget *createEnvironmentStrip();
    void updateEnvironmentStrip(const QString &note);
    void onStateChanged(redis::ConnectionState state, const QString &detail);
    // The status bar follows the session's SSH tunnel (nothing when connected directly).
    void watchTunnel();
    void watchSentinel();
    // The status bar and title name the server the session's connections go to now.
    void showAddress();
    void showAbout();
    void onReadOnlyChanged(bool readOnly);
    void onEnvironmentChanged();
    // Why the lab may not run here now (nullopt: it may), from the gate's label.
    std::optional<QString> labRefusal() const;
    // The cluster's topology or a primary's connection changed (never on a standalone server).
    void onClusterChanged();
    void refreshNodes();
    // Remembers which process answers at an address now (m_serversNow, for the audit viewer).
    void plantDemoLedger(const demo::SeedOptions &options, const QString &path);
    void noteServerNow(const QString &address, const overview::ServerOverview &o,
                       const QDateTime &readAt);

    std::unique_ptr<session::ConsoleSession> m_session;
    // What the panels share; after the session, so it goes before it (and after the panels,
    // which the destructor deletes first).
    std::unique_ptr<SessionWorkspace> m_workspace;
    redis::RedisClient *m_client = nullptr;
    profiles::Environment m_environment;
    overview::OverviewPoller *m_poller = nullptr;
    overview::ClusterHealth *m_health = nullptr;
    QStringList m_downPrimaries;        // as the Libraries tab last read them
    bool m_nodesInFlight = false;       // a node that does not answer must not pile up reads
    inventory::ServersNow m_serversNow; // every address read lately, for the audit viewer
    ConnectionStatusWidget *m_status = nullptr;
    ServerOverviewPanel *m_overview = nullptr;
    DemoDataPanel *m_demo = nullptr;
    QVBoxLayout *m_centralLayout = nullptr;
    QLabel *m_strip = nullptr;
    QTabWidget *m_tabs = nullptr;
    BrowserPanel *m_browser = nullptr;
    DeductionPanel *m_deduct = nullptr;
    LibrariesView *m_libraries = nullptr;
    AuditViewerPanel *m_audit = nullptr;
    ChartsTab *m_charts = nullptr;
    ReadinessPanel *m_readiness = nullptr;
    LabPanel *m_lab = nullptr;
    ReconcilePanel *m_reconcile = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_reconnect = nullptr;
    QAction *m_unlock = nullptr;
    QAction *m_lock = nullptr;
    QAction *m_findOrder = nullptr;
};

} // namespace ui
