#pragma once

// The ChangeContext the functions tests give a LibraryChange: one standalone node read through
// `client` (and changed through `loader` when set), its environment guard, a backup directory
// and an audit log inside the test's temporary directory.
#include "functions/ChangePlan.h"
#include "redis/RedisClient.h"

#include <QTemporaryDir>

namespace testsupport {

inline functions::ChangeContext singleNodeContext(redis::RedisClient &client, gate::WriteGate *gate,
                                                  const QTemporaryDir &dir, const QString &profile,
                                                  redis::CommandSender *loader = nullptr)
{
    functions::ChangeContext c;
    c.nodes << functions::ChangeTarget{client.address(), &client, loader};
    c.gate = gate;
    c.profile = profile;
    c.backupDirectory = dir.filePath(QStringLiteral("backups"));
    c.auditPath = dir.filePath(QStringLiteral("audit.jsonl"));
    return c;
}

} // namespace testsupport
