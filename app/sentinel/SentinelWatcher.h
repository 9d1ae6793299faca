// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SentinelResolver.h"

#include <QDateTime>
#include <QObject>
#include <memory>
#include <vector>

namespace redis {
class Subscriber;
}

namespace sentinel {

// Follows the primary of one master name after a failover. It subscribes to +switch-master
// on every sentinel (redis::Subscriber, one connection each, reconnecting by itself) and
// reports a move once, whichever sentinel says it first; and it re-resolves on demand, for a
// caller that saw READONLY or lost its connection (the sentinels' message can be missed: a
// sentinel restarting, a subscription not yet up).
//
// It never touches a caller's connections and never resends anything: a command in flight
// on the old primary during a failover stays what its connection said (outcome unknown when
// no reply came). Moving the caller's work to the new primary is the caller's decision.
class SentinelWatcher : public QObject
{
    Q_OBJECT
public:
    // `primary`: the primary the caller is using now (from a SentinelResolver).
    SentinelWatcher(ResolverConfig config, NodeAddress primary, QObject *parent = nullptr);
    ~SentinelWatcher() override;

    void start();
    NodeAddress primary() const { return m_primary; }
    const ResolverConfig &config() const { return m_config; }
    // How many sentinels' subscriptions are up.
    int subscribedCount() const;

    // Asks the sentinels again and confirms with ROLE; `why` is what the caller saw
    // ("READONLY from 127.0.0.1:7001"), kept for the log. Ends with reresolved() or
    // reresolveFailed(), and primaryMoved() first when the primary changed.
    void reresolve(const QString &why);

signals:
    // The primary moved from `from` to `to`; `when` is when the console heard of it.
    void primaryMoved(const sentinel::NodeAddress &from, const sentinel::NodeAddress &to,
                      const QDateTime &when);
    void reresolved(const sentinel::Resolution &resolution);
    void reresolveFailed(const sentinel::ResolveError &error);
    // A sentinel's subscription came up or was lost (`why` empty when up).
    void subscriptionChanged(const sentinel::NodeAddress &sentinel, bool up, const QString &why);

private:
    void onSwitch(const NodeAddress &sentinel, const QByteArray &payload);
    void moveTo(const NodeAddress &to);

    ResolverConfig m_config;
    NodeAddress m_primary;
    SentinelResolver *m_resolver = nullptr;
    std::vector<redis::Subscriber *> m_subscribers;
};

} // namespace sentinel
