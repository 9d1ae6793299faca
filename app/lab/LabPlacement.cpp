// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabPlacement.h"

#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QCoreApplication>
#include <QHash>

namespace lab {

namespace {
// Where the lab could not place its keys, in the window's language (the CLI prints the English).
struct LabPlacementText
{
    Q_DECLARE_TR_FUNCTIONS(lab::LabPlacement)
};
} // namespace

QByteArray LabPlacement::skuPrefix()
{
    return "lab-";
}

LabPlacement LabPlacement::ofStandalone(const redis::ConnectionOptions &options)
{
    LabPlacement p;
    p.m_nodes.append(LabNode{options, options.address()});
    return p;
}

LabPlacement LabPlacement::ofCluster(const redis::ClusterTopology &topology,
                                     const redis::ConnectionOptions &seed)
{
    LabPlacement p;
    p.m_cluster = true;
    // Primaries in slot order; one that serves no slot cannot hold a SKU and is left out.
    QHash<int, int> ours; // topology index -> index in m_nodes
    p.m_slotOwner.resize(redis::SlotCount);
    for (int slot = 0; slot < redis::SlotCount; ++slot) {
        const int owner = topology.ownerOf(slot);
        if (owner >= 0 && !ours.contains(owner)) {
            const redis::ClusterNode &n = topology.nodes().at(owner);
            redis::ConnectionOptions o = seed;
            o.host = n.host;
            o.port = n.port;
            QString name = n.address();
            if (!n.announced.isEmpty() && n.announced != name)
                name = LabPlacementText::tr("%1 (announced as %2)").arg(name, n.announced);
            ours.insert(owner, int(p.m_nodes.size()));
            p.m_nodes.append(LabNode{o, name});
        }
        p.m_slotOwner[slot] = ours.value(owner, -1);
    }
    return p;
}

LabPlacement LabPlacement::discover(const redis::ConnectionOptions &options,
                                    const redis::AnnouncedAddressMap &addressMap)
{
    redis::ClusterRouter::Options o;
    o.seed = options;
    o.addressMap = addressMap;
    o.refreshIntervalMs = 0; // asked once: the storms go to the nodes directly
    redis::ClusterRouter router(o);
    router.open();
    if (router.waitUntilDiscovered(options.connectTimeoutMs + 1000)) {
        if (!router.isCluster())
            return ofStandalone(options);
        LabPlacement p = ofCluster(router.topology(), options);
        if (p.m_nodes.isEmpty())
            p.m_failure =
                LabPlacementText::tr("the cluster at %1 announced no primary serving a slot")
                    .arg(options.address());
        return p;
    }
    LabPlacement p;
    if (router.seed().state() != redis::ConnectionState::Ready) {
        // The seed's own state says it best when it could not connect at all.
        p.m_connectFailed = true;
        p.m_failure = LabPlacementText::tr("could not connect to %1: %2")
                          .arg(options.address(), router.seed().stateDetail().text);
    } else {
        p.m_failure = LabPlacementText::tr("could not read the cluster's topology from %1: %2")
                          .arg(options.address(), router.discoveryError().isEmpty()
                                                      ? LabPlacementText::tr("no answer in time")
                                                      : router.discoveryError().text);
    }
    return p;
}

int LabPlacement::nodeOf(const QByteArray &key) const
{
    if (!m_cluster)
        return m_nodes.isEmpty() ? -1 : 0;
    return m_slotOwner.value(redis::keySlot(key), -1);
}

QList<LabPlacement::Pick> LabPlacement::pickSkus(const QList<Strategy> &strategies,
                                                 const inventory::KeySchema &schema,
                                                 QRandomGenerator &random) const
{
    const auto draw = [&](Strategy s) {
        return skuPrefix() + QByteArray::number(random.generate(), 16).rightJustified(8, '0') + '-'
               + strategyName(s).toUtf8();
    };
    QList<Pick> picks;
    QList<int> used; // primaries taken in this round
    for (Strategy s : strategies) {
        if (used.size() >= m_nodes.size())
            used.clear();
        Pick pick;
        // 3 primaries: the chance that 64 draws all miss a free one is below 1e-11.
        for (int attempt = 0; attempt < 64; ++attempt) {
            pick.sku = draw(s);
            pick.node = nodeOf(schema.stockKey(pick.sku));
            if (pick.node >= 0 && !used.contains(pick.node))
                break;
        }
        if (pick.node >= 0 && !used.contains(pick.node))
            used.append(pick.node);
        picks.append(pick);
    }
    return picks;
}

} // namespace lab
