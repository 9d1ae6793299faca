// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptPolicy.h"

#include <QStringList>

namespace reconcile {

QString durationText(qint64 ms, core::Wording wording)
{
    // QT_TRANSLATE_NOOP names them for lupdate: a free function has no tr() context.
    const auto say = [wording](const char *source) {
        return core::word(wording, "reconcile::ReceiptPolicy", source);
    };
    const qint64 s = ms / 1000;
    if (s >= 2 * 86400 && s % 3600 == 0)
        return say(QT_TRANSLATE_NOOP("reconcile::ReceiptPolicy", "%1 days"))
            .arg(double(s) / 86400, 0, 'g', 3);
    if (s >= 2 * 3600)
        return say(QT_TRANSLATE_NOOP("reconcile::ReceiptPolicy", "%1 h")).arg(s / 3600);
    if (s >= 120)
        return say(QT_TRANSLATE_NOOP("reconcile::ReceiptPolicy", "%1 min")).arg(s / 60);
    return say(QT_TRANSLATE_NOOP("reconcile::ReceiptPolicy", "%1 s")).arg(s);
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

QString ReceiptPolicy::sentence(core::Wording wording) const
{
    // Named tr so that lupdate finds the sentences in this class's context.
    const auto tr = [wording](const char *source) {
        return core::word(wording, "reconcile::ReceiptPolicy", source);
    };
    const QString ttl = durationText(ttlSeconds * 1000, wording);
    if (!evictionKnown()) {
        QString why = tr("no server was read");
        for (const browse::ServerEvidence &e : nodes)
            if (!e.known() || e.evictionPolicy.isEmpty()) {
                why = e.known() ? tr("INFO has no maxmemory_policy") : e.readError;
                break;
            }
        return tr("Receipts are written to live %1 (the profile's receipt TTL), so one older than "
                  "that has expired; could not read the eviction policy (%2), so whether one was "
                  "evicted sooner is not proven.")
            .arg(ttl, why);
    }
    QStringList policies;
    bool possible = false;
    for (const browse::ServerEvidence &e : nodes) {
        if (!policies.contains(e.evictionPolicy))
            policies << e.evictionPolicy;
        possible = possible || e.evictionPossible();
    }
    const QString where = nodes.size() == 1 ? tr("the server") : tr("the primaries");
    const QString policy = policies.join(QLatin1String(", "));
    if (possible)
        return tr("Receipts are written to live %1 (the profile's receipt TTL), so one older than "
                  "that has expired; the eviction policy on %2 is %3: once maxmemory is reached "
                  "it can remove a receipt sooner.")
            .arg(ttl, where, policy);
    if (policies == QStringList{QStringLiteral("noeviction")})
        return tr("Receipts are written to live %1 (the profile's receipt TTL), so one older than "
                  "that has expired; the eviction policy on %2 is noeviction: it never removes a "
                  "receipt sooner.")
            .arg(ttl, where);
    // Not possible and not noeviction everywhere: maxmemory is 0 (ServerEvidence).
    return tr("Receipts are written to live %1 (the profile's receipt TTL), so one older than "
              "that has expired; the eviction policy on %2 is %3 but no maxmemory is set: "
              "nothing is evicted.")
        .arg(ttl, where, policy);
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
