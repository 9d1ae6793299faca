// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterNodes.h"

#include "ChangeLease.h"

#include "redis/Slot.h"

#include <algorithm>

namespace functions {

namespace {

// Primaries in slot order (the one serving slot 0 first), as people read a cluster.
QList<int> primariesBySlot(const redis::ClusterTopology &topology)
{
    QList<int> out = topology.primaries();
    const auto firstSlot = [&](int i) {
        const QList<redis::SlotRange> &r = topology.nodes().at(i).ranges;
        int first = redis::SlotCount;
        for (const redis::SlotRange &s : r)
            first = std::min(first, s.first);
        return first;
    };
    std::stable_sort(out.begin(), out.end(),
                     [&](int a, int b) { return firstSlot(a) < firstSlot(b); });
    return out;
}

} // namespace

ClusterNodes::ClusterNodes(redis::ClusterRouter &router,
                           std::optional<redis::ConnectionOptions> release)
    : m_router(router)
{
    if (release)
        m_release.emplace(std::move(*release));
}

ClusterNodes::~ClusterNodes() = default;

redis::CommandSender *ClusterNodes::releaseFor(const QString &host, quint16 port)
{
    return m_release ? &m_release->at(host, port) : nullptr;
}

StandaloneGroup &ClusterNodes::standaloneGroup()
{
    // The seed was aimed at another server (Sentinel named a new primary): a group read from
    // the old one would put that server's name on the new one's libraries.
    if (m_group && m_group->seedAddress() != m_router.seed().address())
        m_group.reset();
    if (!m_group) {
        redis::RedisClient &seed = m_router.seed();
        redis::CommandSender *release = releaseFor(seed.options().host, seed.options().port);
        m_group = std::make_unique<StandaloneGroup>(release ? *release : seed, seed.address(),
                                                    m_release ? m_release->base() : seed.options(),
                                                    m_router.addressMap());
        m_group->setReplicaSource(m_replicaSource);
    }
    return *m_group;
}

void ClusterNodes::setReplicaSource(StandaloneGroup::ReplicaSource source)
{
    m_replicaSource = std::move(source);
    if (m_group)
        m_group->setReplicaSource(m_replicaSource);
}

QList<MatrixNode> ClusterNodes::matrixNodes()
{
    // Read as the release user when there is one, as every library step (loadVia()).
    const auto reader = [this](redis::CommandSender &session, const QString &host,
                               quint16 port) -> redis::CommandSender * {
        redis::CommandSender *release = releaseFor(host, port);
        return release ? release : &session;
    };
    if (!m_router.isCluster())
        return standaloneGroup().nodes();
    const QList<redis::ClusterNode> &all = m_router.topology().nodes();
    QList<MatrixNode> out;
    // Each primary followed by its replicas; a replica whose primary is not listed last.
    QList<int> order;
    for (int p : primariesBySlot(m_router.topology())) {
        order << p;
        for (int i = 0; i < all.size(); ++i)
            if (!all.at(i).primary && all.at(i).primaryId == all.at(p).id)
                order << i;
    }
    for (int i = 0; i < all.size(); ++i)
        if (!order.contains(i))
            order << i;
    for (int i : order) {
        const redis::ClusterNode &n = all.at(i);
        QString primaryAddress;
        if (!n.primary)
            for (const redis::ClusterNode &p : all)
                if (p.primary && p.id == n.primaryId)
                    primaryAddress = p.address();
        out << MatrixNode{n.address(), n.primary, primaryAddress,
                          reader(m_router.node(i), n.host, n.port)};
    }
    return out;
}

QList<ChangeTarget> ClusterNodes::primaries()
{
    if (!m_router.isCluster()) {
        const redis::ConnectionOptions &seed = m_router.seed().options();
        return {ChangeTarget{m_router.seed().address(), &m_router.seed(),
                             releaseFor(seed.host, seed.port)}};
    }
    QList<ChangeTarget> out;
    for (int i : primariesBySlot(m_router.topology())) {
        const redis::ClusterNode &n = m_router.topology().nodes().at(i);
        const auto served = [&n](int slot) {
            return std::any_of(n.ranges.begin(), n.ranges.end(), [slot](const redis::SlotRange &r) {
                return slot >= r.first && slot <= r.last;
            });
        };
        out << ChangeTarget{n.address(), &m_router.node(i), releaseFor(n.host, n.port),
                            leaseKeyForSlots(served)};
    }
    return out;
}

} // namespace functions
