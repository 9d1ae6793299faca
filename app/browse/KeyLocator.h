// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/ClusterTopology.h"

#include <QByteArray>
#include <QString>

namespace browse {

// Where a key lives on a Redis Cluster: its slot, and the primary that owns the slot now. The
// browse tables' Node and Slot columns read it. Without a topology (a standalone server) it
// locates nothing, and those columns do not exist.
class KeyLocator
{
public:
    // Not owned; it must outlive this locator (the router's topology does). nullptr: standalone.
    void setTopology(const redis::ClusterTopology *topology) { m_topology = topology; }
    bool isCluster() const { return m_topology != nullptr; }

    static int slotOf(const QByteArray &key);
    // The owning primary's index in the topology; -1 when standalone or no node covers it.
    int nodeIndexOf(int slot) const;
    // "host:port" of the owning primary; "no node" when the slot is uncovered; empty when
    // standalone.
    QString nodeOf(int slot) const;

private:
    const redis::ClusterTopology *m_topology = nullptr;
};

} // namespace browse
