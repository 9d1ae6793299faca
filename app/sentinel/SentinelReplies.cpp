// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelReplies.h"

namespace sentinel {

namespace {

std::optional<quint16> port(const QByteArray &text)
{
    bool ok = false;
    const int p = text.toInt(&ok);
    if (!ok || p < 1 || p > 65535)
        return std::nullopt;
    return quint16(p);
}

// host and port from two replies (bulk strings, or an integer port).
redis::Decoded<NodeAddress> address(const redis::Reply &host, const redis::Reply &portReply,
                                    const QString &what)
{
    const auto h = host.string();
    const auto p = portReply.number();
    if (!h.ok() || h->isEmpty())
        return host.unexpected(QStringLiteral("a host for %1").arg(what));
    if (!p.ok() || !port(QByteArray::number(p.value())))
        return portReply.unexpected(QStringLiteral("a port from 1 to 65535 for %1").arg(what));
    return NodeAddress{QString::fromUtf8(h.value()), quint16(p.value())};
}

} // namespace

redis::Decoded<std::optional<NodeAddress>> decodeMasterAddress(const redis::Reply &reply)
{
    if (reply.isNil())
        return std::optional<NodeAddress>();
    if (!reply.isArray() || reply.size() != 2)
        return reply.unexpected(QStringLiteral("nil or an array of a host and a port"));
    const auto a = address(reply.at(0), reply.at(1), QStringLiteral("the primary"));
    if (!a.ok())
        return a.error();
    return std::optional<NodeAddress>(a.value());
}

redis::Decoded<NodeRole> decodeRole(const redis::Reply &reply)
{
    const auto first = reply.element(0);
    if (!reply.isArray() || !first.ok() || !first->isString())
        return reply.unexpected(QStringLiteral("an array starting with the role's name"));
    const QByteArray name = first->bytes();
    NodeRole role;
    if (name == "master")
        return role;
    if (name == "sentinel") {
        role.kind = NodeRole::Kind::Sentinel;
        return role;
    }
    if (name != "slave" && name != "replica")
        return first->unexpected(QStringLiteral("master, slave or sentinel"));
    role.kind = NodeRole::Kind::Replica;
    const auto follows = address(reply.at(1), reply.at(2), QStringLiteral("the replica's primary"));
    if (!follows.ok())
        return follows.error();
    role.follows = follows.value();
    role.linkState = QString::fromUtf8(reply.at(3).bytes());
    return role;
}

bool ReplicaEntry::isDown() const
{
    return flags.contains(QLatin1String("s_down")) || flags.contains(QLatin1String("o_down"))
           || flags.contains(QLatin1String("disconnected"));
}

redis::Decoded<QList<ReplicaEntry>> decodeReplicas(const redis::Reply &reply)
{
    const auto entries = reply.array();
    if (!entries.ok())
        return entries.error();
    QList<ReplicaEntry> out;
    for (const redis::Reply &entry : entries.value()) {
        if (!entry.isArray() || entry.size() % 2 != 0)
            return entry.unexpected(QStringLiteral("a replica's field and value pairs"));
        const redis::Reply *ip = nullptr, *portReply = nullptr;
        ReplicaEntry replica;
        for (qsizetype i = 0; i + 1 < entry.size(); i += 2) {
            const QByteArray field = entry.at(i).bytes();
            if (field == "ip")
                ip = &entry.at(i + 1);
            else if (field == "port")
                portReply = &entry.at(i + 1);
            else if (field == "flags")
                replica.flags = QString::fromUtf8(entry.at(i + 1).bytes()).split(QLatin1Char(','));
        }
        if (!ip || !portReply)
            return entry.unexpected(QStringLiteral("a replica with an ip and a port"));
        const auto a = address(*ip, *portReply, QStringLiteral("a replica"));
        if (!a.ok())
            return a.error();
        replica.address = a.value();
        out << replica;
    }
    return out;
}

std::optional<SwitchMaster> parseSwitchMaster(const QByteArray &payload)
{
    const QList<QByteArray> f = payload.split(' ');
    if (f.size() != 5)
        return std::nullopt;
    const auto fromPort = port(f[2]), toPort = port(f[4]);
    if (f[0].isEmpty() || f[1].isEmpty() || f[3].isEmpty() || !fromPort || !toPort)
        return std::nullopt;
    return SwitchMaster{QString::fromUtf8(f[0]),
                        {QString::fromUtf8(f[1]), *fromPort},
                        {QString::fromUtf8(f[3]), *toPort}};
}

} // namespace sentinel
