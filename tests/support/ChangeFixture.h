// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ChangeContext the functions tests give a LibraryChange: its environment guard, a backup
// directory and an audit log inside the test's temporary directory, and for a standalone
// server its one node, read through `client` (and changed through `loader` when set).
#include "functions/ChangePlan.h"
#include "redis/RedisClient.h"

#include <QTemporaryDir>

namespace testsupport {

// No node yet: a cluster's nodes are its router's.
inline functions::ChangeContext changeContext(gate::WriteGate *gate, const QTemporaryDir &dir,
                                              const QString &profile)
{
    functions::ChangeContext c;
    c.gate = gate;
    c.profile = profile;
    c.backupDirectory = dir.filePath(QStringLiteral("backups"));
    c.auditPath = dir.filePath(QStringLiteral("audit.jsonl"));
    return c;
}

inline functions::ChangeContext singleNodeContext(redis::RedisClient &client, gate::WriteGate *gate,
                                                  const QTemporaryDir &dir, const QString &profile,
                                                  redis::CommandSender *loader = nullptr)
{
    functions::ChangeContext c = changeContext(gate, dir, profile);
    c.nodes << functions::ChangeTarget{client.address(), &client, loader};
    return c;
}

} // namespace testsupport
