// SPDX-License-Identifier: GPL-3.0-or-later
#include "OrderAuditNote.h"

#include "inventory/AuditIndex.h"

#include <QCoreApplication>

namespace browse {

namespace {

// In the installed translator's language: the window's; the CLI installs none (English).
struct OrderAuditNoteText
{
    Q_DECLARE_TR_FUNCTIONS(browse::OrderAuditNote)
};

// True when some server read now answers with this run_id; nullopt when none could be read.
std::optional<bool> stillUp(const QString &runId, const QList<ServerEvidence> &servers)
{
    bool anyKnown = false;
    for (const ServerEvidence &s : servers) {
        if (!s.known())
            continue;
        anyKnown = true;
        if (s.runId == runId)
            return true;
    }
    return anyKnown ? std::optional<bool>(false) : std::nullopt;
}

} // namespace

QString orderAuditNote(const QList<inventory::AuditRecord> &records, const QByteArray &orderId,
                       const QList<ServerEvidence> &servers)
{
    const QString order = QString::fromUtf8(orderId);
    const inventory::AuditRecord *last = nullptr;
    for (const inventory::AuditRecord &r : records)
        if (r.action == QLatin1String("deduct") && inventory::auditKeys(r).order == order)
            last = &r;
    if (!last)
        return OrderAuditNoteText::tr(
            "This console's audit log has no deduction of this order (another "
            "client may have run it).");
    const QString when = last->timeUtc.toString(Qt::ISODate);
    const QString id = last->runId.left(8);
    if (last->result.startsWith(QLatin1String("deducted"))) {
        const std::optional<bool> up =
            last->runId.isEmpty() ? std::nullopt : stillUp(last->runId, servers);
        if (up && *up)
            return OrderAuditNoteText::tr(
                       "This console's audit log says it deducted this order at %1 on "
                       "the server with run_id %2, which still answers: the receipt "
                       "has expired or was evicted since. The order did happen: a "
                       "retry deducts it again.")
                .arg(when, id);
        if (up)
            return OrderAuditNoteText::tr(
                       "This console's audit log says it deducted this order at %1 on "
                       "a server with run_id %2, and no server answers with that "
                       "run_id now: it restarted or failed over, and the receipt was "
                       "lost with it. The order did happen: a retry deducts it again.")
                .arg(when, id);
        return OrderAuditNoteText::tr(
                   "This console's audit log says it deducted this order at %1. The "
                   "order did happen: a retry deducts it again.")
            .arg(when);
    }
    if (last->result.startsWith(QLatin1String("not sent")))
        return OrderAuditNoteText::tr(
                   "This console's last attempt at this order, at %1, was never sent: "
                   "that attempt did not happen (another client may still have run "
                   "it).")
            .arg(when);
    if (last->outcomeUnknown)
        return OrderAuditNoteText::tr(
                   "The outcome of this console's last attempt at this order, at %1, "
                   "is unknown: it may have run.")
            .arg(when);
    return OrderAuditNoteText::tr("This console's last record of this order, at %1: %2.")
        .arg(when, last->result);
}

} // namespace browse
