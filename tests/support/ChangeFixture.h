// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ChangeContext the functions tests give a LibraryChange: its environment guard, a backup
// directory and an audit log inside the test's temporary directory, and for a standalone
// server its one node, read through `client` (and changed through `loader` when set).
#include "functions/ChangePlan.h"
#include "functions/LibraryChange.h"
#include "redis/RedisClient.h"

#include <QTemporaryDir>

#include <memory>

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

// A change taken through every step up to the confirmation: what is left is execute(). A
// step that does not pass is logged, not failed: the tests of refusals go on from there.
inline std::unique_ptr<functions::LibraryChange>
preparedChange(const functions::ChangeContext &context, const functions::ChangeSpec &spec,
               bool acknowledge = false)
{
    auto change = std::make_unique<functions::LibraryChange>(context, spec);
    change->fetchStateBlocking();
    const functions::PreflightReport p = change->preflightBlocking();
    if (!p.passed())
        qWarning("preflight refused: %s", qPrintable(p.refusal()));
    const auto b = change->backupBlocking();
    if (!b.ok())
        qWarning("backup failed: %s", qPrintable(b.error()));
    const QString why = change->confirm(spec.library, acknowledge);
    if (!why.isEmpty())
        qWarning("not confirmed: %s", qPrintable(why));
    return change;
}

} // namespace testsupport
