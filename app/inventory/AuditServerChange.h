// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QString>

namespace inventory {

// What the console read lately about the server at one address: the run_id it answers with
// and when that process started (INFO server's uptime taken from the time of the read).
struct ServerNow
{
    QString runId;
    QDateTime startedUtc;
};
// By address as audit records name their server (host:port).
using ServersNow = QHash<QString, ServerNow>;

// When a write recorded on `runId` at `server` (at `timeMs`, UTC) was answered by a process
// that no longer answers there: one sentence saying what changed and what it means for the
// receipts written before. Empty when either run_id is unknown or they are the same: the
// console says nothing it did not read.
QString serverChangeSince(const QString &server, const QString &runId, qint64 timeMs,
                          const ServersNow &now);

} // namespace inventory
