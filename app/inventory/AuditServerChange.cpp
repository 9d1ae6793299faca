// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditServerChange.h"

namespace inventory {

QString serverChangeSince(const QString &server, const QString &runId, qint64 timeMs,
                          const ServersNow &now)
{
    const auto found = now.constFind(server);
    if (runId.isEmpty() || found == now.cend() || found->runId.isEmpty() || found->runId == runId)
        return {};
    const QString since =
        found->startedUtc.isValid()
            ? found->startedUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
            : QString();
    // A process that started after the write is a restart (or a failover to a server that
    // restarted since); one that was already running took the address over: a failover, or
    // another server now listens there.
    if (found->startedUtc.isValid() && found->startedUtc.toMSecsSinceEpoch() > timeMs)
        return QStringLiteral("The server at %1 restarted or failed over after this write: it now "
                              "answers with run_id %2, started %3 UTC. Without persistence that "
                              "kept them, the receipts written before are gone.")
            .arg(server, found->runId.left(8), since);
    return QStringLiteral("The server at %1 now answers with another run_id (%2%3): a failover, "
                          "or another server took that address after this write. Receipts it "
                          "did not replicate are gone.")
        .arg(server, found->runId.left(8),
             since.isEmpty() ? QString() : QStringLiteral(", running since %1 UTC").arg(since));
}

} // namespace inventory
