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

// An open-addressing set of row ids keyed by whatever the caller hashes: the rows themselves
// live in the caller's arrays, so an entry is one 8-byte slot (32 bits of hash, 32 bits of
// id + 1; 0 is empty), not a node with a copy of the key. The stored hash bits let a probe
// skip other rows without reading them, and let the table grow without reading any key
// again: a doubling at a million receipts is one pass over the slots, not a million
// scattered key reads (which stalled the window for 100 ms). Slots come from calloc, so a
// table reserved for ten million keys costs no memory until rows land in it. Linear probing
// from a multiply-shift home, so the table has any size and a reservation is not rounded up
// to a power of two; grown at 80 % load.
class HashIndex
{
public:
    static constexpr uint32_t None = std::numeric_limits<uint32_t>::max();

    void clear()
    {
        m_slots.reset();
        m_size = 0;
        m_count = 0;
    }
    uint32_t count() const { return m_count; }
    size_t memoryBytes() const { return m_size * sizeof(uint64_t); }

    // Room for `rows` without growing (a scan that knows DBSIZE reserves up front).
    void reserve(size_t rows)
    {
        const size_t size = std::max<size_t>(64, rows + rows / 4 + 1);
        if (size > m_size)
            rehash(size);
    }

    // The id whose row equals the probe (equals(id) says so), or None.
    template<class Equals>
    uint32_t find(size_t hash, Equals equals) const
    {
        if (!m_size)
            return None;
        const uint32_t tag = uint32_t(hash);
        for (size_t i = homeOf(tag);; i = next(i)) {
            const uint64_t slot = m_slots[i];
            if (slot == Empty)
                return None;
            if (uint32_t(slot >> 32) == tag && equals(idOf(slot)))
                return idOf(slot);
        }
    }

    void prefetch(size_t hash) const
    {
        if (m_size)
            __builtin_prefetch(&m_slots[homeOf(uint32_t(hash))]);
    }

    // Adds an id known to be absent.
    void insert(size_t hash, uint32_t id)
    {
        if ((size_t(m_count) + 1) * 5 > m_size * 4)
            rehash(m_size ? m_size * 2 : 64);
        place(slotOf(hash, id));
        ++m_count;
    }

    // Removes an id (rare: a receipt deleted from the console); re-seats the cluster after it.
    void erase(size_t hash, uint32_t id)
    {
        if (!m_size)
            return;
        const uint64_t wanted = slotOf(hash, id);
        size_t i = homeOf(uint32_t(hash));
        while (m_slots[i] != wanted) {
            if (m_slots[i] == Empty)
                return;
            i = next(i);
        }
        m_slots[i] = Empty;
        --m_count;
        for (size_t j = next(i); m_slots[j] != Empty; j = next(j)) {
            const uint64_t moved = m_slots[j];
            m_slots[j] = Empty;
            place(moved);
        }
    }

private:
    static constexpr uint64_t Empty = 0;
    static uint64_t slotOf(size_t hash, uint32_t id)
    {
        return uint64_t(uint32_t(hash)) << 32 | (uint64_t(id) + 1);
    }
    static uint32_t idOf(uint64_t slot) { return uint32_t(slot) - 1; }
    size_t homeOf(uint32_t tag) const { return size_t((uint64_t(tag) * m_size) >> 32); }
    size_t next(size_t i) const { return i + 1 == m_size ? 0 : i + 1; }

    struct Free
    {
        void operator()(uint64_t *p) const { std::free(p); }
    };

    void place(uint64_t slot)
    {
        size_t i = homeOf(uint32_t(slot >> 32));
        while (m_slots[i] != Empty)
            i = next(i);
        m_slots[i] = slot;
    }

    void rehash(size_t size)
    {
        std::unique_ptr<uint64_t[], Free> old(std::move(m_slots));
        const size_t oldSize = m_size;
        m_slots.reset(static_cast<uint64_t *>(std::calloc(size, sizeof(uint64_t))));
        if (!m_slots)
            throw std::bad_alloc();
        m_size = size;
        for (size_t i = 0; i < oldSize; ++i)
            if (old[i] != Empty)
                place(old[i]);
    }

    std::unique_ptr<uint64_t[], Free> m_slots;
    size_t m_size = 0;
    uint32_t m_count = 0;
};

} // namespace browse
