// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"

#include "ConnectionStatusWidget.h"
#include "DemoDataPanel.h"
#include "ServerOverviewPanel.h"
#include "SessionWorkspace.h"
#include "ShortcutsDialog.h"
#include "UiLog.h"
#include "core/BuildInfo.h"
#include "demo/DemoLedger.h"
#include "demo/DemoSeeder.h"
#include "inventory/RedisCliCommand.h"
#include "lab/LabAccess.h"
#include "overview/ClusterHealth.h"
#include "overview/NodeOverviews.h"
#include "overview/OverviewPoller.h"
#include "profiles/CliConnection.h"
#include "profiles/ProfileStore.h"
#include "redis/ClusterRouter.h"
#include "ssh/SshTunnel.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/SkuBrowserView.h"
#include "ui/charts/ChartPanel.h"
#include "ui/charts/ChartView.h"
#include "ui/charts/ChartsTab.h"
#include "ui/common/EnvironmentStyle.h"
#include "ui/common/TabTitles.h"
#include "ui/common/ThemeMenu.h"
#include "ui/common/UiLanguage.h"
#include "ui/common/UnlockDialog.h"
#include "ui/deduct/AuditViewerPanel.h"
#include "ui/deduct/ConfirmDeductionDialog.h" // DeductionPanel holds a QPointer to it
#include "ui/deduct/DeductionPanel.h"
#include "ui/functions/LibrariesView.h"
#include "ui/lab/LabPanel.h"
#include "ui/readiness/ReadinessPanel.h"
#include "ui/reconcile/ReconcilePanel.h"

#include <QAction>
#include <QApplication>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

// inventory_ui is a static library: its resources must be pulled in explicitly.
static void initUiResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace ui {

MainWindow::MainWindow(std::unique_ptr<session::ConsoleSession> session, QWidget *parent)
    : QMainWindow(parent)
    , m_session(std::move(session))
    , m_client(&m_session->client())
    , m_environment(m_session->environment())
{
    const profiles::Environment environment = m_environment;
    setObjectName(QStringLiteral("mainWindow"));
    initUiResources();
    setWindowIcon(QIcon(QStringLiteral(":/icons/inventory-console.png")));

    m_poller = new overview::OverviewPoller(*m_client, this);
    m_poller->setUser(m_session->profile().effectiveUsername());
    m_status = new ConnectionStatusWidget(this);
    m_status->setEnvironment(environment);
    m_status->setConnectionState(m_client->state(), m_client->stateDetail().text);
    statusBar()->addWidget(m_status, 1);
    statusBar()->setSizeGripEnabled(true);
    showAddress();
    watchTunnel();
    watchSentinel();

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);
    addNamedTab(m_tabs, createOverviewTab(), tr("&Overview"), QStringLiteral("overview"));
    createFeaturePanels();

    auto *central = new QWidget;
    auto *outer = new QVBoxLayout(central);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    outer->addWidget(createEnvironmentStrip());
    outer->addWidget(m_tabs, 1);
    setCentralWidget(central);

    createMenus();

    connect(m_client, &redis::RedisClient::stateChanged, this, &MainWindow::onStateChanged);
    connect(&m_session->gate(), &gate::WriteGate::readOnlyChanged, this,
            &MainWindow::onReadOnlyChanged);
    // A Local claim is production until its proof is read: the label may change after
    // connecting ("checking…" to proven, or to production), and after a reconnect.
    connect(&m_session->gate(), &gate::WriteGate::environmentChanged, this,
            &MainWindow::onEnvironmentChanged);
    onEnvironmentChanged();
    m_health = new overview::ClusterHealth(m_session->router(), this);
    connect(m_health, &overview::ClusterHealth::changed, this, &MainWindow::onClusterChanged);
    onClusterChanged();
    connectPoller();
    m_poller->start();
    if (m_client->state() == redis::ConnectionState::Idle)
        m_session->open();
}

QWidget *MainWindow::createOverviewTab()
{
    m_overview = new ServerOverviewPanel(this);
    m_overview->setDatabase(m_client->options().database);
    m_overview->setRefreshInterval(m_poller->interval());

    auto *page = new QWidget;
    m_centralLayout = new QVBoxLayout(page);
    m_centralLayout->setContentsMargins(16, 12, 16, 12);
    m_centralLayout->setSpacing(12);
    m_centralLayout->addWidget(m_overview);
    m_centralLayout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(page);
    return scroll;
}

