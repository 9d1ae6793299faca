// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerSampler.h"

#include "MetricsLog.h"
#include "redis/CommandSender.h"

#include <QDateTime>
#include <QTimer>
#include <algorithm>

namespace metrics {

NodeSeries::NodeSeries(size_t capacity)
    : usedMemory(capacity)
    , maxMemory(capacity)
    , opsPerSec(capacity)
    , fcallPerSec(capacity)
    , evictedPerSec(capacity)
    , expiredPerSec(capacity)
    , clients(capacity)
    , roundTripUs(capacity)
    , roundTripP50Us(capacity)
    , roundTripP99Us(capacity)
    , fcallP50Us(capacity)
    , fcallP99Us(capacity)
{}

namespace {

// Every series of a node with the name its CSV column gets.
const std::pair<const char *, TimeSeries NodeSeries::*> SeriesMembers[] = {
    {"used_memory_bytes", &NodeSeries::usedMemory},
    {"maxmemory_bytes", &NodeSeries::maxMemory},
    {"ops_per_sec", &NodeSeries::opsPerSec},
    {"fcall_per_sec", &NodeSeries::fcallPerSec},
    {"evicted_keys_per_sec", &NodeSeries::evictedPerSec},
    {"expired_keys_per_sec", &NodeSeries::expiredPerSec},
    {"connected_clients", &NodeSeries::clients},
    {"round_trip_us", &NodeSeries::roundTripUs},
    {"round_trip_p50_us", &NodeSeries::roundTripP50Us},
    {"round_trip_p99_us", &NodeSeries::roundTripP99Us},
    {"fcall_server_p50_us", &NodeSeries::fcallP50Us},
    {"fcall_server_p99_us", &NodeSeries::fcallP99Us},
};

} // namespace

QList<QPair<QString, const TimeSeries *>> NodeSeries::all() const
{
    QList<QPair<QString, const TimeSeries *>> out;
    for (const auto &[name, member] : SeriesMembers)
        out.append({QLatin1String(name), &(this->*member)});
    return out;
}

void NodeSeries::setCapacity(size_t capacity)
{
    for (const auto &[name, member] : SeriesMembers)
        (this->*member).setCapacity(capacity);
}

ServerSampler::ServerSampler(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &ServerSampler::tick);
}

ServerSampler::~ServerSampler() = default;

void ServerSampler::setInterval(int ms)
{
    m_timer->setInterval(qMax(100, ms));
    setHistorySeconds(m_historySeconds);
}

int ServerSampler::interval() const
{
    return m_timer->interval();
}

size_t ServerSampler::capacity() const
{
    return size_t(qMax<qint64>(2, qint64(m_historySeconds) * 1000 / m_timer->interval()));
}

void ServerSampler::setHistorySeconds(int seconds)
{
    m_historySeconds = qMax(1, seconds);
    for (auto &n : m_nodes)
        n->setCapacity(capacity());
}

void ServerSampler::start()
{
    if (!m_timer->isActive())
        m_timer->start();
    tick();
}

void ServerSampler::stop()
{
    m_timer->stop();
}

bool ServerSampler::isRunning() const
{
    return m_timer->isActive();
}

void ServerSampler::sampleNow()
{
    tick();
}

void ServerSampler::syncNodes()
{
    const QList<redis::ScanNode> nodes = m_sender.scanNodes();
    bool same = int(m_nodes.size()) == nodes.size();
    for (qsizetype i = 0; same && i < nodes.size(); ++i)
        same = m_nodes.at(size_t(i))->name == nodes.at(i).name;
    if (same)
        return;
    ++m_generation;
    m_nodes.clear();
    for (const redis::ScanNode &n : nodes) {
        m_nodes.push_back(std::make_unique<NodeSeries>(capacity()));
        m_nodes.back()->name = n.name;
    }
    m_inFlight.assign(m_nodes.size(), false);
    m_recentRtt.assign(m_nodes.size(), {});
    qCInfo(lcMetrics) << "sampling" << nodes.size() << "node(s)";
    emit nodesChanged();
}

