// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace metrics {

struct Point
{
    qint64 timeMs = 0; // ms since the epoch
    double value = 0;
};

// The last `capacity` points of one measure, oldest first, in a ring: an append past the
// capacity drops the oldest point and costs the same as any other append, so a view fed one
// point per sample never pays for the length of the history.
class TimeSeries
{
public:
    explicit TimeSeries(size_t capacity = 3600)
        : m_capacity(capacity ? capacity : 1)
    {}

    void append(qint64 timeMs, double value);
    size_t size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    size_t capacity() const { return m_capacity; }
    Point at(size_t i) const; // 0 is the oldest kept
    std::optional<Point> last() const;
    // Keeps the newest points that fit.
    void setCapacity(size_t capacity);
    void clear();

private:
    std::vector<Point> m_points; // grows to m_capacity, then wraps at m_head
    size_t m_capacity;
    size_t m_head = 0; // index of the oldest point once full
    size_t m_size = 0;
};

} // namespace metrics