// Each overview read updates the overview, the status bar and the gate's view of the server.
void MainWindow::connectPoller()
{
    connect(m_poller, &overview::OverviewPoller::fetchStarted, this, [this] {
        m_overview->setRefreshing(true);
        refreshNodes();
    });
    connect(m_poller, &overview::OverviewPoller::refreshed, this,
            [this](const overview::ServerOverview &o) {
                // A restart or failover (run_id or role changed) ends an unlock.
                m_session->gate().observeServer(o.runId, o.role);
                noteServerNow(m_client->address(), o, m_poller->lastSuccess());
                m_audit->setServersNow(m_serversNow);
                m_overview->setOverview(o, m_poller->lastSuccess());
                m_status->setServer(o);
                const QString updated =
                    tr("Overview updated %1")
                        .arg(m_poller->lastSuccess().toString(QStringLiteral("HH:mm:ss")));
                // A restart is news for every tab: the status bar keeps saying it (a move to
                // another primary has its own line there already).
                const bool restarted =
                    m_overview->identityChange() == overview::IdentityChange::Restarted;
                m_status->setActivity(
                    restarted ? tr("SERVER RESTARTED (run_id changed) · %1").arg(updated)
                              : updated);
            });
    connect(m_poller, &overview::OverviewPoller::failed, this, [this](const redis::RedisError &e) {
        qCInfo(lcUi) << "overview refresh failed:" << e.toString().english;
        m_overview->setFetchError(e);
        m_status->setActivity(tr("Overview refresh failed"));
    });
}

MainWindow::~MainWindow()
{
    // The poller's callbacks target itself; stop it before the client goes. The panels
    // hold references to the session: they go before it does.
    m_poller->stop();
    delete takeCentralWidget();
}

inventory::DeductionContext MainWindow::deductionContext() const
{
    const profiles::ConnectionProfile &profile = m_session->profile();
    inventory::DeductionContext deduct;
    deduct.schema = m_session->schema();
    deduct.defaultTtlSeconds = profile.receiptTtlSeconds;
    deduct.profileName = profile.name;
    deduct.serverAddress = m_client->address();
    deduct.timeoutMs = profile.timeoutMs;
    deduct.auditLogPath = m_session->auditLogPath();
    deduct.redisCliArgs = inventory::redisCliConnectionArgs(m_client->options());
    // On a cluster, confirmations and audit records name the slot's owner.
    deduct.nodeForSlot = inventory::slotOwnerLookup(m_session->router().topologySource());
    return deduct;
}

functions::ChangeContext MainWindow::changeContext() const
{
    const profiles::ConnectionProfile &profile = m_session->profile();
    functions::ChangeContext change;
    change.nodes << functions::ChangeTarget{m_client->address(), m_client,
                                            m_session->releaseClient()};
    change.loadUser =
        profile.releaseUsername.isEmpty() ? profile.effectiveUsername() : profile.releaseUsername;
    change.gate = &m_session->gate();
    change.profile = profile.name;
    profiles::CliConnectionSource cli;
    cli.profile = profile;
    cli.saved = profiles::ProfileStore().find(profile.name).has_value();
    cli.hasPassword = !m_client->options().password.isEmpty();
    cli.hasReleasePassword =
        m_session->releaseClient() && !m_session->releaseClient()->options().password.isEmpty();
    change.cliConnection = profiles::cliConnectionArgs(cli);
    change.environment = profile.environmentLabel();
    change.auditPath = m_session->auditLogPath();
    return change;
}

