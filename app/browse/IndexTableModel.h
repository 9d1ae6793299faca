// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LocatedTableModel.h"
#include "StringPool.h"

#include <QAbstractTableModel>
#include <functional>
#include <limits>
#include <vector>

namespace browse {

// A table over rows a store numbers 0..n-1 (append-only between clears): the model holds only
// an index vector, filtered by rebuilding it.
//
// Sorting a million rows must feel instant, so no sort compares strings per comparison:
// the natural order of the rows (SKU or key, digits by value) is kept as a permutation that
// grows incrementally (new rows are sorted among themselves and inserted by binary search),
// and every row gets its rank in it. The natural column's order is then that permutation,
// filtered: O(rows). Any other column sorts (64-bit key, rank) pairs: plain integers.
//
// sync() appends the store's new rows as a proper insert, then merges them into the current
// order as a pure permutation (persistent indexes follow their rows): O(rows) per sync for a
// growing scan, never a reset.
class IndexTableModel : public LocatedTableModel
{
    Q_OBJECT
public:
    using LocatedTableModel::LocatedTableModel;

    // Takes in what changed in the store since the last call, at most maxNewRows new rows at a
    // time (so one call stays within a frame's budget); false while rows remain, and the
    // caller calls again on a later event-loop turn. Call it coalesced, not per store change.
    bool sync(uint32_t maxNewRows = std::numeric_limits<uint32_t>::max());
    // Rebuilds the rows (a filter changed, or the scan ended and filters may now differ).
    void rebuild();

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    uint32_t idAt(int row) const { return m_rows[size_t(row)]; }
    // The store was cleared since the last sync: the rows held refer to nothing.
    bool sourceReset() const { return sourceEpoch() != m_epoch; }
    int rowOf(uint32_t id) const { return id < m_rowOf.size() ? m_rowOf[id] : -1; }
    std::vector<uint32_t> idsInRows(int first, int last) const;

    int rowCount(const QModelIndex &parent = {}) const override;

protected:
    virtual uint32_t sourceRows() const = 0;
    virtual quint64 sourceEpoch() const = 0;
    virtual quint64 sourceRevision() const = 0;
    // Rows the source has room for (0: unknown); the model reserves as many.
    virtual uint32_t sourceCapacity() const { return 0; }
    virtual bool accepts(uint32_t id) const = 0;
    // The natural order (<0, 0, >0), used only to place new rows in the permutation, after
    // comparing naturalKey()s.
    virtual int naturalCompare(uint32_t a, uint32_t b) const = 0;
    virtual NaturalKey naturalKeyOf(uint32_t id) const = 0;
    // The column whose order is the natural one.
    virtual int naturalColumn() const = 0;
    // For any other column: a key that sorts ascending with the column; ties go by natural
    // order.
    virtual quint64 sortKey(uint32_t id, int column) const = 0;
    // The order before any sort() (the views set theirs): call from the constructor.
    void setDefaultSort(int column) { m_sortColumn = column; }

private:
    struct Keyed
    {
        quint64 key;
        uint32_t rank;
        uint32_t id;
    };
    void updateNatural(uint32_t upTo);
    void reserveFor(uint32_t total);
    void ensureRank() const;
    std::vector<Keyed> keyedOf(const std::vector<uint32_t> &ids) const;
    static bool keyedLess(const Keyed &a, const Keyed &b);
    void order(std::vector<uint32_t> &ids) const;
    void relayout(const std::function<void()> &reorder);
    void reindex();

    std::vector<uint32_t> m_rows;
    std::vector<int32_t> m_rowOf; // id -> row, -1 when not shown
    bool naturalLess(uint32_t a, uint32_t b) const;

    std::vector<uint32_t> m_natural;
    mutable std::vector<uint32_t> m_rank; // by id: position in m_natural; see ensureRank()
    mutable bool m_rankValid = true;
    std::vector<NaturalKey> m_naturalKey; // by id
    uint32_t m_known = 0;
    quint64 m_epoch = ~quint64(0), m_revision = 0;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

// Maps a signed value onto an unsigned key with the same order.
inline quint64 signedKey(qint64 v)
{
    return quint64(v) ^ (quint64(1) << 63);
}

} // namespace browse
