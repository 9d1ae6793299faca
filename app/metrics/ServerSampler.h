// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ServerSample.h"
#include "TimeSeries.h"

#include <QObject>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace redis {
class CommandSender;
}

namespace metrics {

// Everything charted about one node, each series one point per sample (a rate needs two
// samples, so rates start one sample later; a latency percentile is absent while no FCALL ran).
struct NodeSeries
{
    explicit NodeSeries(size_t capacity);

    QString name;                            // host:port
    TimeSeries usedMemory, maxMemory;        // bytes
    TimeSeries opsPerSec, fcallPerSec;       // commands/s, the sampler's own excluded
    TimeSeries evictedPerSec, expiredPerSec; // keys/s
    TimeSeries clients;                      // connected clients
    TimeSeries roundTripUs, roundTripP50Us, roundTripP99Us; // the console's own, per sample
    TimeSeries fcallP50Us, fcallP99Us; // server side, from the histogram's growth per sample
    LatencyHistogram fcallSinceStart;  // the FCALLs the server ran since sampling began
    std::optional<ServerSample> first, last;
    QString lastError;        // of the latest sample; empty when it worked
    QString histogramProblem; // why the server gives no FCALL histogram (Redis < 7, ACL)
    qint64 samples = 0;
    qint64 batchesSent = 0;

    // Everything a view draws, for CSV and for tests.
    QList<QPair<QString, const TimeSeries *>> all() const;
    void setCapacity(size_t capacity);
};

// Samples every node every interval with one pipelined batch (INFO memory/stats/clients/
// commandstats + LATENCY HISTOGRAM fcall) and keeps an hour of each series. A node whose
// previous batch has not come back is skipped that tick, so a slow server never gets more
// than one batch per interval from here. Replies arrive on this object's thread; the work per
// sample is constant (one point per series, a 60-sample window for the round-trip percentiles).
class ServerSampler : public QObject
{
    Q_OBJECT
public:
    explicit ServerSampler(redis::CommandSender &sender, QObject *parent = nullptr);
    ~ServerSampler() override;

    void setInterval(int ms);
    int interval() const;
    void setHistorySeconds(int seconds); // an hour unless told
    void start();                        // samples now, then every interval
    void stop();
    bool isRunning() const;
    void sampleNow();

    int nodeCount() const { return int(m_nodes.size()); }
    const NodeSeries &node(int i) const { return *m_nodes.at(size_t(i)); }
    // The sampler's own commands reach the server's ops/s; this many per sample are taken out.
    static constexpr int OwnCommands = CommandsPerSample;
    static constexpr int PercentileWindow = 60; // samples behind the round-trip p50/p99

signals:
    void nodesChanged(); // the node list changed: views rebuild their series
    void sampled(int node);
    void sampleFailed(int node, const QString &error);

private:
    void tick();
    void syncNodes();
    void take(int node, quint64 generation, const ServerSample &s);
    size_t capacity() const;

    redis::CommandSender &m_sender;
    QTimer *m_timer;
    int m_historySeconds = 3600;
    quint64 m_generation = 0; // bumped when the node list changes: late replies are dropped
    std::vector<std::unique_ptr<NodeSeries>> m_nodes;
    std::vector<bool> m_inFlight;
    std::vector<std::deque<qint64>> m_recentRtt;
};

} // namespace metrics
