// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionContext.h"

#include "RedisCliCommand.h"
#include "redis/TopologySource.h"

namespace inventory {

QStringList DeductionContext::effectiveRedisCliArgs() const
{
    if (!redisCliArgs.isEmpty())
        return redisCliArgs;
    const auto [host, port] = splitHostPort(serverAddress);
    if (host.isEmpty())
        return {};
    return {QStringLiteral("-h"), host, QStringLiteral("-p"), port};
}

QString serverForSlot(const std::function<SlotNode(int slot)> &nodeForSlot,
                      const QString &standalone, int slot)
{
    const SlotNode node = nodeForSlot ? nodeForSlot(slot) : SlotNode{};
    if (!node.cluster)
        return standalone;
    if (node.address.isEmpty())
        return QStringLiteral("the owner of slot %1 (not in the topology read so far)").arg(slot);
    return node.address;
}

QString DeductionContext::serverFor(int slot) const
{
    return serverForSlot(nodeForSlot, serverAddress, slot);
}

QStringList DeductionContext::redisCliArgsFor(int slot) const
{
    const SlotNode node = nodeForSlot ? nodeForSlot(slot) : SlotNode{};
    if (!node.cluster)
        return effectiveRedisCliArgs();
    // An owner not known yet: the seed, and -c follows its MOVED to the owner.
    return redisCliClusterArgs(effectiveRedisCliArgs(),
                               node.address.isEmpty() ? serverAddress : node.address);
}

std::function<SlotNode(int slot)> slotOwnerLookup(const redis::TopologySource &topology)
{
    return [&topology](int slot) {
        if (!topology.discovered() || !topology.isCluster())
            return SlotNode{};
        const int owner = topology.topology().ownerOf(slot);
        const auto &nodes = topology.topology().nodes();
        return SlotNode{true,
                        owner >= 0 && owner < nodes.size() ? nodes.at(owner).address() : QString()};
    };
}

} // namespace inventory
