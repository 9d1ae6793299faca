// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>

namespace browse {

// HashIndex's cousin for the largest set a store holds (ten million receipts): 5 bytes a slot
// instead of 8, one byte of hash in a tag array and the row id in a parallel array, at up to
// 7/8 load on a table of any size (not a power of two). At ten million receipts that is 63 MB
// instead of 134. Probes read the tag bytes (64 to a cache line) and touch an id, and then
// its row, only when the tag matches (1 in 254 for another row).
//
// The price: a slot no longer holds the whole hash, so growing (or clearing out deleted
// slots) asks the owner for each row's hash again (hashOf(id), given to the calls that may
// grow). A scan reserves for DBSIZE up front, so that happens only when the keyspace grows
// past what was reserved.
class CompactHashIndex
{
public:
    static constexpr uint32_t None = std::numeric_limits<uint32_t>::max();
    void clear()
    {
        m_tags.reset();
        m_ids.reset();
        m_size = m_count = m_deleted = 0;
    }
    uint32_t count() const { return m_count; }
    size_t memoryBytes() const { return m_size * (sizeof(uint8_t) + sizeof(uint32_t)); }

    // Room for `rows` without growing.
    template<class HashOf>
    void reserve(size_t rows, HashOf hashOf)
    {
        const size_t size = sizeFor(rows);
        if (size > m_size)
            rehash(size, hashOf);
    }

    // The id whose row equals the probe (equals(id) says so), or None.
    template<class Equals>
    uint32_t find(size_t hash, Equals equals) const
    {
        if (!m_size)
            return None;
        const uint8_t tag = tagOf(hash);
        for (size_t i = homeOf(hash);; i = next(i)) {
            const uint8_t t = m_tags[i];
            if (t == Empty)
                return None;
            if (t == tag && equals(m_ids[i]))
                return m_ids[i];
        }
    }

    void prefetch(size_t hash) const
    {
        if (m_size) {
            const size_t i = homeOf(hash);
            __builtin_prefetch(&m_tags[i]);
            __builtin_prefetch(&m_ids[i]);
        }
    }

    // Adds an id known to be absent.
    template<class HashOf>
    void insert(size_t hash, uint32_t id, HashOf hashOf)
    {
        if ((size_t(m_count) + m_deleted + 1) * 8 > m_size * 7)
            // Doubles; or, when tombstones filled the table, only drops them.
            rehash(std::max(m_size, sizeFor(size_t(m_count) * 2 + 1)), hashOf);
        place(hash, id);
        ++m_count;
    }

    // Removes an id (rare: a receipt deleted from the console): its slot becomes a tombstone,
    // which probes pass over and the next rehash drops.
    void erase(size_t hash, uint32_t id)
    {
        if (!m_size)
            return;
        const uint8_t tag = tagOf(hash);
        for (size_t i = homeOf(hash);; i = next(i)) {
            const uint8_t t = m_tags[i];
            if (t == Empty)
                return;
            if (t == tag && m_ids[i] == id) {
                m_tags[i] = Deleted;
                --m_count;
                ++m_deleted;
                return;
            }
        }
    }

private:
    static constexpr uint8_t Empty = 0, Deleted = 1;
    static size_t sizeFor(size_t rows) { return std::max<size_t>(64, rows + rows / 7 + 1); }
    // The home slot from the low 32 bits (multiply-shift: any table size, no modulo); the
    // tag from the top byte, which the home does not use.
    size_t homeOf(size_t hash) const { return size_t((uint64_t(uint32_t(hash)) * m_size) >> 32); }
    static uint8_t tagOf(size_t hash) { return uint8_t(2 + (uint64_t(hash) >> 56) % 254); }
    size_t next(size_t i) const { return i + 1 == m_size ? 0 : i + 1; }

    void place(size_t hash, uint32_t id)
    {
        size_t i = homeOf(hash);
        while (m_tags[i] > Deleted)
            i = next(i);
        if (m_tags[i] == Deleted)
            --m_deleted;
        m_tags[i] = tagOf(hash);
        m_ids[i] = id;
    }

    template<class T>
    struct Free
    {
        void operator()(T *p) const { std::free(p); }
    };

    template<class HashOf>
    void rehash(size_t size, HashOf hashOf)
    {
        std::unique_ptr<uint8_t[], Free<uint8_t>> oldTags(std::move(m_tags));
        std::unique_ptr<uint32_t[], Free<uint32_t>> oldIds(std::move(m_ids));
        const size_t oldSize = m_size;
        // calloc: the tags start empty, and pages no row lands on cost nothing.
        m_tags.reset(static_cast<uint8_t *>(std::calloc(size, sizeof(uint8_t))));
        m_ids.reset(static_cast<uint32_t *>(std::malloc(size * sizeof(uint32_t))));
        if (!m_tags || !m_ids)
            throw std::bad_alloc();
        m_size = size;
        m_deleted = 0;
        for (size_t i = 0; i < oldSize; ++i)
            if (oldTags[i] > Deleted)
                place(hashOf(oldIds[i]), oldIds[i]);
    }

    std::unique_ptr<uint8_t[], Free<uint8_t>> m_tags;
    std::unique_ptr<uint32_t[], Free<uint32_t>> m_ids;
    size_t m_size = 0;
    uint32_t m_count = 0, m_deleted = 0;
};

} // namespace browse
