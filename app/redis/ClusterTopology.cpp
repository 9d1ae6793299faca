// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterTopology.h"

#include "Slot.h"

namespace redis {

namespace {
using TopologyResult = core::Result<ClusterTopology, core::Sentence>;

core::Sentence said(const char *source)
{
    return core::Sentence::translated("redis::ClusterTopology", source);
}

QString hostPort(const QString &host, quint16 port)
{
    const QString h =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return h + QLatin1Char(':') + QString::number(port);
}

// "host:port" or "[v6]:port" or a bare host (port 0).
bool splitAddress(const QString &text, QString *host, quint16 *port)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return false;
    if (t.startsWith(QLatin1Char('['))) {
        const qsizetype close = t.indexOf(QLatin1Char(']'));
        if (close < 0)
            return false;
        *host = t.mid(1, close - 1);
        const QString rest = t.mid(close + 1);
        if (rest.isEmpty()) {
            *port = 0;
            return !host->isEmpty();
        }
        if (!rest.startsWith(QLatin1Char(':')))
            return false;
        bool ok = false;
        const uint p = rest.mid(1).toUInt(&ok);
        *port = quint16(p);
        return ok && p > 0 && p < 65536 && !host->isEmpty();
    }
    const qsizetype colon = t.lastIndexOf(QLatin1Char(':'));
    if (colon < 0 || t.count(QLatin1Char(':')) > 1) {
        *host = t;
        *port = 0;
        return true;
    }
    bool ok = false;
    const uint p = t.mid(colon + 1).toUInt(&ok);
    *host = t.left(colon);
    *port = quint16(p);
    return ok && p > 0 && p < 65536 && !host->isEmpty();
}

// CLUSTER SHARDS answers maps as flat [name, value, name, value...] arrays in RESP2.
const Reply *field(const Reply &map, const char *name)
{
    if (!map.isArray())
        return nullptr;
    for (qsizetype i = 0; i + 1 < map.size(); i += 2)
        if (map.at(i).isString() && map.at(i).bytes() == name)
            return &map.at(i + 1);
    return nullptr;
}

core::Sentence shapeError(const core::Sentence &what)
{
    return said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                  "the cluster's topology reply has an unexpected shape: %1"))
        .arg(what);
}
} // namespace

QString ClusterNode::address() const
{
    return hostPort(host, port);
}

core::Result<AnnouncedAddressMap, core::Sentence> AnnouncedAddressMap::parse(const QString &text)
{
    AnnouncedAddressMap map;
    for (const QString &entry : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (entry.trimmed().isEmpty())
            continue;
        const QStringList sides = entry.split(QLatin1Char('='));
        QString fromHost, toHost;
        quint16 fromPort = 0, toPort = 0;
        if (sides.size() != 2 || !splitAddress(sides[0], &fromHost, &fromPort)
            || !splitAddress(sides[1], &toHost, &toPort))
            return said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                          "'%1' is not an address mapping: write "
                                          "announced=reachable, each side host:port or a host, "
                                          "e.g. 10.0.0.5:6379=127.0.0.1:7001"))
                .arg(entry.trimmed());
        if ((fromPort == 0) != (toPort == 0))
            return said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                          "'%1': give a port on both sides or on neither"))
                .arg(entry.trimmed());
        if (fromPort == 0)
            map.m_byHost.insert(fromHost.toLower(), toHost);
        else
            map.m_byAddress.insert(hostPort(fromHost.toLower(), fromPort), {toHost, toPort});
    }
    return map;
}

QPair<QString, quint16> AnnouncedAddressMap::reachable(const QString &host, quint16 port) const
{
    const auto exact = m_byAddress.constFind(hostPort(host.toLower(), port));
    if (exact != m_byAddress.constEnd())
        return *exact;
    const auto byHost = m_byHost.constFind(host.toLower());
    if (byHost != m_byHost.constEnd())
        return {*byHost, port};
    return {host, port};
}

ClusterTopology::ClusterTopology()
    : m_owner(SlotCount, -1)
{}