void MainWindow::createFeaturePanels()
{
    const profiles::ConnectionProfile &profile = m_session->profile();
    const inventory::DeductionContext deduct = deductionContext();
    // Scans only read: the scan lane, behind a sender that cannot write. Key actions write:
    // the gate. Through the router: on a cluster each primary is scanned with its own cursor.
    m_workspace = std::make_unique<SessionWorkspace>(m_session->scanReader(), m_session->schema());
    m_browser = new BrowserPanel(m_workspace->inventoryScan(), m_session->schema());
    m_browser->setWriteSender(&m_session->sender());
    m_browser->setEnvironment(m_environment);
    m_browser->setAuditContext(
        {m_session->auditLogPath(), profile.name, m_client->address(), deduct.nodeForSlot});
    addNamedTab(m_tabs, m_browser, tr("&Keys"), QStringLiteral("keys"));

    m_deduct = new DeductionPanel(m_session->deductionSender(), deduct);
    m_deduct->setEnvironment(m_environment);
    m_deduct->setSkuDirectory(&m_workspace->skuDirectory());
    addNamedTab(m_tabs, m_deduct, tr("&Deductions"), QStringLiteral("deductions"));

    std::optional<redis::ConnectionOptions> release;
    if (m_session->releaseClient())
        release = m_session->releaseClient()->options();
    // Every primary and replica, through the session's router (its address map included).
    m_libraries = new LibrariesView(changeContext(), m_session->router(), release);
    if (!m_session->sentinelMaster().isEmpty())
        m_libraries->setReplicaSource([session = m_session.get()](QObject *context, auto done) {
            session->readSentinelReplicas(context, std::move(done));
        });
    addNamedTab(m_tabs, m_libraries, tr("&Libraries"), QStringLiteral("libraries"));

    m_audit = new AuditViewerPanel(m_session->auditLogPath());
    addNamedTab(m_tabs, m_audit, tr("&Audit log"), QStringLiteral("audit log"));

    // Charts only read: through the router, so that a cluster is sampled node by node.
    m_charts = new ChartsTab(m_session->readSender(), m_deduct->history(),
                             m_session->auditLogPath(), &m_workspace->inventoryScan());
    addNamedTab(m_tabs, m_charts, tr("Char&ts"), QStringLiteral("charts"));

    ReadinessContext readiness{
        m_client->address(), profile.effectiveUsername(), profile.environmentLabel(), {}};
    readiness.settings.receiptTtlSeconds = profile.receiptTtlSeconds;
    readiness.settings.clientTimeoutMs = profile.timeoutMs;
    m_readiness =
        new ReadinessPanel(m_session->readSender(), m_workspace->inventoryScan(), readiness);
    addNamedTab(m_tabs, m_readiness, tr("Readi&ness"), QStringLiteral("readiness"));
    // The release-ticket report carries what the charts show at export time, on white paper
    // like the rest of the report.
    m_readiness->setImageSource([charts = m_charts] {
        QList<QPair<QString, QImage>> images;
        for (ChartPanel *panel : charts->panels())
            images.append({panel->title(),
                           panel->view()->renderImage(QSize(960, 400), ChartView::Paper::Light)});
        return images;
    });
    // The lab writes storms to throwaway SKUs on its own connections; the label decides.
    // The gate's label, not the profile's claim: a tunnel on 127.0.0.1 is not local
    // (onEnvironmentChanged follows it once the proof is read).
    m_lab =
        new LabPanel(lab::LabTarget{m_client->options(), m_session->schema(), profile.addressMap()},
                     labRefusal());
    addNamedTab(m_tabs, m_lab, tr("La&b"), QStringLiteral("lab"));
    // Scans and reads the ledger on lanes that only read; releases go through the gate.
    m_reconcile = new ReconcilePanel({&m_session->scanReader(), &m_session->readSender(),
                                      &m_session->deductionSender(), &m_session->gate(), deduct});
    m_reconcile->setEnvironment(m_environment);
    addNamedTab(m_tabs, m_reconcile, tr("Re&concile"), QStringLiteral("reconcile"));
    connectFeaturePanels();
    addTabShortcuts();
}

void MainWindow::linkProfiles(profiles::ProfileStore &profiles, profiles::SecretStore &secrets)
{
    m_reconcile->linkProfile(profiles, secrets);
}

