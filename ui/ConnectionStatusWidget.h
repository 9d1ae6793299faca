// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "overview/ServerOverview.h"
#include "profiles/Environment.h"
#include "redis/ConnectionOptions.h"

#include <QWidget>

class QLabel;

namespace ui {

// The status bar's contents: environment badge, connection state (with the transport's
// detail while connecting or reconnecting), ACL user, address and TLS, the SSH route when
// there is one, server version, mode and role, and on the right the last background activity.
class ConnectionStatusWidget : public QWidget
{
    Q_OBJECT
public:
    // The SSH tunnel a session goes through, as far as the session has said.
    enum class Tunnel { Up, Closed, Reopening, Failed };

    explicit ConnectionStatusWidget(QWidget *parent = nullptr);

    void setEnvironment(profiles::Environment env);
    // "support@redis-staging:6380 · TLS": who the session is and whether the line is
    // encrypted matter as much as where it goes.
    void setAddress(const QString &address, const QString &user = {}, bool tls = false);
    void setConnectionState(redis::ConnectionState state, const QString &detail);
    void setServer(const overview::ServerOverview &overview);
    void setActivity(const QString &text);
    // "via SSH ops@bastion:22", and what became of the tunnel: closed under the session
    // (commands in flight have an unknown outcome), being reopened, or not reopened (`why`).
    // While it is not up the connection state says "Not connected" and the server's facts
    // (read through it) are hidden.
    void setTunnel(Tunnel state, const QString &bastion, const QString &why = {});
    // Behind Sentinel: the master followed and the sentinels' last word on it, in a colour
    // that says whether it needs a look (a move, a primary not confirmed); `tip` says more.
    enum class SentinelNews { Following, Moved, NotConfirmed };
    void setSentinel(SentinelNews news, const QString &text, const QString &tip);
    // On a cluster: "cluster, 3 primaries" in place of the seed's mode and role, and the
    // primaries that are down, in the error colour. Empty summary: standalone, as before.
    void setCluster(const QString &summary, const QStringList &downPrimaries);

private:
    void showState(const QColor &colour, const QString &text);

    QLabel *m_badge;
    QLabel *m_state;
    QLabel *m_address;
    QLabel *m_tunnel;
    QLabel *m_sentinel;
    QLabel *m_version;
    QLabel *m_mode;
    QLabel *m_role;
    QLabel *m_activity;
    QWidget *m_serverFacts = nullptr; // version, mode and role
    redis::ConnectionState m_lastState = redis::ConnectionState::Idle;
    QString m_lastDetail;
    bool m_tunnelDown = false;
    QString m_cluster; // the cluster summary; empty when standalone
    bool m_clusterDown = false;
};

} // namespace ui
