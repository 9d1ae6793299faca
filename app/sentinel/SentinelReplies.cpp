// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelReplies.h"

namespace sentinel {

namespace {

// What a sentinel's reply should have been, for the error that names what came instead.
core::Sentence said(const char *source)
{
    return core::Sentence::translated("sentinel::SentinelReplies", source);
}

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
                                    const core::Sentence &what)
{
    const auto h = host.string();
    const auto p = portReply.number();
    if (!h.ok() || h->isEmpty())
        return host.unexpected(
            said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "a host for %1")).arg(what));
    if (!p.ok() || !port(QByteArray::number(p.value())))
        return portReply.unexpected(
            said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "a port from 1 to 65535 for %1"))
                .arg(what));
    return NodeAddress{QString::fromUtf8(h.value()), quint16(p.value())};
}

// The value of `name` in a flat [field, value, ...] array (RESP2's map), or null.
const redis::Reply *field(const redis::Reply &pairs, const char *name)
{
    for (qsizetype i = 0; i + 1 < pairs.size(); i += 2)
        if (pairs.at(i).bytes() == name)
            return &pairs.at(i + 1);
    return nullptr;
}

} // namespace

redis::Decoded<std::optional<NodeAddress>> decodeMasterAddress(const redis::Reply &reply)
{
    if (reply.isNil())
        return std::optional<NodeAddress>();
    if (!reply.isArray() || reply.size() != 2)
        return reply.unexpected(said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies",
                                                       "nil or an array of a host and a port")));
    const auto a = address(reply.at(0), reply.at(1),
                           said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "the primary")));
    if (!a.ok())
        return a.error();
    return std::optional<NodeAddress>(a.value());
}

redis::Decoded<NodeRole> decodeRole(const redis::Reply &reply)
{
    const auto first = reply.element(0);
    if (!reply.isArray() || !first.ok() || !first->isString())
        return reply.unexpected(said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies",
                                                       "an array starting with the role's name")));
    const QByteArray name = first->bytes();
    NodeRole role;
    if (name == "master")
        return role;
    if (name == "sentinel") {
        role.kind = NodeRole::Kind::Sentinel;
        return role;
    }
    if (name != "slave" && name != "replica")
        return first->unexpected(
            said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "master, slave or sentinel")));
    role.kind = NodeRole::Kind::Replica;
    const auto follows =
        address(reply.at(1), reply.at(2),
                said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "the replica's primary")));
    if (!follows.ok())
        return follows.error();
    role.follows = follows.value();
    role.linkState = QString::fromUtf8(reply.at(3).bytes());
    return role;
}

redis::Decoded<MasterState> decodeMasterState(const redis::Reply &reply)
{
    if (!reply.isArray() || reply.size() % 2 != 0)
        return reply.unexpected(said(
            QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "the master's field and value pairs")));
    const redis::Reply *ip = field(reply, "ip"), *portReply = field(reply, "port"),
                       *epoch = field(reply, "config-epoch");
    if (!ip || !portReply || !epoch)
        return reply.unexpected(said(QT_TRANSLATE_NOOP(
            "sentinel::SentinelReplies", "a master with an ip, a port and a config-epoch")));
    const auto a = address(*ip, *portReply,
                           said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "the primary")));
    if (!a.ok())
        return a.error();
    const auto e = epoch->number();
    if (!e.ok() || e.value() < 0)
        return epoch->unexpected(
            said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "a config-epoch of 0 or more")));
    return MasterState{a.value(), e.value()};
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
            return entry.unexpected(said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies",
                                                           "a replica's field and value pairs")));
        const redis::Reply *ip = field(entry, "ip"), *portReply = field(entry, "port");
        ReplicaEntry replica;
        if (const redis::Reply *flags = field(entry, "flags"))
            replica.flags = QString::fromUtf8(flags->bytes()).split(QLatin1Char(','));
        if (!ip || !portReply)
            return entry.unexpected(said(
                QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "a replica with an ip and a port")));
        const auto a = address(*ip, *portReply,
                               said(QT_TRANSLATE_NOOP("sentinel::SentinelReplies", "a replica")));
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
