// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ClientPool.h"
#include "ClusterTopology.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace redis {

// What a session knows of the server's shape: a standalone server, or a cluster and which
// node serves which slot. Read from the seed (CLUSTER SHARDS; CLUSTER SLOTS before Redis 7),
// and read again after a MOVED, when a node's connection fails or refuses a command for being
// down (its replica may have taken over), and on an interval; never more often than every
// refreshGapMs, however many commands fail.
//
// One per session: every lane of it (a ClusterRouter each, with connections of its own)
// routes by this one map, so the server answers one discovery rather than one per lane, a
// MOVED one lane meets corrects the others, and no two lanes can disagree on what the server
// is. It asks through the pool it is given (the main lane's): the seed, or when the seed is
// down any connection that is up, or a new one to a node the map names.
class TopologySource : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        AnnouncedAddressMap addressMap;
        int refreshIntervalMs = 30000;
        int refreshGapMs = 250;
        // How every lane of the session makes its connections (ClientPool).
        ClientFactory clientFactory;
    };
    TopologySource(ClientPool &pool, Options options, QObject *parent = nullptr);
    ~TopologySource() override;

    // Connects the seed on the first call; reads the topology unless it is known or a read is
    // under way.
    void open();
    bool opened() const { return m_opened; }
    // Reads the topology now unless a read is under way.
    void readNow();
    // Reads the topology again soon (at most once per refreshGapMs), once it is known.
    void refreshSoon();
    // Blocks (running a local event loop) until the topology is known or discovery failed.
    bool waitUntilDiscovered(int timeoutMs);

    bool isCluster() const { return m_cluster; }
    bool discovered() const { return m_discovered; }
    // Why the last read failed, in both copies (the window shows `.text`, the CLI and the log
    // `.english`); empty after a good one.
    core::Sentence discoveryError() const { return m_discoveryError; }
    // Known, or the read failed with a reason: either way a caller waiting for it can go on.
    bool settled() const { return m_discovered || !m_discoveryError.isEmpty(); }
    const ClusterTopology &topology() const { return m_topology; }
    const AnnouncedAddressMap &addressMap() const { return m_options.addressMap; }
    const ClientFactory &clientFactory() const { return m_options.clientFactory; }
    // host:port of the seed, as the pool keys it.
    QString seedAddress() const;

    // A MOVED said this slot is served there now: every lane routes it there at once, and the
    // map is read again soon.
    void noteMoved(int slot, const QString &host, quint16 port);
    // A lane's connection: its loss may mean the node's replica took over.
    void watch(RedisClient &client);

signals:
    // After each read that changed what is known, and after a first read that failed
    // (discoveryError() says why). A failed refresh keeps the map it had and says nothing.
    void topologyChanged();

private:
    void read();
    RedisClient &askingConnection();
    void apply(const ReplyResult &shards, const ReplyResult &slotTable);

    ClientPool &m_pool;
    Options m_options;
    ClusterTopology m_topology;
    bool m_cluster = false;
    bool m_discovered = false;
    bool m_reading = false;
    bool m_opened = false;
    core::Sentence m_discoveryError;
    QTimer m_refreshTimer;
    QTimer m_refreshGap; // a refresh asked for too soon after the last one waits here
    QElapsedTimer m_sinceRead;
};

} // namespace redis