void ServerSampler::tick()
{
    syncNodes();
    const QList<redis::ScanNode> nodes = m_sender.scanNodes();
    for (int i = 0; i < int(m_nodes.size()) && i < nodes.size(); ++i) {
        if (m_inFlight[size_t(i)])
            continue; // the previous sample is still out: never two at once per node
        m_inFlight[size_t(i)] = true;
        ++m_nodes[size_t(i)]->batchesSent;
        const quint64 generation = m_generation;
        // Timed by the connection where it reads the socket: timing the callback here would
        // count every stall of this thread (a modal dialog, a long layout) as network time.
        nodes.at(i).sender->sendTimedBatch(
            sampleCommands(), this,
            [this, i, generation](const QList<redis::ReplyResult> &replies, redis::WireTimeUs us) {
                if (generation != m_generation)
                    return;
                m_inFlight[size_t(i)] = false;
                auto decoded = decodeSample(replies);
                if (!decoded) {
                    m_nodes[size_t(i)]->lastError = decoded.error().readFailure().text;
                    emit sampleFailed(i, m_nodes[size_t(i)]->lastError);
                    return;
                }
                ServerSample s = std::move(decoded).value();
                s.roundTripUs = us;
                s.timeMs = QDateTime::currentMSecsSinceEpoch();
                take(i, generation, s);
            },
            qMax(1000, m_timer->interval() * 5));
    }
}

namespace {

double percentileOf(std::vector<qint64> values, double fraction)
{
    const size_t k = std::min(values.size() - 1, size_t(fraction * double(values.size())));
    std::nth_element(values.begin(), values.begin() + qsizetype(k), values.end());
    return double(values[k]);
}

} // namespace

void ServerSampler::take(int i, quint64, const ServerSample &s)
{
    NodeSeries &n = *m_nodes[size_t(i)];
    const qint64 t = s.timeMs;
    n.lastError.clear();
    n.histogramProblem = s.histogramKnown ? QString() : s.histogramProblem;
    n.usedMemory.append(t, double(s.usedMemory));
    n.maxMemory.append(t, double(s.maxMemory));
    n.clients.append(t, double(s.clients));
    if (s.roundTripUs) {
        n.roundTripUs.append(t, double(*s.roundTripUs));
        auto &recent = m_recentRtt[size_t(i)];
        recent.push_back(*s.roundTripUs);
        if (recent.size() > size_t(PercentileWindow))
            recent.pop_front();
        const std::vector<qint64> window(recent.begin(), recent.end());
        n.roundTripP50Us.append(t, percentileOf(window, 0.5));
        n.roundTripP99Us.append(t, percentileOf(window, 0.99));
    }

    if (n.last) {
        const ServerSample &p = *n.last;
        const double dt = double(t - p.timeMs) / 1000.0;
        // A counter that went down means a restart or CONFIG RESETSTAT: no rate this time.
        const auto rate = [dt](qint64 now, qint64 before, qint64 own = 0) -> std::optional<double> {
            if (dt <= 0 || now < before)
                return std::nullopt;
            return qMax(0.0, double(now - before - own) / dt);
        };
        if (auto r = rate(s.totalCommands, p.totalCommands, OwnCommands))
            n.opsPerSec.append(t, *r);
        if (auto r = rate(s.fcallCalls(), p.fcallCalls()))
            n.fcallPerSec.append(t, *r);
        if (auto r = rate(s.evictedKeys, p.evictedKeys))
            n.evictedPerSec.append(t, *r);
        if (auto r = rate(s.expiredKeys, p.expiredKeys))
            n.expiredPerSec.append(t, *r);
        if (s.histogramKnown && p.histogramKnown) {
            const LatencyHistogram d = s.fcallLatency.since(p.fcallLatency);
            if (!d.isEmpty()) {
                n.fcallP50Us.append(t, double(d.percentileUs(0.5)));
                n.fcallP99Us.append(t, double(d.percentileUs(0.99)));
            }
        }
    }
    if (!n.first)
        n.first = s;
    if (s.histogramKnown && n.first->histogramKnown)
        n.fcallSinceStart = s.fcallLatency.since(n.first->fcallLatency);
    n.last = s;
    ++n.samples;
    emit sampled(i);
}

} // namespace metrics
