#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace browse {

// An open-addressing set of row ids keyed by whatever the caller hashes: the rows themselves
// live in the caller's arrays, so an entry is one 8-byte slot (32 bits of hash, 32 bits of
// id), not a node with a copy of the key. The stored hash bits let a probe skip other rows
// without reading them, and let the table grow without reading any key again: a doubling
// at a million receipts is one pass over the slots, not a million scattered key reads
// (which stalled the window for 100 ms). Linear probing, grown at 70 % load.
class HashIndex
{
public:
    static constexpr uint32_t None = std::numeric_limits<uint32_t>::max();

    void clear() { std::vector<uint64_t>().swap(m_slots), m_count = 0; }
    uint32_t count() const { return m_count; }
    size_t memoryBytes() const { return m_slots.capacity() * sizeof(uint64_t); }

    // The id whose row equals the probe (equals(id) says so), or None.
    template<class Equals>
    uint32_t find(size_t hash, Equals equals) const
    {
        if (m_slots.empty())
            return None;
        const uint32_t tag = uint32_t(hash);
        const size_t mask = m_slots.size() - 1;
        for (size_t i = tag & mask;; i = (i + 1) & mask) {
            const uint64_t slot = m_slots[i];
            if (slot == Empty)
                return None;
            if (uint32_t(slot >> 32) == tag && equals(uint32_t(slot)))
                return uint32_t(slot);
        }
    }

    void prefetch(size_t hash) const
    {
        if (!m_slots.empty())
            __builtin_prefetch(&m_slots[uint32_t(hash) & (m_slots.size() - 1)]);
    }

    // Adds an id known to be absent.
    void insert(size_t hash, uint32_t id)
    {
        if ((size_t(m_count) + 1) * 10 > m_slots.size() * 7)
            grow();
        place(uint64_t(uint32_t(hash)) << 32 | id);
        ++m_count;
    }

    // Removes an id (rare: a receipt deleted from the console); re-seats the cluster after it.
    void erase(size_t hash, uint32_t id)
    {
        if (m_slots.empty())
            return;
        const uint64_t wanted = uint64_t(uint32_t(hash)) << 32 | id;
        const size_t mask = m_slots.size() - 1;
        size_t i = uint32_t(hash) & mask;
        while (m_slots[i] != wanted) {
            if (m_slots[i] == Empty)
                return;
            i = (i + 1) & mask;
        }
        m_slots[i] = Empty;
        --m_count;
        for (size_t j = (i + 1) & mask; m_slots[j] != Empty; j = (j + 1) & mask) {
            const uint64_t moved = m_slots[j];
            m_slots[j] = Empty;
            place(moved);
        }
    }

private:
    static constexpr uint64_t Empty = std::numeric_limits<uint64_t>::max();

    void place(uint64_t slot)
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = uint32_t(slot >> 32) & mask;
        while (m_slots[i] != Empty)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }

    void grow()
    {
        std::vector<uint64_t> old;
        old.swap(m_slots);
        m_slots.assign(old.empty() ? 64 : old.size() * 2, Empty);
        for (uint64_t slot : old)
            if (slot != Empty)
                place(slot);
    }

    std::vector<uint64_t> m_slots;
    uint32_t m_count = 0;
};

} // namespace browse