int ClusterTopology::addNode(ClusterNode node)
{
    const int existing = indexOf(node.host, node.port);
    if (existing >= 0) {
        m_nodes[existing] = std::move(node);
        return existing;
    }
    m_nodes << std::move(node);
    return int(m_nodes.size() - 1);
}

TopologyResult ClusterTopology::fromShards(const Reply &reply, const AnnouncedAddressMap &map,
                                           const QString &seedHost)
{
    if (!reply.isArray())
        return shapeError(
            said(QT_TRANSLATE_NOOP("redis::ClusterTopology", "expected an array of shards")));
    ClusterTopology t;
    for (const Reply &shard : reply.elements()) {
        const Reply *slotList = field(shard, "slots");
        const Reply *nodes = field(shard, "nodes");
        if (!slotList || !nodes || !slotList->isArray() || !nodes->isArray()
            || slotList->size() % 2)
            return shapeError(said(
                QT_TRANSLATE_NOOP("redis::ClusterTopology", "a shard without slots and nodes")));
        QList<SlotRange> ranges;
        for (qsizetype i = 0; i + 1 < slotList->size(); i += 2) {
            const auto a = slotList->at(i).asInteger(), b = slotList->at(i + 1).asInteger();
            if (!a || !b || *a < 0 || *b >= SlotCount || *a > *b)
                return shapeError(said(
                    QT_TRANSLATE_NOOP("redis::ClusterTopology", "a slot range outside 0-16383")));
            ranges << SlotRange{int(*a), int(*b)};
        }
        QByteArray primaryId;
        QList<ClusterNode> shardNodes;
        for (const Reply &n : nodes->elements()) {
            const Reply *id = field(n, "id"), *port = field(n, "port"), *role = field(n, "role");
            const Reply *endpoint = field(n, "endpoint"), *ip = field(n, "ip");
            const Reply *hostname = field(n, "hostname"), *health = field(n, "health");
            if (!id || !id->isString() || !role || !role->isString() || !port || !port->asInteger())
                return shapeError(said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                                         "a node without id, port or role")));
            ClusterNode node;
            node.id = id->bytes();
            node.primary = role->bytes() == "master";
            node.health =
                health && health->isString() ? QString::fromUtf8(health->bytes()) : QString();
            // The endpoint clients are told to use; "?" means "the address you reached me
            // on" (cluster-preferred-endpoint-type unknown-endpoint), which is the seed's.
            QString host;
            if (endpoint && endpoint->isString())
                host = endpoint->bytes() == "?" ? seedHost : QString::fromUtf8(endpoint->bytes());
            for (const Reply *candidate : {hostname, ip})
                if (host.isEmpty() && candidate && candidate->isString()
                    && !candidate->bytes().isEmpty())
                    host = QString::fromUtf8(candidate->bytes());
            if (host.isEmpty())
                host = seedHost;
            const auto announcedPort = quint16(*port->asInteger());
            node.announced = hostPort(host, announcedPort);
            const auto [reachHost, reachPort] = map.reachable(host, announcedPort);
            node.host = reachHost;
            node.port = reachPort;
            if (node.primary) {
                node.ranges = ranges;
                primaryId = node.id;
            }
            shardNodes << node;
        }
        for (ClusterNode &node : shardNodes) {
            if (!node.primary)
                node.primaryId = primaryId;
            const bool isPrimary = node.primary;
            const auto owned = node.ranges;
            const int index = t.addNode(std::move(node));
            if (isPrimary)
                for (const SlotRange &r : owned)
                    for (int s = r.first; s <= r.last; ++s)
                        t.m_owner[size_t(s)] = qint16(index);
        }
    }
    return t;
}

