// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AuditLog.h"
#include "DeductionRequest.h"
#include "KeySchema.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

namespace redis {
class TopologySource;
}

namespace inventory {

// Where a command on one cluster slot goes.
struct SlotNode
{
    bool cluster = false; // false: a standalone server (or not known to be a cluster)
    QString address;      // the slot's owner, "host:port"; empty when the topology lacks it
};

// What a deduction needs to know about the session it runs in. The GUI builds it from the
// connection profile, the CLI from its options.
struct DeductionContext
{
    KeySchema schema;                                    // the profile's key templates
    qint64 defaultTtlSeconds = DefaultReceiptTtlSeconds; // the profile's receipt TTL
    QString profileName;                                 // recorded in the audit log
    QString serverAddress; // host:port of the server (on a cluster: the seed)
    QString auditLogPath = AuditLog::defaultPath(); // shared by the GUI and the CLI
    int timeoutMs = 5000; // the write's timeout; no reply by then is "outcome unknown"
    // redis-cli options reaching the same server, for "Copy as redis-cli command"
    // (see redisCliConnectionArgs); empty: -h/-p from serverAddress.
    QStringList redisCliArgs;
    // On a cluster the seed is not the node that runs a deduction: this names the owner of a
    // slot from the topology the session's routers hold. Unset: a standalone server.
    std::function<SlotNode(int slot)> nodeForSlot;

    QStringList effectiveRedisCliArgs() const;
    // The node that runs a command on `slot`, for confirmations and the audit record: the
    // slot's owner on a cluster (a sentence when the topology lacks it), else serverAddress.
    QString serverFor(int slot) const;
    // redis-cli options reaching serverFor(slot); on a cluster with -c.
    QStringList redisCliArgsFor(int slot) const;
};

// The node that runs a command on `slot`: the slot's owner on a cluster (a sentence when the
// topology lacks it), else `standalone`. One rule for confirmations and audit records.
QString serverForSlot(const std::function<SlotNode(int slot)> &nodeForSlot,
                      const QString &standalone, int slot);

// A nodeForSlot over a session's topology (every lane's, a MOVED any lane followed included).
// Not known to be a cluster until it has been read.
std::function<SlotNode(int slot)> slotOwnerLookup(const redis::TopologySource &topology);

} // namespace inventory
