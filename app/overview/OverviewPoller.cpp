// SPDX-License-Identifier: GPL-3.0-or-later
#include "OverviewPoller.h"

#include <QTimer>

namespace overview {

OverviewPoller::OverviewPoller(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(5000);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (!isFetching())
            fetch();
    });
}

void OverviewPoller::setInterval(int ms)
{
    m_timer->setInterval(ms);
}

int OverviewPoller::interval() const
{
    return m_timer->interval();
}

void OverviewPoller::start()
{
    m_timer->start();
    refreshNow();
}

void OverviewPoller::stop()
{
    m_timer->stop();
    ++m_generation; // whatever is still out is no longer wanted
    m_inFlight = 0;
}

void OverviewPoller::refreshNow()
{
    fetch();
}

void OverviewPoller::fetch()
{
    const quint64 generation = ++m_generation;
    m_inFlight = generation;
    emit fetchStarted();
    fetchOverview(
        m_sender, this,
        [this, generation](const core::Result<ServerOverview, redis::RedisError> &r) {
            if (generation != m_generation)
                return; // superseded by a later refresh
            m_inFlight = 0;
            if (r.ok()) {
                m_lastSuccess = QDateTime::currentDateTime();
                emit refreshed(r.value());
            } else {
                emit failed(r.error());
            }
        },
        m_user);
}

} // namespace overview
