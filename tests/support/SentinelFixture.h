// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/LocalRedisServer.h"
#include "redis/ConnectionOptions.h"
#include "redis/RedisClient.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace testsupport {

// A primary, a replica and a trio of sentinels, as real redis-server processes: loopback,
// free ports, temp dirs, torn down by the destructors. Sentinels run as `redis-server
// <conf> --sentinel` (there is no redis-sentinel binary on PATH) with a config file of their
// own they may rewrite, and short down-after and failover timeouts, so that SENTINEL
// FAILOVER completes within seconds. Every wait is on a condition, polled.
class SentinelGroup
{
public:
    struct Options
    {
        QByteArray masterName = "mymaster";
        int sentinels = 3;
        bool withReplica = true;
        QByteArray sentinelPassword; // requirepass on every sentinel (and between them)
        QByteArray dataPassword;     // requirepass and masterauth on the data nodes
        int downAfterMs = 1000;
        int failoverTimeoutMs = 3000;
    };
    bool start() { return start(Options()); }
    bool start(const Options &options);
    QString errorString() const { return m_error; }

    // The data nodes: 0 started as the primary, 1 as its replica.
    quint16 dataPort(int index) const { return m_data.at(size_t(index))->port(); }
    quint16 sentinelPort(int index) const { return m_sentinels.at(size_t(index))->port(); }
    int sentinelCount() const { return int(m_sentinels.size()); }
    // Plain options for a node (the data password set for data nodes, the sentinel's for
    // sentinels).
    redis::ConnectionOptions dataOptions(int index) const;
    redis::ConnectionOptions sentinelOptions(int index) const;
    std::unique_ptr<redis::RedisClient> connectData(int index) const;
    std::unique_ptr<redis::RedisClient> connectSentinel(int index) const;
    void stopSentinel(int index) { m_sentinels.at(size_t(index))->stop(); }

    // Index of the data node whose ROLE says master now, -1 when none or both.
    int primary() const;
    // Starts one more sentinel (its index is returned, -1 on failure) that monitors `name` at
    // the data node `index`, with quorum 1.
    int addSentinel(const QByteArray &name, int index);
    // SENTINEL FAILOVER on a live sentinel, then waits until the other data node says master
    // and every live sentinel names it. Empty on success, else what is still not so.
    QString failover(int timeoutMs = 30000) const;
    // Waits until every sentinel knows the others and the replica, and the replica is in
    // sync: what a failover needs. Empty on success.
    QString waitUntilSettled(int timeoutMs = 20000) const;

private:
    QByteArray sentinelConfig(const QByteArray &name, quint16 port, int quorum) const;
    bool startSentinel(const QByteArray &config);
    Options m_options;
    std::vector<std::unique_ptr<demo::LocalRedisServer>> m_data;
    std::vector<std::unique_ptr<demo::LocalRedisServer>> m_sentinels;
    QString m_error;
};

} // namespace testsupport
