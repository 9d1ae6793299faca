// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/Reply.h"
#include "redis/RespCodec.h"

#include <QHash>
#include <QList>
#include <optional>

namespace metrics {

// LATENCY HISTOGRAM of one command (Redis 7): how many calls took at most each bucket's
// bound, cumulative, buckets in powers of two microseconds.
struct LatencyHistogram
{
    qint64 calls = 0;
    QList<QPair<qint64, qint64>> buckets; // (upper bound in µs, calls at most that long)

    bool isEmpty() const { return calls == 0; }
    // The smallest bucket bound that holds at least `fraction` of the calls (0.5 for p50): an
    // upper bound, as precise as the server's buckets. -1 when there are no calls.
    qint64 percentileUs(double fraction) const;
    // The calls made between `before` and this reading (same command, counters only grow).
    LatencyHistogram since(const LatencyHistogram &before) const;
    // Calls per bucket rather than "at most" counts, for a bar chart.
    QList<QPair<qint64, qint64>> perBucket() const;
};

// One reading of one node: what INFO (memory, stats, clients, commandstats) and LATENCY
// HISTOGRAM fcall said, and how long the batch was on the wire.
struct ServerSample
{
    qint64 timeMs = 0; // when the reply came, ms since the epoch
    // From the write to the read of the last reply, timed on the thread that reads the socket;
    // absent when the sender could not time it.
    std::optional<qint64> roundTripUs;
    qint64 usedMemory = 0; // bytes
    qint64 maxMemory = 0;  // bytes; 0 means no limit
    qint64 clients = 0;
    qint64 totalCommands = 0; // total_commands_processed
    qint64 evictedKeys = 0;
    qint64 expiredKeys = 0;
    QHash<QByteArray, qint64> commandCalls; // commandstats: "fcall" -> calls
    bool histogramKnown = false; // false when LATENCY HISTOGRAM was refused (Redis < 7, ACL)
    QString histogramProblem;    // why, for the chart's empty state
    LatencyHistogram fcallLatency;

    qint64 fcallCalls() const
    {
        return commandCalls.value("fcall") + commandCalls.value("fcall_ro");
    }
};

// The one pipelined batch a sample sends: INFO of four sections, then LATENCY HISTOGRAM.
QList<redis::Command> sampleCommands();
constexpr int CommandsPerSample = 2;

// INFO must answer with every field the charts show as a canonical integer; anything else is
// a protocol error naming the field. A refused LATENCY HISTOGRAM only leaves the histogram
// unknown.
redis::Decoded<ServerSample> decodeSample(const QList<redis::ReplyResult> &replies);
// "cmdstat_fcall:calls=3,usec=..." lines of INFO commandstats, by command name.
redis::Decoded<QHash<QByteArray, qint64>>
decodeCommandStats(const QHash<QByteArray, QByteArray> &info);
// One command's entry of a LATENCY HISTOGRAM reply; an empty histogram when it has none.
redis::Decoded<LatencyHistogram> decodeLatencyHistogram(const redis::Reply &reply,
                                                        const QByteArray &command);

} // namespace metrics
