// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptPolicy.h"

#include <QStringList>

namespace reconcile {

QString durationText(qint64 ms)
{
    const qint64 s = ms / 1000;
    if (s >= 2 * 86400 && s % 3600 == 0)
        return QStringLiteral("%1 days").arg(double(s) / 86400, 0, 'g', 3);
    if (s >= 2 * 3600)
        return QStringLiteral("%1 h").arg(s / 3600);
    if (s >= 120)
        return QStringLiteral("%1 min").arg(s / 60);
    return QStringLiteral("%1 s").arg(s);
}

bool ReceiptPolicy::evictionKnown() const
{
    if (nodes.isEmpty())
        return false;
    for (const browse::ServerEvidence &e : nodes)
        if (!e.known() || e.evictionPolicy.isEmpty())
            return false;
    return true;
}

QString ReceiptPolicy::sentence() const
{
    QString out = QStringLiteral("Receipts are written to live %1 (the profile's receipt TTL), so "
                                 "one older than that has expired")
                      .arg(durationText(ttlSeconds * 1000));
    if (!evictionKnown()) {
        QString why = QStringLiteral("no server was read");
        for (const browse::ServerEvidence &e : nodes)
            if (!e.known() || e.evictionPolicy.isEmpty()) {
                why = e.known() ? QStringLiteral("INFO has no maxmemory_policy") : e.readError;
                break;
            }
        return out
               + QStringLiteral("; could not read the eviction policy (%1), so whether one "
                                "was evicted sooner is not proven.")
                     .arg(why);
    }
    QStringList policies;
    bool possible = false;
    for (const browse::ServerEvidence &e : nodes) {
        if (!policies.contains(e.evictionPolicy))
            policies << e.evictionPolicy;
        possible = possible || e.evictionPossible();
    }
    const QString where =
        nodes.size() == 1 ? QStringLiteral("the server") : QStringLiteral("the primaries");
    const QString policy = policies.join(QLatin1String(", "));
    if (possible)
        return out
               + QStringLiteral("; the eviction policy on %1 is %2: once maxmemory is "
                                "reached it can remove a receipt sooner.")
                     .arg(where, policy);
    if (policies == QStringList{QStringLiteral("noeviction")})
        return out
               + QStringLiteral("; the eviction policy on %1 is noeviction: it never removes "
                                "a receipt sooner.")
                     .arg(where);
    // Not possible and not noeviction everywhere: maxmemory is 0 (ServerEvidence).
    return out
           + QStringLiteral("; the eviction policy on %1 is %2 but no maxmemory is set: "
                            "nothing is evicted.")
                 .arg(where, policy);
}

ReceiptPolicy readReceiptPolicy(redis::CommandSender &sender, qint64 ttlSeconds, int timeoutMs)
{
    ReceiptPolicy p;
    p.ttlSeconds = ttlSeconds;
    for (const redis::ScanNode &node : sender.scanNodes())
        p.nodes << browse::readEvidence(*node.sender, {}, timeoutMs);
    return p;
}

} // namespace reconcile
