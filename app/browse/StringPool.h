// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <cstdint>
#include <vector>

namespace browse {

// Append-only byte strings packed end to end in one buffer: a million SKU names or order ids
// cost their bytes plus four bytes each, instead of a QByteArray (and a heap block) each.
class StringPool
{
public:
    // Returns the new string's id (ids count up from 0). False in *ok when the pool would
    // pass 4 GiB, which no keyspace a console can show comes near.
    uint32_t add(QByteArrayView s, bool *ok = nullptr);
    QByteArrayView view(uint32_t id) const
    {
        return QByteArrayView(m_data.data() + m_offsets[id], m_offsets[id + 1] - m_offsets[id]);
    }
    QByteArray bytes(uint32_t id) const { return view(id).toByteArray(); }
    uint32_t size() const { return uint32_t(m_offsets.size() - 1); }
    void clear();
    void reserve(size_t strings, size_t bytes);
    size_t memoryBytes() const
    {
        return m_data.capacity() + m_offsets.capacity() * sizeof(uint32_t);
    }

private:
    std::vector<char> m_data;
    std::vector<uint32_t> m_offsets{0};
};

// Natural order for identifiers: digit runs compare by value ("sku-9" before "sku-10"), the
// rest bytewise. A total order (runs of digits sort before other bytes at the same place), so
// std::sort may use it.
int naturalCompare(QByteArrayView a, QByteArrayView b);

// The first 16 bytes of an encoding of the natural order that memcmp compares the same way
// (text runs as bytes, digit runs as length then packed digits), as two integers. Sorting
// by (key, naturalCompare on ties) is the natural order for ordinary names, with integer
// comparisons instead of scattered string reads for almost every pair. For names with
// control bytes it is merely a consistent order.
struct NaturalKey
{
    quint64 hi = 0, lo = 0;
    bool operator<(const NaturalKey &o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
    bool operator==(const NaturalKey &o) const { return hi == o.hi && lo == o.lo; }
};
NaturalKey naturalKey(QByteArrayView name);

} // namespace browse
