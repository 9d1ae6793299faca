// SPDX-License-Identifier: GPL-3.0-or-later
#include "LatencyHistogram.h"

#include <algorithm>
#include <cmath>

namespace lab {

const QList<double> &LatencyHistogram::bounds()
{
    static const QList<double> b{0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000};
    return b;
}

LatencyHistogram::LatencyHistogram()
    : m_buckets(bounds().size() + 1, 0)
{}

void LatencyHistogram::add(double ms, int count)
{
    const QList<double> &b = bounds();
    const auto it = std::upper_bound(b.begin(), b.end(), ms);
    m_buckets[it - b.begin()] += count;
    m_samples.insert(m_samples.end(), size_t(count), float(ms));
    m_sorted = false;
}

double LatencyHistogram::percentile(double p)
{
    if (m_samples.empty())
        return 0;
    if (!m_sorted) {
        std::sort(m_samples.begin(), m_samples.end());
        m_sorted = true;
    }
    const double rank = std::ceil(p / 100.0 * double(m_samples.size()));
    const size_t i = size_t(std::clamp(rank, 1.0, double(m_samples.size()))) - 1;
    return m_samples[i];
}

QString LatencyHistogram::bucketLabel(int index)
{
    const QList<double> &b = bounds();
    if (index <= 0)
        return QStringLiteral("0–%1").arg(b.first());
    if (index >= b.size())
        return QStringLiteral("%1+").arg(b.last());
    return QStringLiteral("%1–%2").arg(b.at(index - 1)).arg(b.at(index));
}

} // namespace lab
