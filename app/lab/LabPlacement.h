// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LabSettings.h"
#include "inventory/KeySchema.h"
#include "redis/ClusterTopology.h"
#include "redis/ConnectionOptions.h"

#include <QList>
#include <QRandomGenerator>

namespace lab {

// A server a storm runs on: the standalone server, or one primary of a Redis Cluster at the
// address this machine reaches it by (the announced-address map applied).
struct LabNode
{
    redis::ConnectionOptions options;
    QString name; // host:port as reached ("as announced a:b" added when the map changed it)
};

// Where the storms of a lab run go. A standalone server is one node. On a cluster each
// strategy's keys share its SKU's hash tag, so they live in one slot and its storm talks to
// the primary owning that slot alone; SKUs are drawn so that the strategies of one run land
// on different primaries (as long as there are primaries left), which shows the spread.
class LabPlacement
{
public:
    // Asks the server what it is (redis::ClusterRouter: CLUSTER SHARDS, or CLUSTER SLOTS),
    // on the calling thread, blocking. A failure is in failure(); connectFailed() tells that
    // the server could not be reached at all.
    static LabPlacement discover(const redis::ConnectionOptions &options,
                                 const redis::AnnouncedAddressMap &addressMap);
    // The cluster's primaries, connected to as `seed` is (credentials, TLS, timeouts).
    static LabPlacement ofCluster(const redis::ClusterTopology &topology,
                                  const redis::ConnectionOptions &seed);
    static LabPlacement ofStandalone(const redis::ConnectionOptions &options);

    QString failure() const { return m_failure; }
    bool connectFailed() const { return m_connectFailed; }
    bool isCluster() const { return m_cluster; }
    const QList<LabNode> &nodes() const { return m_nodes; }
    // The index in nodes() of the node serving `key`; -1 when no primary covers its slot.
    int nodeOf(const QByteArray &key) const;

    struct Pick
    {
        QByteArray sku; // lab-<random>-<strategy>
        int node = -1;  // index in nodes(); -1: its slot is not covered
    };
    // One fresh SKU per strategy, in order. On a cluster the random part is drawn again
    // until the stock key's slot belongs to a primary no earlier strategy of the run uses
    // (once every primary has one, the round starts over); a few draws suffice.
    QList<Pick> pickSkus(const QList<Strategy> &strategies, const inventory::KeySchema &schema,
                         QRandomGenerator &random) const;

    // The prefix of every SKU the lab makes ("lab-"); their keys are the lab's to remove.
    static QByteArray skuPrefix();

private:
    QString m_failure;
    bool m_connectFailed = false;
    bool m_cluster = false;
    QList<LabNode> m_nodes;
    QList<int> m_slotOwner; // per slot, index into m_nodes or -1 (cluster only)
};

} // namespace lab
