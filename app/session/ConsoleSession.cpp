// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConsoleSession.h"

#include "SessionLog.h"
#include "TunnelRoute.h"
#include "inventory/AuditLog.h"
#include "sentinel/SentinelWatcher.h"
#include "ssh/SshTunnel.h"

#include <QPointer>

namespace session {

namespace {
// Every connection made from the profile, the lanes' and each node's as it is discovered,
// goes through the tunnel.
profiles::ConnectionProfile routedThrough(profiles::ConnectionProfile profile,
                                          const std::shared_ptr<ssh::SshTunnel> &tunnel)
{
    if (tunnel)
        profile.route = tunnelRoute(tunnel);
    return profile;
}

redis::ClusterRouter::Options routerOptions(const profiles::ConnectionProfile &profile,
                                            const QString &password)
{
    redis::ClusterRouter::Options o;
    o.seed = profile.toConnectionOptions(password);
    o.addressMap = profile.addressMap();
    return o;
}

// A lane's connections are read on the thread that made the session, and CLIENT LIST names
// them "<client name>-<lane>".
redis::ConnectionOptions laneSeed(const profiles::ConnectionProfile &profile,
                                  const QString &password, const QByteArray &lane)
{
    redis::ConnectionOptions o = profile.toConnectionOptions(password);
    o.onCallerThread = true;
    o.clientName += "-" + lane;
    return o;
}
} // namespace

ConsoleSession::ConsoleSession(profiles::ConnectionProfile profile, const QString &password,
                               QString releasePassword, std::shared_ptr<ssh::SshTunnel> tunnel,
                               QObject *parent)
    : QObject(parent)
    , m_profile(routedThrough(std::move(profile), tunnel))
    , m_releasePassword(std::move(releasePassword))
    , m_tunnel(std::move(tunnel))
    , m_router(std::make_unique<redis::ClusterRouter>(routerOptions(m_profile, password)))
    , m_deductionRouter(std::make_unique<redis::ClusterRouter>(
          m_router->topologySource(),
          laneSeed(m_profile, password, QByteArrayLiteral("deductions"))))
    , m_scanRouter(std::make_unique<redis::ClusterRouter>(
          m_router->topologySource(), laneSeed(m_profile, password, QByteArrayLiteral("scans"))))
    , m_readSender(std::make_unique<gate::ReadOnlySender>(*m_router))
    , m_scanReader(std::make_unique<gate::ReadOnlySender>(*m_scanRouter))
    , m_auditLogPath(inventory::AuditLog::defaultPath())
{
    // The gate wraps the router, so a deduction goes to the primary owning its slot and keys
    // in two slots are refused by the router before anything is sent.
    m_gate = new gate::WriteGate(*m_router, m_profile, this);
    m_gate->setAuditLogPath(m_auditLogPath);
    m_sender = new gate::GatedSender(*m_router, *m_gate, this);
    m_deductionSender = new gate::GatedSender(*m_deductionRouter, *m_gate, this);
    // The profile store validated the templates; a bad pair falls back to the defaults
    // rather than producing keys nobody asked for.
    auto schema = inventory::KeySchema::fromTemplates(m_profile.stockKeyTemplate,
                                                      m_profile.receiptKeyTemplate);
    if (schema.ok())
        m_schema = schema.value();
    watchTunnel();
}

void ConsoleSession::watchTunnel()
{
    if (!m_tunnel)
        return;
    connect(m_tunnel.get(), &ssh::SshTunnel::died, this,
            [this](const ssh::SshError &e) { emit tunnelDied(e.message); });
    connect(m_tunnel.get(), &ssh::SshTunnel::failed, this,
            [this](const ssh::SshError &e) { emit tunnelFailed(e.message); });
    connect(m_tunnel.get(), &ssh::SshTunnel::established, this, [this] {
        // Only a tunnel this session saw die comes back here: reopen through it now rather
        // than at each connection's next backoff step.
        reconnectRouters();
        emit tunnelRestored();
    });
}

void ConsoleSession::followSentinels(sentinel::ResolverConfig config)
{
    const sentinel::NodeAddress primary{m_profile.host, quint16(m_profile.port)};
    m_sentinel = std::make_unique<sentinel::SentinelWatcher>(std::move(config), primary);
    connect(m_sentinel.get(), &sentinel::SentinelWatcher::primaryMoved, this,
            [this](const sentinel::NodeAddress &from, const sentinel::NodeAddress &to,
                   const QDateTime &when) {
                moveTo(to.host, to.port);
                emit primaryMoved(from.toString(), to.toString(), when);
                // A check begun before the move would answer about the old primary: this one
                // replaces it (the resolver drops the older), and confirms the new one.
                m_askingSentinels = false;
                askSentinelsAgain(
                    QStringLiteral("confirming the new primary %1").arg(to.toString()));
            });
    connect(m_sentinel.get(), &sentinel::SentinelWatcher::reresolved, this,
            [this](const sentinel::Resolution &r) {
                m_askingSentinels = false;
                emit sentinelConfirmed(r.primary.toString());
            });
    connect(m_sentinel.get(), &sentinel::SentinelWatcher::reresolveFailed, this,
            [this](const sentinel::ResolveError &e) {
                m_askingSentinels = false;
                emit sentinelCheckFailed(e.message);
            });
    // The sentinels' message can be missed (a subscription not up yet, a sentinel
    // restarting): what the connections meet is asked about too.
    const auto onReadOnly = [this](const QString &why) {
        askSentinelsAgain(why);
    };
    m_sender->setOnReadOnlyReply(onReadOnly);
    m_deductionSender->setOnReadOnlyReply(onReadOnly);
    connect(&m_router->seed(), &redis::RedisClient::stateChanged, this,
            [this](redis::ConnectionState state, const QString &detail) {
                if (state == redis::ConnectionState::Reconnecting
                    || state == redis::ConnectionState::Failed)
                    askSentinelsAgain(detail);
            });
    m_sentinel->start();
}

QString ConsoleSession::sentinelMaster() const
{
    return m_sentinel ? m_profile.sentinel.masterName.trimmed() : QString();
}

void ConsoleSession::readSentinelReplicas(
    QObject *context,
    std::function<void(const QList<overview::ReplicationGroup::Member> &, const QString &)> done)
{
    if (!m_sentinel) {
        done({}, tr("the session does not follow Sentinel"));
        return;
    }
    auto *resolver = new sentinel::SentinelResolver(m_sentinel->config(), this);
    const QPointer<QObject> alive(context);
    connect(resolver, &sentinel::SentinelResolver::replicasRead, this,
            [resolver, alive, done](const QList<sentinel::ReplicaEntry> &replicas,
                                    const sentinel::NodeAddress &) {
                resolver->deleteLater();
                QList<overview::ReplicationGroup::Member> members;
                for (const sentinel::ReplicaEntry &r : replicas)
                    members << overview::ReplicationGroup::Member{r.address.host, r.address.port,
                                                                  r.flags.join(QLatin1Char(','))};
                if (alive)
                    done(members, {});
            });
    connect(resolver, &sentinel::SentinelResolver::replicasFailed, this,
            [resolver, alive, done](const core::Sentence &why) {
                resolver->deleteLater();
                if (alive)
                    done({}, tr("SENTINEL REPLICAS could not be read: %1").arg(why.text));
            });
    resolver->readReplicas();
}

void ConsoleSession::askSentinelsAgain(const QString &why)
{
    if (!m_sentinel || m_askingSentinels)
        return;
    m_askingSentinels = true;
    m_sentinel->reresolve(why);
}

void ConsoleSession::moveTo(const QString &host, quint16 port)
{
    const QString why = QStringLiteral("Sentinel names %1:%2 the primary of '%3' now")
                            .arg(host)
                            .arg(port)
                            .arg(sentinelMaster());
    qCInfo(lcSession) << why;
    m_profile.host = host;
    m_profile.port = port;
    for (redis::ClusterRouter *router :
         {m_router.get(), m_scanRouter.get(), m_deductionRouter.get()})
        router->retargetSeed(host, port, why);
    if (m_releaseClient)
        m_releaseClient->retarget(host, port, why);
}

ConsoleSession::~ConsoleSession()
{
    // The gate and sender hold references to the router: they go first.
    m_sentinel.reset();
    delete m_sender;
    delete m_deductionSender;
    delete m_gate;
}

void ConsoleSession::open()
{
    // The deduction lane opens on its first deduction: a session that never deducts (a
    // read-only production one, say) costs the server no connection per node for it. The
    // scan lane opens now: a scan asks for the nodes to walk before it sends anything, so
    // its topology has to be known first.
    m_router->open();
    m_scanRouter->open();
}

void ConsoleSession::reconnect()
{
    if (m_tunnel && m_tunnel->state() != ssh::SshTunnel::State::Up) {
        qCInfo(lcSession) << "starting the SSH tunnel via" << m_tunnel->bastionDisplay() << "again";
        m_tunnel->start(); // established() reconnects the routers
        return;
    }
    reconnectRouters();
}

void ConsoleSession::reconnectRouters()
{
    for (redis::ClusterRouter *router :
         {m_router.get(), m_scanRouter.get(), m_deductionRouter.get()})
        if (router->opened())
            router->reconnect();
}

profiles::Environment ConsoleSession::environment() const
{
    return m_gate->environmentKind();
}

void ConsoleSession::setAuditLogPath(const QString &path)
{
    m_auditLogPath = path;
    m_gate->setAuditLogPath(path);
}

redis::RedisClient *ConsoleSession::releaseClient()
{
    if (m_profile.releaseUsername.isEmpty())
        return nullptr;
    if (!m_releaseClient) {
        m_releaseClient = std::make_unique<redis::RedisClient>(
            m_profile.toReleaseConnectionOptions(m_releasePassword));
        m_releaseClient->open();
    }
    return m_releaseClient.get();
}

} // namespace session
