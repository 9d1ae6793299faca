// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace overview {

// A standalone server's replication group as INFO replication tells it: the replicas a
// primary feeds, or the primary a replica follows. (On a cluster CLUSTER SHARDS says this.)
struct ReplicationGroup
{
    struct Member
    {
        QString host; // as the server knows it (replica-announce-ip, else the peer address)
        quint16 port = 0;
        // A replica's state ("online", "wait_bgsave", ...); the link to a primary ("up").
        QString state;
        QString address() const; // host:port, [v6]:port
    };
    bool isReplica = false;
    Member primary;         // when isReplica
    QList<Member> replicas; // when a primary
    // master_replid: a primary's replication id, which each replica in sync with it shares.
    // Two members of one group have the same id, so it tells a server reached at a named
    // address from another that happens to answer there (the server's own loopback, a NAT).
    QByteArray replicationId;
    QByteArray runId; // INFO server's run_id, when that section was asked for: who answered
};

// INFO replication's text; an error names the line that is not what Redis writes.
core::Result<ReplicationGroup, QString> decodeReplicationGroup(const QByteArray &info);

} // namespace overview
