// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterHealth.h"

namespace overview {

namespace {
constexpr int RecheckMs = 2000;

bool markedFailed(const redis::ClusterNode &n)
{
    return n.health.compare(QLatin1String("failed"), Qt::CaseInsensitive) == 0
           || n.health.compare(QLatin1String("fail"), Qt::CaseInsensitive) == 0;
}
} // namespace

ClusterHealth::ClusterHealth(redis::ClusterRouter &router, QObject *parent)
    : QObject(parent)
    , m_router(router)
{
    m_recheck.setInterval(RecheckMs);
    connect(&m_recheck, &QTimer::timeout, this, [this] {
        if (failedButAnswering())
            m_router.refreshTopology();
        else
            m_recheck.stop();
    });
    connect(&m_router, &redis::ClusterRouter::topologyChanged, this, [this] {
        watchPrimaries();
        emit changed();
    });
    connect(this, &ClusterHealth::changed, this, &ClusterHealth::recheckWhileFailed);
    watchPrimaries();
}

bool ClusterHealth::failedButAnswering() const
{
    if (!m_router.isCluster())
        return false;
    for (int i : m_router.topology().primaries())
        if (markedFailed(m_router.topology().nodes().at(i))
            && m_router.node(i).state() == redis::ConnectionState::Ready)
            return true;
    return false;
}

void ClusterHealth::recheckWhileFailed()
{
    if (!m_recheck.isActive() && failedButAnswering())
        m_recheck.start();
}

void ClusterHealth::watchPrimaries()
{
    if (!m_router.isCluster())
        return;
    // A primary the router has not needed yet gets its connection now: a node nobody
    // connected to cannot be said to be up.
    for (int i : m_router.topology().primaries())
        connect(&m_router.node(i), &redis::RedisClient::stateChanged, this, &ClusterHealth::changed,
                Qt::UniqueConnection);
}

int ClusterHealth::primaryCount() const
{
    return m_router.isCluster() ? int(m_router.topology().primaries().size()) : 0;
}

QStringList ClusterHealth::downPrimaries() const
{
    QStringList down;
    if (!m_router.isCluster())
        return down;
    const redis::ClusterTopology &t = m_router.topology();
    for (int i : t.primaries()) {
        const redis::ClusterNode &n = t.nodes().at(i);
        if (markedFailed(n) || m_router.node(i).state() != redis::ConnectionState::Ready)
            down << n.address();
    }
    return down;
}

QString ClusterHealth::summary() const
{
    if (!m_router.isCluster())
        return {};
    QString text = tr("cluster, %n primaries", nullptr, primaryCount());
    const QStringList down = downPrimaries();
    if (!down.isEmpty())
        text += tr(", %1 down: %2").arg(down.size()).arg(down.join(QStringLiteral(", ")));
    return text;
}

} // namespace overview
