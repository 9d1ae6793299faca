// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ServerOverview.h"
#include "redis/ClusterRouter.h"

#include <functional>

namespace overview {

// What the overview shows about one node of a cluster: its place in the topology and, when it
// answered, its own overview (memory, DBSIZE, the libraries loaded on it, with their code, so
// that a release can be named).
struct NodeOverview
{
    redis::ClusterNode node;
    QString primaryAddress; // a replica's primary, host:port; empty for a primary
    std::optional<ServerOverview> overview;
    QString error; // why the node could not be read; empty when it answered

    QString roleLabel() const;      // "primary", "replica of 127.0.0.1:7001"
    QString slotRangesText() const; // "0-5460, 10923"; "none" for a primary without slots
};

// Reads every node of the router's cluster, replicas too, each over its own connection (one
// round trip: INFO, DBSIZE, CONFIG GET, FUNCTION LIST WITHCODE). The callback runs on the
// context's thread once every node has answered or failed, with one row per node in topology
// order. Nothing is read on a standalone server (an empty list).
void fetchNodeOverviews(redis::ClusterRouter &router, QObject *context,
                        std::function<void(const QList<NodeOverview> &)> cb, int timeoutMs = -1);

} // namespace overview
