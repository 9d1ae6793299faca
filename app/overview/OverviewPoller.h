// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ServerOverview.h"

#include <QDateTime>
#include <QObject>

class QTimer;

namespace overview {

// Keeps a ServerOverview fresh: one fetch (a single round trip) every interval and on demand.
// Never waits: results arrive as signals on this object's thread. A timer tick while a fetch
// is still out is skipped; an explicit refresh supersedes it, and the older answer is dropped
// by its generation number.
class OverviewPoller : public QObject
{
    Q_OBJECT
public:
    explicit OverviewPoller(redis::CommandSender &sender, QObject *parent = nullptr);

    // The ACL user the sender's connection authenticates as, named in the overview (e.g.
    // when a read is not allowed for it).
    void setUser(const QString &user) { m_user = user; }
    void setInterval(int ms);
    int interval() const;
    void start(); // fetches now, then every interval
    void stop();
    void refreshNow();
    bool isFetching() const { return m_inFlight != 0; }
    QDateTime lastSuccess() const { return m_lastSuccess; }

signals:
    void fetchStarted();
    void refreshed(const overview::ServerOverview &overview);
    void failed(const redis::RedisError &error);

private:
    void fetch();

    redis::CommandSender &m_sender;
    QTimer *m_timer;
    quint64 m_generation = 0;
    quint64 m_inFlight = 0; // generation of the fetch still out, 0 if none
    QDateTime m_lastSuccess;
    QString m_user;
};

} // namespace overview
