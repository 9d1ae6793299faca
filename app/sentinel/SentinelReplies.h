// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NodeAddress.h"
#include "redis/Reply.h"

#include <QStringList>
#include <optional>

// The sentinel's replies, decoded once into typed values; a reply of another shape is a
// Protocol error that says what came (redis::Reply's strict reads), never a default.
namespace sentinel {

// SENTINEL GET-MASTER-ADDR-BY-NAME: the address, or nullopt when the sentinel does not
// monitor that name (a nil reply).
redis::Decoded<std::optional<NodeAddress>> decodeMasterAddress(const redis::Reply &reply);

// SENTINEL MASTER <name>: where the sentinel says the primary is, and the configuration
// epoch of that belief (a failover raises it: of two sentinels that disagree, the one with the
// higher epoch has heard of the later failover).
struct MasterState
{
    NodeAddress address;
    qint64 configEpoch = 0;
};
redis::Decoded<MasterState> decodeMasterState(const redis::Reply &reply);

// ROLE, as the node itself says it.
struct NodeRole
{
    enum class Kind { Primary, Replica, Sentinel };
    Kind kind = Kind::Primary;
    NodeAddress follows; // a replica's primary
    QString linkState;   // a replica's: connect, connecting, sync, connected
};
redis::Decoded<NodeRole> decodeRole(const redis::Reply &reply);

// One entry of SENTINEL REPLICAS.
struct ReplicaEntry
{
    NodeAddress address; // as the sentinel announces it
    QStringList flags;   // "slave", "s_down", "o_down", "disconnected", ...
    // Down or disconnected as the sentinel sees it.
    bool isDown() const;
};
redis::Decoded<QList<ReplicaEntry>> decodeReplicas(const redis::Reply &reply);

// A +switch-master message: "<master-name> <old-ip> <old-port> <new-ip> <new-port>".
struct SwitchMaster
{
    QString masterName;
    NodeAddress from;
    NodeAddress to;
};
std::optional<SwitchMaster> parseSwitchMaster(const QByteArray &payload);

} // namespace sentinel
