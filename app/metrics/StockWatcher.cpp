// SPDX-License-Identifier: GPL-3.0-or-later
#include "StockWatcher.h"

#include "core/Bytes.h"
#include "core/CanonicalInteger.h"
#include "redis/CommandSender.h"
#include "redis/ResultReads.h"

#include <QDateTime>
#include <QTimer>

namespace metrics {

StockWatcher::StockWatcher(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &StockWatcher::readNow);
}

size_t StockWatcher::capacity() const
{
    return size_t(qMax<qint64>(2, qint64(m_historySeconds) * 1000 / m_timer->interval()));
}

bool StockWatcher::watch(const QByteArray &sku, const QByteArray &stockKey)
{
    if (isWatched(sku))
        return false;
    m_watched.push_back(std::make_unique<Watched>(sku, stockKey, capacity()));
    ++m_generation; // a read in flight has one reply fewer than the list now has
    m_inFlight = false;
    emit watchListChanged();
    if (isRunning())
        readNow();
    return true;
}

void StockWatcher::unwatch(const QByteArray &sku)
{
    const auto it = std::find_if(m_watched.begin(), m_watched.end(),
                                 [&](const auto &w) { return w->sku == sku; });
    if (it == m_watched.end())
        return;
    m_watched.erase(it);
    ++m_generation;
    m_inFlight = false;
    emit watchListChanged();
}

bool StockWatcher::isWatched(const QByteArray &sku) const
{
    return std::any_of(m_watched.begin(), m_watched.end(),
                       [&](const auto &w) { return w->sku == sku; });
}

void StockWatcher::setInterval(int ms)
{
    m_timer->setInterval(qMax(100, ms));
    setHistorySeconds(m_historySeconds);
}

int StockWatcher::interval() const
{
    return m_timer->interval();
}

void StockWatcher::setHistorySeconds(int seconds)
{
    m_historySeconds = qMax(1, seconds);
    for (auto &w : m_watched)
        w->stock.setCapacity(capacity());
}

void StockWatcher::start()
{
    if (!m_timer->isActive())
        m_timer->start();
    readNow();
}

void StockWatcher::stop()
{
    m_timer->stop();
}

bool StockWatcher::isRunning() const
{
    return m_timer->isActive();
}

void StockWatcher::readNow()
{
    if (m_watched.empty() || m_inFlight)
        return;
    QList<redis::Command> gets;
    for (const auto &w : m_watched)
        gets << redis::Command{"GET", w->key};
    m_inFlight = true;
    const quint64 generation = m_generation;
    m_sender.sendBatch(
        gets, this,
        [this, generation](const QList<redis::ReplyResult> &replies) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (size_t i = 0; i < m_watched.size() && i < size_t(replies.size()); ++i) {
                Watched &w = *m_watched[i];
                const redis::ReplyResult &r = replies.at(qsizetype(i));
                if (r.ok() && r->isNil()) {
                    w.problem = tr("the stock key does not exist");
                    continue;
                }
                const auto text = redis::stringOf(r);
                if (!text) {
                    w.problem = text.error().readFailure().text;
                    continue;
                }
                const auto value = core::parseCanonicalInteger(*text);
                if (!value) {
                    w.problem = tr("not an integer: %1").arg(core::escapeBytes(*text, 40));
                    continue;
                }
                w.problem.clear();
                w.stock.append(now, double(*value));
            }
            emit sampled();
        },
        qMax(1000, m_timer->interval() * 5));
}

} // namespace metrics
