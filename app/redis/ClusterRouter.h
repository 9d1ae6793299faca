// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CommandSender.h"
#include "TopologySource.h"

#include <QObject>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace redis {

// Talks to a standalone server or to a whole Redis Cluster through one CommandSender. What
// the server is comes from a TopologySource (see there): a standalone server leaves the
// router a plain pass-through to the seed; on a cluster, each command goes to the primary
// owning its keys' slot, over one connection per primary.
//
// A router is a lane: connections of its own, by options of its own (a client name, the
// thread its replies are read on). The first router of a session reads the topology through
// its own connections; the session's other lanes share that source.
//
// Redirects: MOVED updates the slot map and resends; ASK sends ASKING and the command once to
// the importing node. Both replies prove the command did not run there, so resending cannot
// run it twice. After maxRedirects the command fails unsent with a sentence that says why.
//
// Commands of one batch that live on different nodes are sent to each node in their order;
// the batch's callback runs once all have answered, with results in the batch's order, and
// never inside sendBatch (a batch refused before anything is sent hears it from the event
// loop, as every other caller does).
class ClusterRouter : public QObject, public CommandSender
{
    Q_OBJECT
public:
    struct Options
    {
        ConnectionOptions seed;
        AnnouncedAddressMap addressMap;
        int maxRedirects = 5;
        int refreshIntervalMs = 30000;
        int refreshGapMs = 250;
        // How connections are made, in this lane and every lane over its topology source.
        ClientFactory clientFactory;
    };
    // The first lane: it owns the topology source, which reads through its connections.
    explicit ClusterRouter(Options options, QObject *parent = nullptr);
    // Another lane of the same session, over `source`, which must outlive it; `laneSeed` is
    // the seed's address with this lane's own options.
    ClusterRouter(TopologySource &source, ConnectionOptions laneSeed, int maxRedirects = 5,
                  QObject *parent = nullptr);
    ~ClusterRouter() override;

    // Connects this lane's seed and has the topology read; commands sent before it is known
    // wait. A router never opened opens on its first command.
    void open();
    bool opened() const { return m_opened; }
    // Opens this lane's connections again (the seed and each known node) and reads the
    // topology.
    void reconnect();
    // Aims this lane's seed at another standalone server (Sentinel named a new primary): the
    // same connection object, so whoever holds seed() follows (RedisClient::retarget says
    // what becomes of commands in flight). The lane that owns the topology reads it again.
    void retargetSeed(const QString &host, quint16 port, const QString &why);
    // Blocks (running a local event loop) until the topology is known or discovery failed.
    bool waitUntilDiscovered(int timeoutMs) { return m_source->waitUntilDiscovered(timeoutMs); }

    TopologySource &topologySource() { return *m_source; }
    bool isCluster() const { return m_source->isCluster(); }
    bool discovered() const { return m_source->discovered(); }
    core::Sentence discoveryError() const { return m_source->discoveryError(); }
    const ClusterTopology &topology() const { return m_source->topology(); }
    // This lane's connection to one node, for work that is per node by nature (SCAN, INFO,
    // FUNCTION LIST); on a standalone server, index 0 is the server.
    RedisClient &node(int index);
    RedisClient &seed() { return m_pool->seed(); }
    const AnnouncedAddressMap &addressMap() const { return m_source->addressMap(); }
    // Reads the topology again soon (at most once per refreshGapMs), e.g. when a node the
    // cluster marked failed answers again.
    void refreshTopology() { m_source->refreshSoon(); }
    // host:port of every node connection this lane keeps open, the seed's included. A node
    // the cluster no longer lists (forgotten, or its shard removed) is closed, not retried
    // for ever; it reopens if the node is listed or named by a redirection again.
    QStringList openConnections() const { return m_pool->openAddresses(); }

    // Asked before a command follows a MOVED or ASK to another node (its connection); a text
    // refuses it: the command ends as not sent (the redirect proves it did not run). The
    // write gate sets it, so that a write goes only to a node its label covers.
    using RedirectGuard = std::function<std::optional<QString>(const Command &, RedisClient &)>;
    void setRedirectGuard(RedirectGuard guard) { m_redirectGuard = std::move(guard); }

    using CommandSender::send;
    void sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                   int timeoutMs = -1) override;
    QString address() const override;
    QList<ScanNode> scanNodes() override;
    core::Sentence coverageProblem() const override;

signals:
    // The source's topology changed (or its first read failed); this lane has caught up.
    void topologyChanged();

private:
    struct Pending;
    void onTopologyChanged();
    void dispatch(const std::shared_ptr<Pending> &p, QList<qsizetype> indexes);
    void sendTo(RedisClient &client, const std::shared_ptr<Pending> &p, QList<qsizetype> indexes,
                bool asking);
    void take(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result);
    void finishOne(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result);
    RedisClient &clientFor(const QString &host, quint16 port);
    void closeUnlisted();

    std::unique_ptr<ClientPool> m_pool;
    std::unique_ptr<TopologySource> m_ownSource; // the first lane's
    TopologySource *m_source = nullptr;
    int m_maxRedirects = 5;
    bool m_opened = false;
    std::deque<std::shared_ptr<Pending>> m_waiting; // sent before the topology was known
    RedirectGuard m_redirectGuard;
};

} // namespace redis