TopologyResult ClusterTopology::fromSlots(const Reply &reply, const AnnouncedAddressMap &map,
                                          const QString &seedHost)
{
    if (!reply.isArray())
        return shapeError(
            said(QT_TRANSLATE_NOOP("redis::ClusterTopology", "expected an array of slot ranges")));
    ClusterTopology t;
    for (const Reply &range : reply.elements()) {
        if (!range.isArray() || range.size() < 3)
            return shapeError(
                said(QT_TRANSLATE_NOOP("redis::ClusterTopology", "a slot range without a node")));
        const auto a = range.at(0).asInteger(), b = range.at(1).asInteger();
        if (!a || !b || *a < 0 || *b >= SlotCount || *a > *b)
            return shapeError(
                said(QT_TRANSLATE_NOOP("redis::ClusterTopology", "a slot range outside 0-16383")));
        QByteArray primaryId;
        for (qsizetype i = 2; i < range.size(); ++i) {
            const Reply &n = range.at(i);
            if (!n.isArray() || n.size() < 2 || !n.at(0).isString() || !n.at(1).asInteger())
                return shapeError(said(
                    QT_TRANSLATE_NOOP("redis::ClusterTopology", "a node without host and port")));
            ClusterNode node;
            QString host = QString::fromUtf8(n.at(0).bytes());
            if (host.isEmpty() || host == QLatin1String("?"))
                host = seedHost;
            const auto announcedPort = quint16(*n.at(1).asInteger());
            node.announced = hostPort(host, announcedPort);
            const auto [reachHost, reachPort] = map.reachable(host, announcedPort);
            node.host = reachHost;
            node.port = reachPort;
            node.id = n.size() > 2 && n.at(2).isString() ? n.at(2).bytes() : QByteArray();
            node.primary = i == 2;
            if (node.primary)
                primaryId = node.id;
            else
                node.primaryId = primaryId;
            const int existing = t.indexOf(node.host, node.port);
            if (existing >= 0)
                node.ranges = t.m_nodes[existing].ranges;
            if (node.primary)
                node.ranges << SlotRange{int(*a), int(*b)};
            const int index = t.addNode(std::move(node));
            if (i == 2)
                for (qint64 s = *a; s <= *b; ++s)
                    t.m_owner[size_t(s)] = qint16(index);
        }
    }
    return t;
}

QList<int> ClusterTopology::primaries() const
{
    // From the slot owners, not the role: after a failover the cluster still lists the dead
    // primary as a primary, with no slots, until it comes back as a replica or is forgotten.
    std::vector<bool> serving(size_t(m_nodes.size()), false);
    for (qint16 owner : m_owner)
        if (owner >= 0)
            serving[size_t(owner)] = true;
    QList<int> out;
    for (int i = 0; i < m_nodes.size(); ++i)
        if (serving[size_t(i)])
            out << i;
    return out;
}

int ClusterTopology::ownerOf(int slot) const
{
    return slot >= 0 && slot < SlotCount ? m_owner[size_t(slot)] : -1;
}

int ClusterTopology::uncoveredSlots() const
{
    return int(std::count(m_owner.begin(), m_owner.end(), qint16(-1)));
}

core::Sentence ClusterTopology::coverageProblem(const QString &seed) const
{
    const int uncovered = uncoveredSlots();
    if (uncovered == 0)
        return {};
    if (primaries().isEmpty())
        return said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                      "no primary of the cluster at %1 serves a slot (a node not "
                                      "yet in a formed cluster?): there is nothing to read"))
            .arg(seed);
    return said(QT_TRANSLATE_NOOP("redis::ClusterTopology",
                                  "%1 of %2 slots have no primary serving them: their keys "
                                  "cannot be read (is a primary down?)"))
        .arg(uncovered, SlotCount);
}

int ClusterTopology::indexOf(const QString &host, quint16 port) const
{
    for (int i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].port == port && m_nodes[i].host.compare(host, Qt::CaseInsensitive) == 0)
            return i;
    return -1;
}

int ClusterTopology::moveSlot(int slot, const QString &host, quint16 port)
{
    int index = indexOf(host, port);
    if (index < 0) {
        ClusterNode node;
        node.host = host;
        node.port = port;
        node.announced = hostPort(host, port);
        node.primary = true;
        index = addNode(std::move(node));
    }
    // A replica named by MOVED has been promoted.
    m_nodes[index].primary = true;
    if (slot >= 0 && slot < SlotCount)
        m_owner[size_t(slot)] = qint16(index);
    return index;
}

} // namespace redis