// What one tab asks of another goes through the window.
void MainWindow::connectFeaturePanels()
{
    connect(m_browser->skuView(), &SkuBrowserView::watchStockRequested, this,
            [this](const QByteArray &sku, const QByteArray &key) {
                m_charts->watchStock(sku, key);
                m_tabs->setCurrentWidget(m_charts);
            });
    connect(m_browser, &BrowserPanel::statusMessage, this,
            [this](const QString &message) { m_status->setActivity(message); });
    // An order lookup's "Show in audit log": that order's writes, on the Audit log tab.
    connect(m_browser, &BrowserPanel::auditRecordsRequested, this,
            [this](const QString &sku, const QString &order) {
                m_audit->showOrder(sku, order);
                m_tabs->setCurrentWidget(m_audit);
            });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_tabs->widget(index) == m_audit)
            m_audit->reload();
        else if (m_tabs->widget(index) == m_libraries)
            m_libraries->refresh();
    });
}

void MainWindow::addTabShortcuts()
{
    // Ctrl+1..n switch tabs, as in browsers and IDEs. Named, so Help > Keyboard shortcuts
    // lists them.
    for (int i = 0; i < m_tabs->count() && i < 9; ++i) {
        auto *go =
            new QAction(tr("Show the %1 tab").arg(withoutMnemonic(m_tabs->tabText(i))), this);
        go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(go, &QAction::triggered, this, [this, i] { m_tabs->setCurrentIndex(i); });
        addAction(go);
    }
}

bool MainWindow::showTab(const QString &name)
{
    // "charts/stock": a page of the Charts tab.
    if (name.contains(QLatin1Char('/')) && !m_charts->showPage(name.section(QLatin1Char('/'), 1)))
        return false;
    // By the tabs' English names: --tab keys works in every language.
    const int tab = findNamedTab(m_tabs, name.section(QLatin1Char('/'), 0, 0));
    if (tab >= 0)
        m_tabs->setCurrentIndex(tab);
    return tab >= 0;
}

QWidget *MainWindow::createEnvironmentStrip()
{
    m_strip = new QLabel;
    m_strip->setObjectName(QStringLiteral("environmentStrip"));
    m_strip->setWordWrap(true); // a reason is long; cut off, it would hide READ-ONLY
    m_strip->setStyleSheet(environmentStripStyle(m_environment));
    return m_strip;
}

void MainWindow::updateEnvironmentStrip(const QString &note)
{
    const gate::WriteGate &gate = m_session->gate();
    QString text = tr("%1 · %2").arg(environmentBadgeText(m_environment), m_client->address());
    if (gate.claimedEnvironment() == profiles::Environment::Local && gate.evidence().checking())
        text += tr(" · checking whether the server runs on this machine…");
    if (!note.isEmpty())
        text += QStringLiteral(" · ") + note;
    m_strip->setText(text);
    // Why the label is what it is: the proof, or the profile's word.
    m_strip->setToolTip(gate.environmentReason());
}

std::optional<QString> MainWindow::labRefusal() const
{
    const gate::WriteGate &gate = m_session->gate();
    if (gate.claimedEnvironment() == profiles::Environment::Local && gate.evidence().checking())
        return tr("checking whether the server runs on this machine…");
    return lab::labRefusal(gate.environmentKind(), gate.environment());
}

