// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditServerChange.h"

#include <QCoreApplication>

namespace inventory {

namespace {
// The audit viewer's mark on a server column, in the window's language.
struct ServerChangeText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::AuditServerChange)
};
} // namespace

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
        return ServerChangeText::tr("The server at %1 restarted or failed over after this write: "
                                    "it now answers with run_id %2, started %3 UTC. Without "
                                    "persistence that kept them, the receipts written before "
                                    "are gone.")
            .arg(server, found->runId.left(8), since);
    if (since.isEmpty())
        return ServerChangeText::tr("The server at %1 now answers with another run_id (%2): a "
                                    "failover, or another server took that address after this "
                                    "write. Receipts it did not replicate are gone.")
            .arg(server, found->runId.left(8));
    return ServerChangeText::tr("The server at %1 now answers with another run_id (%2, running "
                                "since %3 UTC): a failover, or another server took that address "
                                "after this write. Receipts it did not replicate are gone.")
        .arg(server, found->runId.left(8), since);
}

} // namespace inventory
