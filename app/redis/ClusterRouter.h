#pragma once

#include "ClusterTopology.h"
#include "CommandSender.h"
#include "RedisClient.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace redis {

// Talks to a standalone server or to a whole Redis Cluster through one CommandSender, found
// out from the server itself: the seed is asked for CLUSTER SHARDS (CLUSTER SLOTS before Redis
// 7), and a standalone server's refusal leaves the router a plain pass-through. On a cluster,
// each command goes to the primary owning its keys' slot, over one connection per primary.
//
// Redirects: MOVED updates the slot map and resends; ASK sends ASKING and the command once to
// the importing node. Both replies prove the command did not run there, so resending cannot
// run it twice. After maxRedirects the command fails unsent with a sentence that says why.
// The topology is read again after a MOVED, after a node's connection failed or refused a
// command for being down (its replica may have taken over), and on an interval; never more
// often than every refreshGapMs, however many commands fail.
//
// Commands of one batch that live on different nodes are sent to each node in their order;
// the batch's callback runs once all have answered, with results in the batch's order.
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
    };
    explicit ClusterRouter(Options options, QObject *parent = nullptr);
    ~ClusterRouter() override;

    // Connects to the seed and reads the topology; commands sent before it is known wait.
    // A router never opened opens on its first command.
    void open();
    bool opened() const { return m_opened; }
    // Blocks (running a local event loop) until the topology is known or discovery failed.
    bool waitUntilDiscovered(int timeoutMs);

    bool isCluster() const { return m_cluster; }
    bool discovered() const { return m_discovered; }
    QString discoveryError() const { return m_discoveryError; }
    const ClusterTopology &topology() const { return m_topology; }
    // The connection to one node, for work that is per node by nature (SCAN, INFO, FUNCTION
    // LIST); on a standalone server, index 0 is the server.
    RedisClient &node(int index);
    RedisClient &seed() { return *m_seed; }
    const AnnouncedAddressMap &addressMap() const { return m_options.addressMap; }
    // Reads the topology again soon (at most once per refreshGapMs), e.g. when a node the
    // cluster marked failed answers again.
    void refreshTopology() { refreshSoon(); }
    // host:port of every node connection the router keeps open, the seed's included. A node
    // the cluster no longer lists (forgotten, or its shard removed) is closed, not retried
    // for ever; it reopens if the node is listed or named by a redirection again.
    QStringList openConnections() const;

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
    QString coverageProblem() const override;

signals:
    void topologyChanged();

private:
    struct Pending;
    void discover();
    void refreshSoon();
    RedisClient *topologySource();
    void watch(RedisClient &client);
    void applyTopology(const ReplyResult &shards, const ReplyResult &slotTable);
    void dispatch(const std::shared_ptr<Pending> &p, QList<qsizetype> indexes);
    void sendTo(RedisClient &client, const std::shared_ptr<Pending> &p, QList<qsizetype> indexes,
                bool asking);
    void take(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result);
    void finishOne(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result);
    RedisClient &clientFor(const QString &host, quint16 port);
    // The seed's options for another node; their address() keys m_clients.
    ConnectionOptions optionsFor(const QString &host, quint16 port) const;
    void closeUnlisted();

    Options m_options;
    std::unique_ptr<RedisClient> m_seed;
    std::map<QString, std::unique_ptr<RedisClient>> m_clients; // by host:port
    ClusterTopology m_topology;
    bool m_cluster = false;
    bool m_discovered = false;
    bool m_refreshing = false;
    bool m_opened = false;
    QString m_discoveryError;
    std::deque<std::shared_ptr<Pending>> m_waiting; // sent before the topology was known
    QTimer m_refreshTimer;
    QTimer m_refreshGap; // a refresh asked for too soon after the last one waits here
    QElapsedTimer m_sinceDiscover;
    RedirectGuard m_redirectGuard;
};

} // namespace redis