void MainWindow::onEnvironmentChanged()
{
    m_environment = m_session->environment();
    m_lab->setRefusal(labRefusal());
    m_readiness->setEnvironment(m_session->gate().environment());
    m_strip->setStyleSheet(environmentStripStyle(m_environment));
    m_status->setEnvironment(m_environment);
    m_status->setToolTip(m_session->gate().environmentReason());
    m_browser->setEnvironment(m_environment);
    m_deduct->setEnvironment(m_environment);
    m_reconcile->setEnvironment(m_environment);
    onReadOnlyChanged(m_session->gate().isReadOnly());
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open =
        file->addAction(tr("&New connection…"), this, &MainWindow::newConnectionRequested);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    m_unlock = file->addAction(tr("&Unlock writes…"), this,
                               [this] { UnlockDialog::unlock(m_session->gate(), this); });
    m_unlock->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    m_lock =
        file->addAction(tr("&Lock writes (read-only)"), this, [this] { m_session->gate().lock(); });
    // What "Not sent" cards and the failure banner point to: a new attempt now, not after the
    // transport's back-off.
    m_reconnect = file->addAction(tr("&Reconnect"), this, [this] {
        // A dead tunnel is started again first; its connections follow once it is up.
        if (const ssh::SshTunnel *t = m_session->tunnel();
            t && t->state() != ssh::SshTunnel::State::Up)
            m_status->setTunnel(ConnectionStatusWidget::Tunnel::Reopening, t->bastionDisplay());
        m_session->reconnect();
        if (redis::RedisClient *release = m_session->releaseClient())
            release->open();
    });
    m_reconnect->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(m_overview, &ServerOverviewPanel::reconnectRequested, m_reconnect, &QAction::trigger);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_refresh = view->addAction(tr("&Refresh"), m_poller, &overview::OverviewPoller::refreshNow);
    m_refresh->setObjectName(QStringLiteral("refreshAction"));
    m_refresh->setShortcut(QKeySequence(Qt::Key_F5));
    m_refresh->setShortcutContext(Qt::WindowShortcut);
    // F5 on the Readiness tab re-runs its rules too.
    connect(m_refresh, &QAction::triggered, this, [this] {
        if (m_tabs->currentWidget() == m_readiness)
            m_readiness->recheck();
    });
    // Support's first question is about an order, whichever tab is open.
    m_findOrder = view->addAction(tr("&Find order…"), this, [this] {
        m_tabs->setCurrentWidget(m_browser);
        m_browser->findOrder();
    });
    m_findOrder->setObjectName(QStringLiteral("findOrderAction"));
    m_findOrder->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    m_findOrder->setShortcutContext(Qt::WindowShortcut);
    view->addSeparator();
    view->addMenu(themeMenu(this));
    view->addMenu(createLanguageMenu(this));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        ShortcutsDialog dialog(this, this);
        dialog.exec();
    });
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(tr("&About Inventory Console"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::onReadOnlyChanged(bool readOnly)
{
    m_unlock->setEnabled(readOnly);
    m_lock->setEnabled(m_session->gate().isUnlocked());
    m_deduct->setReadOnlyNotice(
        readOnly ? m_session->gate().refusalMessage(core::Wording::Translated) : QString());
    m_browser->setReadOnlyReason(
        readOnly ? m_session->gate().refusalMessage(core::Wording::Translated) : QString());
    const gate::WriteGate &gate = m_session->gate();
    // What to do first, then why (the whole reason is also the strip's tooltip).
    QString note;
    if (readOnly)
        note = tr("READ-ONLY session: writes are refused until you unlock (File > Unlock "
                  "writes, Ctrl+Shift+U)");
    if (!gate.lockReason().isEmpty())
        note += QStringLiteral(" · ") + gate.lockReason();
    if (readOnly && gate.claimedEnvironment() == profiles::Environment::Local
        && !gate.evidence().checking())
        note += QStringLiteral(" · ") + gate.evidence().reason.text;
    if (!readOnly && m_environment == profiles::Environment::Local)
        // What makes it local: "local: redis-server (process 1234, …) owns port 6379".
        note = gate.evidence().reason.text;
    if (!readOnly && m_environment == profiles::Environment::Production)
        note = tr("WRITES UNLOCKED on production for this session: every write affects real "
                  "orders");
    if (!m_demo || readOnly || m_environment == profiles::Environment::Production)
        updateEnvironmentStrip(note);
}

void MainWindow::onStateChanged(redis::ConnectionState state, const QString &)
{
    // The signal's detail is the English (the log's); the window shows its own copy.
    const QString detail = m_client->stateDetail().text;
    m_status->setConnectionState(state, detail);
    if (state == redis::ConnectionState::Failed || state == redis::ConnectionState::Reconnecting
        || state == redis::ConnectionState::Closed)
        m_overview->setConnectionProblem(detail);
    if (state == redis::ConnectionState::Ready) {
        m_poller->refreshNow(); // a fresh connection may be a restarted server
        m_libraries->refresh();
    }
}

void MainWindow::watchTunnel()
{
    const ssh::SshTunnel *tunnel = m_session->tunnel();
    if (!tunnel)
        return;
    using Tunnel = ConnectionStatusWidget::Tunnel;
    const QString bastion = tunnel->bastionDisplay();
    m_status->setTunnel(Tunnel::Up, bastion);
    connect(m_session.get(), &session::ConsoleSession::tunnelDied, this,
            [this, bastion](const core::Sentence &why) {
                qCInfo(lcUi) << "SSH tunnel via" << bastion << "died:" << why.english;
                m_status->setTunnel(Tunnel::Closed, bastion, why.text);
                m_overview->setTunnelProblem(why.text);
            });
    connect(m_session.get(), &session::ConsoleSession::tunnelFailed, this,
            [this, bastion](const core::Sentence &why) {
                m_status->setTunnel(Tunnel::Failed, bastion, why.text);
                m_overview->setTunnelProblem(
                    tr("Reconnect could not open it again: %1").arg(why.text));
            });
    connect(m_session.get(), &session::ConsoleSession::tunnelRestored, this, [this, bastion] {
        m_status->setTunnel(Tunnel::Up, bastion);
        m_overview->setTunnelProblem({});
    });
}

void MainWindow::showAddress()
{
    const QString address = m_client->address();
    m_status->setAddress(address, m_session->profile().effectiveUsername(),
                         m_client->options().tls.enabled);
    QString title = tr("Inventory Console — %1").arg(address);
    if (const QString master = m_session->sentinelMaster(); !master.isEmpty())
        title = tr("Inventory Console — %1 (primary of '%2')").arg(address, master);
    if (const ssh::SshTunnel *tunnel = m_session->tunnel())
        title += tr(" via SSH %1").arg(tunnel->bastionDisplay());
    setWindowTitle(title);
}

void MainWindow::watchSentinel()
{
    const QString master = m_session->sentinelMaster();
    if (master.isEmpty())
        return;
    using News = ConnectionStatusWidget::SentinelNews;
    struct Said
    {
        News news;
        QString text;
        QString tip;
    };
    // What the status bar last said of the primary, for when a failed check comes back good.
    auto said = std::make_shared<Said>(
        Said{News::Following, tr("via Sentinel '%1'").arg(master),
             tr("The sentinels named %1 the primary of '%2' and ROLE confirmed it. If they name "
                "another one, every connection of this window moves there.")
                 .arg(m_client->address(), master)});
    m_status->setSentinel(said->news, said->text, said->tip);
    connect(m_session.get(), &session::ConsoleSession::primaryMoved, this,
            [this, master, said](const QString &from, const QString &to, const QDateTime &when) {
                qCInfo(lcUi) << "primary of" << master << "moved from" << from << "to" << to;
                *said = {News::Moved,
                         tr("primary moved from %1 to %2 at %3")
                             .arg(from, to, when.toString(QStringLiteral("HH:mm"))),
                         tr("Sentinel named %1 the primary of '%2' at %3; every connection of "
                            "this window now goes there. Commands in flight on %4 when it "
                            "moved: outcome unknown, not resent; look up their receipts "
                            "(Ctrl+F).")
                             .arg(to, master, when.toString(QStringLiteral("HH:mm:ss")), from)};
                m_status->setSentinel(said->news, said->text, said->tip);
                showAddress();
            });
    connect(m_session.get(), &session::ConsoleSession::sentinelCheckFailed, this,
            [this, master](const core::Sentence &why) {
                m_status->setSentinel(News::NotConfirmed,
                                      tr("Sentinel '%1': primary not confirmed").arg(master),
                                      why.text);
            });
    connect(m_session.get(), &session::ConsoleSession::sentinelConfirmed, this,
            [this, said](const QString &) {
                m_status->setSentinel(said->news, said->text, said->tip);
            });
}

void MainWindow::onClusterChanged()
{
    redis::ClusterRouter &router = m_session->router();
    m_status->setCluster(m_health->summary(), m_health->downPrimaries());
    // A primary that went down (or came back) changes what the Libraries tab can claim: "In
    // line" about a node that is not answering is not known any more.
    if (const QStringList down = m_health->downPrimaries(); down != m_downPrimaries) {
        m_downPrimaries = down;
        m_libraries->refresh();
    }
    m_browser->setTopology(router.isCluster() ? &router.topology() : nullptr);
    // A failed discovery lets the scan run: it then says why the server cannot be read.
    m_browser->setTopologyKnown(router.topologySource().settled());
    refreshNodes();
}

void MainWindow::noteServerNow(const QString &address, const overview::ServerOverview &o,
                               const QDateTime &readAt)
{
    // Unread (INFO refused): no run_id to compare, so no row is marked for that address.
    if (o.runId.isEmpty())
        m_serversNow.remove(address);
    else
        m_serversNow.insert(address, {o.runId, readAt.addSecs(-o.uptimeSeconds)});
}

void MainWindow::refreshNodes()
{
    if (m_nodesInFlight || !m_session->router().isCluster())
        return;
    m_nodesInFlight = true;
    overview::fetchNodeOverviews(m_session->router(), this,
                                 [this](const QList<overview::NodeOverview> &nodes) {
                                     m_nodesInFlight = false;
                                     m_overview->setNodes(nodes, m_client->address());
                                     const QDateTime readAt = QDateTime::currentDateTimeUtc();
                                     for (const overview::NodeOverview &n : nodes)
                                         if (n.overview)
                                             noteServerNow(n.node.address(), *n.overview, readAt);
                                     m_audit->setServersNow(m_serversNow);
                                 });
}

void MainWindow::seedDemo(const demo::SeedOptions &options, const QString &ledgerPath)
{
    if (!m_demo) {
        m_demo = new DemoDataPanel(this);
        m_centralLayout->insertWidget(m_centralLayout->indexOf(m_overview) + 1, m_demo);
    }
    m_demo->setSeeding();
    m_readiness->setNote(
        tr("This is the embedded demo server, started for a quick look: no persistence, no "
           "replica, one default user who may do everything, the previous library release, "
           "and seeded data with deliberate anomalies. The rules it fails are expected here; "
           "each one shows what a production server needs."));
    updateEnvironmentStrip(tr("embedded demo server with generated data; it stops when the "
                              "console exits"));
    m_status->setActivity(tr("Seeding demo data…"));
    demo::seedDemo(*m_client, this, options,
                   [this, options, ledgerPath](const demo::SeedResult &r) {
                       if (r.ok()) {
                           m_demo->setReport(r.value(), options);
                           m_status->setActivity(tr("Demo data seeded"));
                           if (!ledgerPath.isEmpty())
                               plantDemoLedger(options, ledgerPath);
                       } else {
                           m_demo->setFailed(r.error().text);
                           m_status->setActivity(tr("Seeding the demo data failed"));
                       }
                       m_poller->refreshNow();
                       m_libraries->refresh();
                       if (m_browser->isVisible())
                           m_browser->rescan(); // it may have scanned the half-seeded keyspace
                       else
                           m_readiness->keysChanged();
                   });
}

void MainWindow::plantDemoLedger(const demo::SeedOptions &options, const QString &path)
{
    // A few round trips to the local demo server, at its start.
    const auto planted = demo::plantDemoLedger(*m_client, options, path);
    if (!planted) {
        m_reconcile->setLedger(
            {}, {},
            tr("The demo's order ledger could not be planted: %1").arg(planted.error().text));
        return;
    }
    QStringList classes;
    for (auto it = planted->expected.cbegin(); it != planted->expected.cend(); ++it)
        classes << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    m_reconcile->setLedger(
        QStringLiteral("sqlite://") + path, QStringLiteral("time=created_at"),
        tr("Demo: a SQLite order ledger of %1 rows was written beside the demo server, with "
           "planted divergences (%2). Press Run. Releases and adjustments need "
           "inventory_lib_v1 1.3.0: the demo starts with 1.0.0, so load the shipped release "
           "from the Libraries tab first.")
            .arg(planted->rows)
            .arg(classes.join(QStringLiteral(", "))));
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Inventory Console"),
        tr("<h3>Inventory Console %1</h3>"
           "<p>An admin console for the Redis side of stock deduction: stock keys, "
           "idempotency receipts and their TTLs, deductions through <tt>FCALL</tt>, and the "
           "Redis Functions libraries that implement them.</p>"
           "<p>Connected to <b>%2</b> (%3).</p>"
           "<p>Built with Qt %4 and hiredis.</p>")
            .arg(core::versionText(), m_client->address().toHtmlEscaped(),
                 profiles::environmentName(m_environment), QString::fromLatin1(qVersion())));
}

} // namespace ui
