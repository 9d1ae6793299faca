// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerSample.h"

#include "core/CanonicalInteger.h"
#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

namespace metrics {

using redis::Decoded;
using redis::RedisError;

namespace {

// Why a sample could not be read: the charts show it in the window's language.
core::Sentence sampleSays(const char *source)
{
    return core::Sentence::translated("metrics::ServerSample", source);
}

Decoded<qint64> infoInteger(const QHash<QByteArray, QByteArray> &info, const QByteArray &field)
{
    const auto it = info.constFind(field);
    if (it == info.constEnd())
        return RedisError::unexpected(
            sampleSays(QT_TRANSLATE_NOOP("metrics::ServerSample", "INFO has no %1 field"))
                .arg(QString::fromLatin1(field)));
    const auto v = core::parseCanonicalInteger(*it);
    if (!v)
        return RedisError::unexpected(
            sampleSays(
                QT_TRANSLATE_NOOP("metrics::ServerSample", "INFO %1 is not an integer: \"%2\""))
                .arg(QString::fromLatin1(field), QString::fromUtf8(it->left(40))));
    return *v;
}

} // namespace

qint64 LatencyHistogram::percentileUs(double fraction) const
{
    if (calls <= 0 || buckets.isEmpty())
        return -1;
    const double wanted = fraction * double(calls);
    for (const auto &[bound, atMost] : buckets)
        if (double(atMost) >= wanted)
            return bound;
    return buckets.last().first;
}

LatencyHistogram LatencyHistogram::since(const LatencyHistogram &before) const
{
    LatencyHistogram d;
    d.calls = calls - before.calls;
    if (d.calls < 0) // the server restarted or CONFIG RESETSTAT: all is new
        return *this;
    qsizetype j = 0;
    qint64 earlier = 0; // before's cumulative count at this bound
    for (const auto &[bound, atMost] : buckets) {
        while (j < before.buckets.size() && before.buckets.at(j).first <= bound)
            earlier = before.buckets.at(j++).second;
        d.buckets.append({bound, qMax<qint64>(0, atMost - earlier)});
    }
    return d;
}

QList<QPair<qint64, qint64>> LatencyHistogram::perBucket() const
{
    QList<QPair<qint64, qint64>> out;
    qint64 previous = 0;
    for (const auto &[bound, atMost] : buckets) {
        out.append({bound, qMax<qint64>(0, atMost - previous)});
        previous = atMost;
    }
    return out;
}

QList<redis::Command> sampleCommands()
{
    return {{"INFO", "memory", "stats", "clients", "commandstats"},
            {"LATENCY", "HISTOGRAM", "fcall"}};
}

Decoded<QHash<QByteArray, qint64>> decodeCommandStats(const QHash<QByteArray, QByteArray> &info)
{
    QHash<QByteArray, qint64> calls;
    for (auto it = info.constBegin(); it != info.constEnd(); ++it) {
        if (!it.key().startsWith("cmdstat_"))
            continue;
        const QByteArray name = it.key().mid(8);
        std::optional<qint64> n;
        for (const QByteArray &part : it.value().split(','))
            if (part.startsWith("calls="))
                n = core::parseCanonicalInteger(part.mid(6));
        if (!n)
            return RedisError::unexpected(
                sampleSays(QT_TRANSLATE_NOOP("metrics::ServerSample",
                                             "INFO commandstats of %1 has no calls count: \"%2\""))
                    .arg(QString::fromUtf8(name), QString::fromUtf8(it.value().left(60))));
        calls.insert(name, *n);
    }
    return calls;
}

Decoded<LatencyHistogram> decodeLatencyHistogram(const redis::Reply &reply,
                                                 const QByteArray &command)
{
    const auto top = reply.array();
    if (!top)
        return top.error();
    if (top->size() % 2)
        return reply.unexpected(
            sampleSays(QT_TRANSLATE_NOOP("metrics::ServerSample", "command/histogram pairs")));
    for (qsizetype i = 0; i + 1 < top->size(); i += 2) {
        const auto name = top->at(i).string();
        if (!name)
            return name.error();
        if (name->toLower() != command)
            continue;
        const auto fields = top->at(i + 1).array();
        if (!fields)
            return fields.error();
        LatencyHistogram h;
        bool haveCalls = false;
        for (qsizetype f = 0; f + 1 < fields->size(); f += 2) {
            const auto key = fields->at(f).string();
            if (!key)
                return key.error();
            if (*key == "calls") {
                const auto n = fields->at(f + 1).integer();
                if (!n)
                    return n.error();
                h.calls = *n;
                haveCalls = true;
            } else if (*key == "histogram_usec") {
                const auto pairs = fields->at(f + 1).array();
                if (!pairs)
                    return pairs.error();
                if (pairs->size() % 2)
                    return fields->at(f + 1).unexpected(sampleSays(
                        QT_TRANSLATE_NOOP("metrics::ServerSample", "bound/count pairs")));
                for (qsizetype p = 0; p + 1 < pairs->size(); p += 2) {
                    const auto bound = pairs->at(p).integer();
                    const auto count = pairs->at(p + 1).integer();
                    if (!bound)
                        return bound.error();
                    if (!count)
                        return count.error();
                    h.buckets.append({*bound, *count});
                }
            }
        }
        if (!haveCalls)
            return top->at(i + 1).unexpected(sampleSays(
                QT_TRANSLATE_NOOP("metrics::ServerSample", "a histogram with a calls field")));
        return h;
    }
    return LatencyHistogram{}; // no call of that command yet
}

Decoded<ServerSample> decodeSample(const QList<redis::ReplyResult> &r)
{
    if (r.size() != CommandsPerSample)
        return RedisError::unexpected(
            sampleSays(QT_TRANSLATE_NOOP("metrics::ServerSample",
                                         "expected %1 replies to a sample, got %2"))
                .arg(CommandsPerSample, r.size()));
    const auto text = redis::stringOf(r.at(0));
    if (!text)
        return text.error();
    const auto info = overview::parseInfo(*text);
    ServerSample s;
    const std::pair<const char *, qint64 *> fields[] = {
        {"used_memory", &s.usedMemory},    {"maxmemory", &s.maxMemory},
        {"connected_clients", &s.clients}, {"total_commands_processed", &s.totalCommands},
        {"evicted_keys", &s.evictedKeys},  {"expired_keys", &s.expiredKeys},
    };
    for (const auto &[name, target] : fields) {
        const auto v = infoInteger(info, name);
        if (!v)
            return v.error();
        *target = *v;
    }
    const auto stats = decodeCommandStats(info);
    if (!stats)
        return stats.error();
    s.commandCalls = *stats;

    const redis::ReplyResult &latency = r.at(1);
    if (!latency.ok()) {
        // Redis 6 does not know the command; an ACL may forbid it. Neither is a failed sample.
        s.histogramProblem = latency.error().message.text;
        return s;
    }
    const auto histogram = decodeLatencyHistogram(*latency, "fcall");
    if (!histogram)
        return histogram.error();
    s.histogramKnown = true;
    s.fcallLatency = *histogram;
    return s;
}

} // namespace metrics
