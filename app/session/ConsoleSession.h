// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gate/GatedSender.h"
#include "gate/ReadOnlySender.h"
#include "gate/WriteGate.h"
#include "inventory/KeySchema.h"
#include "overview/ReplicationGroup.h"
#include "profiles/ConnectionProfile.h"
#include "redis/ClusterRouter.h"
#include "redis/RedisClient.h"
#include "sentinel/SentinelResolver.h"

#include <QDateTime>
#include <QObject>
#include <memory>

namespace ssh {
class SshTunnel;
struct SshError;
} // namespace ssh
namespace sentinel {
class SentinelWatcher;
}

namespace session {

// Everything one console window works with for one server: the profile, the connection, and
// the write gate every feature sends through. The connection is a ClusterRouter: a standalone
// URL and any cluster node's URL both just work (the router finds out which it is). The
// session reads the server's topology once, through router(); the deduction and scan lanes
// route by that same map over connections of their own. Views that only read get
// readSender() or scanReader(), which refuse anything not known to be a read; client() (the
// seed node alone) is for what is per node by nature: INFO, FUNCTION LIST. Anything that
// writes uses sender(), behind the gate.
//
// Given an SSH tunnel (already up), every connection of the session goes through it: the
// lanes, every node a cluster announces or promotes later, and the release user's.
//
// Behind Sentinel (followSentinels), the profile's host and port are the primary the
// sentinels named and ROLE confirmed; when they name another one (+switch-master, or a
// re-resolve after READONLY or a lost connection), every connection of the session is aimed
// there. What was in flight on the old primary is never resent: it ends as its lost
// connection says, outcome unknown once written.
class ConsoleSession : public QObject
{
    Q_OBJECT
public:
    ConsoleSession(profiles::ConnectionProfile profile, const QString &password,
                   QString releasePassword = {}, std::shared_ptr<ssh::SshTunnel> tunnel = {},
                   QObject *parent = nullptr);
    ~ConsoleSession() override;

    const profiles::ConnectionProfile &profile() const { return m_profile; }
    // The label acted on: the gate's, which may change once the local proof is read (a
    // Local claim is production until proven; gate().environmentChanged() says when).
    profiles::Environment environment() const;
    // Routes each command to the node owning its keys; a pass-through on a standalone server.
    redis::ClusterRouter &router() { return *m_router; }
    // The node the profile names (the seed): the whole server when standalone.
    redis::RedisClient &client() { return m_router->seed(); }
    // Connects and reads the topology (nothing waits for it: commands sent before it is known
    // are held by the router).
    void open();
    // Opens every connection again (the seed and each known node) and reads the topology;
    // a tunnel that died is started again first (its connections reconnect once it is up).
    void reconnect();
    // The tunnel every connection goes through; nullptr when connected directly.
    ssh::SshTunnel *tunnel() const { return m_tunnel.get(); }
    gate::WriteGate &gate() { return *m_gate; }
    redis::CommandSender &sender() { return *m_sender; }
    // The deduction panel's sender, through the same gate: connections of its own, read on
    // the thread that made the session (ConnectionOptions::onCallerThread), so that a
    // deduction, one round trip at a time, pays no thread hop either way and waits for its
    // reply without sleeping. Its connections open on the first command sent through it,
    // named "inventory-console-deductions".
    redis::CommandSender &deductionSender() { return *m_deductionSender; }
    // Its router, for the node a deduction's slot goes to (never to send through: that is
    // deductionSender(), behind the gate).
    redis::ClusterRouter &deductionRouter() { return *m_deductionRouter; }
    // The key browser's reads (scans, row refreshes; never a write): connections of their
    // own, named "inventory-console-scans", read on the thread that made the session too.
    // A scan's replies are stored on that thread anyway, and on a machine with few cores a
    // transport thread handing them over costs more than it saves: a 1M-key scan in the key
    // browser took 4.5-4.65 s that way and 4.0-4.15 s read here, with no longer stall (the
    // socket never blocks; each read decodes what has arrived). Opened by open().
    redis::ClusterRouter &scanRouter() { return *m_scanRouter; }
    // What views that only read send through (charts, readiness): router(), refusing any
    // command not known to be a read before it leaves (ReadOnlySender).
    redis::CommandSender &readSender() { return *m_readSender; }
    // The key browser's scans and row refreshes: scanRouter(), read-only the same way.
    redis::CommandSender &scanReader() { return *m_scanReader; }
    inventory::KeySchema schema() const { return m_schema; }
    // The release user's own connection for library loads, opened on first use; nullptr
    // when the profile names no release user (loads then use the main connection).
    redis::RedisClient *releaseClient();
    QString auditLogPath() const { return m_auditLogPath; }
    void setAuditLogPath(const QString &path); // the gate's unlock records too

    // Follows the primary of `config`'s master from `primary` (resolved and confirmed, the
    // server this session was made for) on: the sentinels' +switch-master, and asking them
    // again when a write meets READONLY or the main connection is lost.
    void followSentinels(sentinel::ResolverConfig config);
    // Null when the session does not follow Sentinel.
    sentinel::SentinelWatcher *sentinelWatcher() const { return m_sentinel.get(); }
    // The master name followed, empty when none.
    QString sentinelMaster() const;
    // SENTINEL REPLICAS <master> from the first sentinel that answers: the replicas as the
    // sentinels announce them (flags as their state), or why they could not be read. `done`
    // runs on `context`'s thread, never after it is gone.
    void readSentinelReplicas(
        QObject *context,
        std::function<void(const QList<overview::ReplicationGroup::Member> &, const QString &)>
            done);

signals:
    // The tunnel closed under the session (the bastion went away, ssh was stopped): every
    // connection is gone with it, and what was in flight has an unknown outcome.
    void tunnelDied(const core::Sentence &why);
    // reconnect() could not start the tunnel again (why), or did.
    void tunnelFailed(const core::Sentence &why);
    void tunnelRestored();
    // Sentinel named another primary: every connection now goes to `to` (host:port); `when`
    // is when the console heard of it.
    void primaryMoved(const QString &from, const QString &to, const QDateTime &when);
    // Asking the sentinels again did not confirm a primary (why); the session stays where it is.
    void sentinelCheckFailed(const core::Sentence &why);
    // The sentinels confirmed the primary the session uses (after a re-resolve).
    void sentinelConfirmed(const QString &primary);

private:
    void watchTunnel();
    void reconnectRouters();
    void askSentinelsAgain(const QString &why);
    void moveTo(const QString &host, quint16 port);

    profiles::ConnectionProfile m_profile;
    QString m_releasePassword;
    std::shared_ptr<ssh::SshTunnel> m_tunnel;       // before the connections that go through it
    std::unique_ptr<redis::ClusterRouter> m_router; // owns the topology the lanes below share
    std::unique_ptr<redis::ClusterRouter> m_deductionRouter;
    std::unique_ptr<redis::ClusterRouter> m_scanRouter;
    std::unique_ptr<redis::RedisClient> m_releaseClient;
    // After the routers they wrap, so they go first.
    std::unique_ptr<gate::ReadOnlySender> m_readSender;
    std::unique_ptr<gate::ReadOnlySender> m_scanReader;
    gate::WriteGate *m_gate = nullptr;
    gate::GatedSender *m_sender = nullptr;
    gate::GatedSender *m_deductionSender = nullptr;
    inventory::KeySchema m_schema;
    QString m_auditLogPath;
    std::unique_ptr<sentinel::SentinelWatcher> m_sentinel;
    bool m_askingSentinels = false;
};

} // namespace session
