// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelWatcher.h"

#include "redis/Subscriber.h"

#include <QLoggingCategory>

namespace sentinel {

namespace {
Q_LOGGING_CATEGORY(lcSentinel, "console.sentinel")
}

SentinelWatcher::SentinelWatcher(ResolverConfig config, NodeAddress primary, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_primary(std::move(primary))
{
    m_resolver = new SentinelResolver(m_config, this);
    connect(m_resolver, &SentinelResolver::resolved, this, [this](const Resolution &r) {
        moveTo(r.primary);
        emit reresolved(r);
    });
    connect(m_resolver, &SentinelResolver::failed, this, &SentinelWatcher::reresolveFailed);
}

SentinelWatcher::~SentinelWatcher() = default;

void SentinelWatcher::start()
{
    if (!m_subscribers.empty())
        return;
    for (const NodeAddress &sentinel : std::as_const(m_config.sentinels)) {
        redis::ConnectionOptions options = m_config.sentinelOptions;
        options.host = sentinel.host;
        options.port = sentinel.port;
        options.database = 0;
        options.autoReconnect = true;
        auto *s = new redis::Subscriber(options, {"+switch-master"}, this);
        connect(s, &redis::Subscriber::subscribed, this,
                [this, sentinel] { emit subscriptionChanged(sentinel, true, {}); });
        connect(s, &redis::Subscriber::lost, this, [this, sentinel](const QString &why, bool) {
            emit subscriptionChanged(sentinel, false, why);
        });
        connect(s, &redis::Subscriber::message, this,
                [this, sentinel](const QByteArray &, const QByteArray &payload) {
                    onSwitch(sentinel, payload);
                });
        m_subscribers.push_back(s);
        s->open();
    }
}

int SentinelWatcher::subscribedCount() const
{
    return int(std::count_if(m_subscribers.begin(), m_subscribers.end(),
                             [](const redis::Subscriber *s) { return s->isSubscribed(); }));
}

void SentinelWatcher::onSwitch(const NodeAddress &sentinel, const QByteArray &payload)
{
    const auto message = parseSwitchMaster(payload);
    if (!message) {
        qCWarning(lcSentinel) << "unreadable +switch-master from" << sentinel.toString();
        return;
    }
    if (message->masterName != m_config.masterName)
        return; // another master the same sentinels watch
    qCInfo(lcSentinel) << sentinel.toString() << "announced" << message->masterName << "moved from"
                       << message->from.toString() << "to" << message->to.toString();
    moveTo(message->to);
}

void SentinelWatcher::moveTo(const NodeAddress &to)
{
    if (to == m_primary)
        return; // the other sentinels repeat what the first one said
    const NodeAddress from = m_primary;
    m_primary = to;
    emit primaryMoved(from, to, QDateTime::currentDateTime());
}

void SentinelWatcher::reresolve(const QString &why)
{
    qCInfo(lcSentinel) << "asking the sentinels again for" << m_config.masterName
                       << "after:" << why;
    m_resolver->resolve();
}

} // namespace sentinel
