// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/ClusterRouter.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

namespace overview {

// Which primaries of a cluster are up, for the status bar: watches the router's topology and
// the connection to every primary. A primary is down when its connection is not ready, or
// when the cluster itself says it failed. On a standalone server it says nothing.
class ClusterHealth : public QObject
{
    Q_OBJECT
public:
    // The router is not owned and must outlive this object.
    explicit ClusterHealth(redis::ClusterRouter &router, QObject *parent = nullptr);

    bool isCluster() const { return m_router.isCluster(); }
    int primaryCount() const;
    // host:port of each primary that is down, in topology order.
    QStringList downPrimaries() const;
    // "cluster, 3 primaries" / "cluster, 3 primaries, 1 down: 127.0.0.1:7002"; empty when
    // standalone.
    QString summary() const;

signals:
    void changed();

private:
    void watchPrimaries();
    bool failedButAnswering() const;
    void recheckWhileFailed();

    redis::ClusterRouter &m_router;
    // The cluster clears a primary's FAIL flag only some node timeouts after it answers again;
    // until the topology says so, it is read again on this timer rather than the router's 30 s.
    QTimer m_recheck;
};

} // namespace overview
