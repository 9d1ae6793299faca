// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reply.h"
#include "core/Result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <vector>

namespace redis {

struct SlotRange
{
    int first = 0;
    int last = 0;
};

// One node as the cluster announces it; `host`/`port` are what clients should connect to
// after the announced-address map has been applied.
struct ClusterNode
{
    QByteArray id;
    QString host;
    quint16 port = 0;
    QString announced; // host:port as the cluster announced it, for messages
    bool primary = false;
    QByteArray primaryId;    // a replica's primary
    QString health;          // online, failed, loading; empty when the server did not say
    QList<SlotRange> ranges; // a primary's slots

    QString address() const;
};

// Announced node addresses (NAT, containers, tunnels, cluster-announce-hostname) mapped to
// addresses this machine can reach. Written "announced=reachable", comma separated; either
// side is host:port, or a bare host that keeps the port.
class AnnouncedAddressMap
{
public:
    // A bad entry is refused with what to write instead, in both copies (the profile form
    // shows `.text`, --announced-map prints `.english`).
    static core::Result<AnnouncedAddressMap, core::Sentence> parse(const QString &text);
    // The address to connect to for an announced one (itself when not mapped).
    QPair<QString, quint16> reachable(const QString &host, quint16 port) const;
    bool isEmpty() const { return m_byAddress.isEmpty() && m_byHost.isEmpty(); }

private:
    QHash<QString, QPair<QString, quint16>> m_byAddress; // "host:port" -> reachable
    QHash<QString, QString> m_byHost;                    // host -> reachable host
};

// Which primary owns which slot, and every node's role. Decoded from CLUSTER SHARDS
// (Redis 7) or CLUSTER SLOTS (older); a reply of the wrong shape is an error naming what
// was expected, never a partial map.
class ClusterTopology
{
public:
    ClusterTopology();

    static core::Result<ClusterTopology, core::Sentence>
    fromShards(const Reply &reply, const AnnouncedAddressMap &map, const QString &seedHost);
    static core::Result<ClusterTopology, core::Sentence>
    fromSlots(const Reply &reply, const AnnouncedAddressMap &map, const QString &seedHost);

    const QList<ClusterNode> &nodes() const { return m_nodes; }
    // The primaries that serve at least one slot (a failed primary whose replica took over
    // serves none), in node order.
    QList<int> primaries() const;
    // The node index owning a slot, -1 when no node covers it.
    int ownerOf(int slot) const;
    int uncoveredSlots() const;
    // Why a walk of the primaries cannot see every key (slots no primary serves), or empty;
    // `seed` names the cluster when no primary serves a slot.
    core::Sentence coverageProblem(const QString &seed) const;
    int indexOf(const QString &host, quint16 port) const;
    // After a MOVED: the slot now belongs to that address (added as a primary if unknown).
    int moveSlot(int slot, const QString &host, quint16 port);

private:
    int addNode(ClusterNode node);
    QList<ClusterNode> m_nodes;
    std::vector<qint16> m_owner; // per slot, index into m_nodes or -1
};

} // namespace redis
