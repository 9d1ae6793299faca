// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "overview/NodeOverviews.h"
#include "overview/ServerOverview.h"
#include "redis/RedisError.h"

#include <QDateTime>
#include <QWidget>

class QHBoxLayout;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace ui {

class ClusterNodesBox;
class LibraryTableModel;
class NoticeBanner;

// The central overview of one server: what it is, how long it has run, memory against its
// limit with the eviction policy (and a warning when eviction can drop receipts), key count,
// and the loaded function libraries. Shows what it is given; fetching is the window's job.
class ServerOverviewPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ServerOverviewPanel(QWidget *parent = nullptr);

    void setDatabase(int db);
    void setRefreshInterval(int ms);
    void setRefreshing(bool refreshing);
    void setOverview(const overview::ServerOverview &overview, const QDateTime &when);
    void setFetchError(const redis::RedisError &error);
    // The connection failed or was lost: says why (instead of waiting for a first answer
    // that cannot come) and offers Reconnect.
    void setConnectionProblem(const QString &detail);
    // The SSH tunnel under the session closed (why), or is back (empty): while it is down the
    // notice names it, not the transport's retries through it.
    void setTunnelProblem(const QString &why);

    // A cluster's nodes, one row each (an empty list hides the table: standalone). `seed` is
    // the node the cards describe.
    void setNodes(const QList<overview::NodeOverview> &nodes, const QString &seed);
    ClusterNodesBox *clusterNodes() const { return m_nodes; }

    LibraryTableModel *libraryModel() const { return m_libraryModel; }
    // The banner naming the reads the session's user may not run; empty when none.
    QString deniedText() const;
    // "The server behind this address restarted or was replaced ..." while it applies; empty
    // when the run_id has not changed since the first overview.
    QString identityText() const;
    // What the banner above says happened: a restart, or a move to another primary.
    overview::IdentityChange identityChange() const { return m_identityChange; }

signals:
    void reconnectRequested();

private:
    QHBoxLayout *createHeader();
    QHBoxLayout *createCards();
    QGroupBox *createLibraryBox();
    QString notAllowed(const overview::ServerOverview &o) const;
    void showServer(const overview::ServerOverview &o);
    void showMemory(const overview::ServerOverview &o);
    void showEvictionWarning(const overview::ServerOverview &o);
    void showLibraries(const overview::ServerOverview &o);
    void updateStamp();
    void showLibraryMessage(bool message);
    QLabel *value(const char *name);

    QLabel *m_stamp;
    NoticeBanner *m_error;
    QPushButton *m_reconnect;
    NoticeBanner *m_evictionWarning;
    NoticeBanner *m_denied;
    NoticeBanner *m_identity; // a restart or failover seen between two overviews
    overview::IdentityChange m_identityChange = overview::IdentityChange::None;
    overview::ServerOverview m_previous;
    QLabel *m_address;
    QLabel *m_version;
    QLabel *m_mode;
    QLabel *m_role;
    QLabel *m_uptime;
    QLabel *m_memoryUsed;
    QLabel *m_memoryLimit;
    QProgressBar *m_memoryBar;
    QLabel *m_policy;
    QLabel *m_keysLabel;
    QLabel *m_keys;
    QLabel *m_libraryCount;
    QTableView *m_libraries;
    QLabel *m_librariesMessage;
    LibraryTableModel *m_libraryModel;
    ClusterNodesBox *m_nodes;
    QDateTime m_lastUpdate;
    QString m_tunnelProblem;
    int m_intervalMs = 5000;
    bool m_refreshing = false;
};

} // namespace ui
