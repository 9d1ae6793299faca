// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <vector>

namespace lab {

// Round-trip latencies of one storm: every sample kept (a float each; a storm of a million
// commands costs 4 MB) so that percentiles are exact, and counted into fixed buckets for the
// chart. A pipelined command's latency is its batch's round trip, as redis-benchmark counts it.
class LatencyHistogram
{
public:
    // Bucket upper bounds in milliseconds: 0.1, 0.2, 0.5, 1, 2, 5, ... 5000, then one open
    // bucket above the last bound.
    static const QList<double> &bounds();

    void add(double ms, int count = 1);
    qint64 count() const { return qint64(m_samples.size()); }
    // The p-th percentile (0..100), nearest rank; 0 with no samples. Sorts the samples once.
    double percentile(double p);
    // One count per bucket: bounds().size() + 1 entries.
    const QList<qint64> &buckets() const { return m_buckets; }
    // In milliseconds: "0–0.1", "0.1–0.2", ..., "5000+" (short: a chart has many; no "<": chart
    // labels are rich text)
    static QString bucketLabel(int index);

    LatencyHistogram();

private:
    std::vector<float> m_samples;
    bool m_sorted = true;
    QList<qint64> m_buckets;
};

} // namespace lab
