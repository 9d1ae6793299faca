// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "TimeSeries.h"

#include <QObject>
#include <memory>
#include <vector>

class QTimer;

namespace redis {
class CommandSender;
}

namespace metrics {

// The stock of SKUs the user watches, read every interval with one batch of GETs (the sender
// routes each GET to its node on a cluster). A stock that is missing or not an integer leaves a
// gap and says why; the series goes on.
class StockWatcher : public QObject
{
    Q_OBJECT
public:
    struct Watched
    {
        Watched(QByteArray s, QByteArray k, size_t capacity)
            : sku(std::move(s))
            , key(std::move(k))
            , stock(capacity)
        {}
        QByteArray sku, key;
        TimeSeries stock;
        QString problem; // of the latest read: "missing", "not an integer: \"abc\""
    };

    explicit StockWatcher(redis::CommandSender &sender, QObject *parent = nullptr);

    // Adds a SKU (false when it is watched already) and reads it at once if running.
    bool watch(const QByteArray &sku, const QByteArray &stockKey);
    void unwatch(const QByteArray &sku);
    bool isWatched(const QByteArray &sku) const;
    int count() const { return int(m_watched.size()); }
    const Watched &at(int i) const { return *m_watched.at(size_t(i)); }

    void setInterval(int ms);
    int interval() const;
    void setHistorySeconds(int seconds);
    void start();
    void stop();
    bool isRunning() const;
    void readNow();

signals:
    void watchListChanged();
    void sampled(); // one point (or a problem) for every watched SKU

private:
    size_t capacity() const;

    redis::CommandSender &m_sender;
    QTimer *m_timer;
    int m_historySeconds = 3600;
    bool m_inFlight = false;
    quint64 m_generation = 0;
    std::vector<std::unique_ptr<Watched>> m_watched;
};

} // namespace metrics
