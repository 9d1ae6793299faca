// SPDX-License-Identifier: GPL-3.0-or-later
#include "NodeOverviews.h"

#include <QCoreApplication>

#include <algorithm>

namespace overview {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("overview::NodeOverview", text);
}
} // namespace

QString NodeOverview::roleLabel() const
{
    if (node.primary)
        return tr("primary");
    return primaryAddress.isEmpty() ? tr("replica") : tr("replica of %1").arg(primaryAddress);
}

QString NodeOverview::slotRangesText() const
{
    if (!node.primary)
        return {};
    QStringList parts;
    for (const redis::SlotRange &r : node.ranges)
        parts << (r.first == r.last ? QString::number(r.first)
                                    : QStringLiteral("%1-%2").arg(r.first).arg(r.last));
    return parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(", "));
}

void fetchNodeOverviews(redis::ClusterRouter &router, QObject *context,
                        std::function<void(const QList<NodeOverview> &)> cb, int timeoutMs)
{
    if (!router.isCluster()) {
        cb({});
        return;
    }
    struct Gather
    {
        QList<NodeOverview> rows;
        int remaining = 0;
        std::function<void(const QList<NodeOverview> &)> cb;
    };
    auto g = std::make_shared<Gather>();
    g->cb = std::move(cb);
    const QList<redis::ClusterNode> &nodes = router.topology().nodes();
    for (const redis::ClusterNode &n : nodes) {
        NodeOverview row;
        row.node = n;
        if (!n.primary)
            for (const redis::ClusterNode &p : nodes)
                if (p.id == n.primaryId)
                    row.primaryAddress = p.address();
        g->rows << row;
    }
    g->remaining = int(nodes.size());
    // The code names the release (its "-- version:" line); the overview's plain FUNCTION
    // LIST cannot.
    QList<redis::Command> commands = overviewCommands();
    commands.last() = {"FUNCTION", "LIST", "WITHCODE"};
    for (int i = 0; i < nodes.size(); ++i) {
        redis::RedisClient &client = router.node(i);
        client.sendBatch(
            commands, context,
            [g, i, address = client.address()](const QList<redis::ReplyResult> &r) {
                auto o = decodeOverview(r);
                if (o.ok()) {
                    g->rows[i].overview = o.value();
                    g->rows[i].overview->address = address;
                } else {
                    g->rows[i].error = o.error().readFailure().text;
                }
                if (--g->remaining > 0)
                    return;
                // Primaries by address, each followed by its replicas: the order a reader
                // looks for, not the cluster's hash order.
                const auto group = [](const NodeOverview &n) {
                    return std::make_tuple(n.node.primary ? n.node.address() : n.primaryAddress,
                                           n.node.primary ? 0 : 1, n.node.address());
                };
                std::stable_sort(g->rows.begin(), g->rows.end(),
                                 [&](const NodeOverview &a, const NodeOverview &b) {
                                     return group(a) < group(b);
                                 });
                g->cb(g->rows);
            },
            timeoutMs);
    }
}

} // namespace overview
