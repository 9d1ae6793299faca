// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimeSeries.h"

namespace metrics {

void TimeSeries::append(qint64 timeMs, double value)
{
    if (m_points.size() < m_capacity) {
        m_points.push_back({timeMs, value});
        m_size = m_points.size();
        return;
    }
    m_points[m_head] = {timeMs, value};
    m_head = (m_head + 1) % m_capacity;
}

Point TimeSeries::at(size_t i) const
{
    return m_points.at((m_head + i) % m_points.size());
}

std::optional<Point> TimeSeries::last() const
{
    if (m_size == 0)
        return std::nullopt;
    return at(m_size - 1);
}

void TimeSeries::setCapacity(size_t capacity)
{
    capacity = capacity ? capacity : 1;
    std::vector<Point> kept;
    const size_t from = m_size > capacity ? m_size - capacity : 0;
    kept.reserve(m_size - from);
    for (size_t i = from; i < m_size; ++i)
        kept.push_back(at(i));
    m_points = std::move(kept);
    m_capacity = capacity;
    m_head = 0;
    m_size = m_points.size();
}

void TimeSeries::clear()
{
    m_points.clear();
    m_head = 0;
    m_size = 0;
}

} // namespace metrics
