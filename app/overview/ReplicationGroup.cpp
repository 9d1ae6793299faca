// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplicationGroup.h"

#include "ServerOverview.h"

#include <optional>

namespace overview {

namespace {

std::optional<quint16> portOf(const QByteArray &text)
{
    bool ok = false;
    const uint port = text.toUInt(&ok);
    if (!ok || port == 0 || port > 65535)
        return std::nullopt;
    return quint16(port);
}

// "ip=10.0.0.5,port=6379,state=online,offset=1234,lag=0"
core::Result<ReplicationGroup::Member, QString> replicaLine(const QByteArray &name,
                                                            const QByteArray &line)
{
    QHash<QByteArray, QByteArray> fields;
    for (const QByteArray &pair : line.split(',')) {
        const qsizetype eq = pair.indexOf('=');
        if (eq > 0)
            fields.insert(pair.left(eq), pair.mid(eq + 1));
    }
    const auto port = portOf(fields.value("port"));
    if (fields.value("ip").isEmpty() || !port)
        return QStringLiteral("INFO replication: %1 has no ip and port: \"%2\"")
            .arg(QString::fromLatin1(name), QString::fromUtf8(line.left(200)));
    return ReplicationGroup::Member{QString::fromUtf8(fields.value("ip")), *port,
                                    QString::fromUtf8(fields.value("state"))};
}

} // namespace

QString ReplicationGroup::Member::address() const
{
    const QString h =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return h + QLatin1Char(':') + QString::number(port);
}

core::Result<ReplicationGroup, QString> decodeReplicationGroup(const QByteArray &info)
{
    const QHash<QByteArray, QByteArray> fields = parseInfo(info);
    const QByteArray role = fields.value("role");
    if (role != "master" && role != "slave")
        return QStringLiteral("INFO replication: no role line (role:%1)")
            .arg(QString::fromUtf8(role.left(40)));
    ReplicationGroup group;
    group.replicationId = fields.value("master_replid");
    group.runId = fields.value("run_id");
    if (group.replicationId.isEmpty())
        return QStringLiteral("INFO replication: no master_replid line");
    if (role == "slave") {
        const auto port = portOf(fields.value("master_port"));
        if (fields.value("master_host").isEmpty() || !port)
            return QStringLiteral("INFO replication: a replica without master_host and "
                                  "master_port");
        group.isReplica = true;
        group.primary = {QString::fromUtf8(fields.value("master_host")), *port,
                         QString::fromUtf8(fields.value("master_link_status"))};
        return group;
    }
    bool ok = false;
    const int count = fields.value("connected_slaves").toInt(&ok);
    if (!ok || count < 0)
        return QStringLiteral("INFO replication: connected_slaves is not a count");
    for (int i = 0; i < count; ++i) {
        const QByteArray name = "slave" + QByteArray::number(i);
        if (!fields.contains(name))
            return QStringLiteral("INFO replication: connected_slaves:%1 but no %2 line")
                .arg(count)
                .arg(QString::fromLatin1(name));
        auto member = replicaLine(name, fields.value(name));
        if (!member)
            return member.error();
        group.replicas << member.value();
    }
    return group;
}

} // namespace overview
