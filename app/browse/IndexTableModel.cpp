// SPDX-License-Identifier: GPL-3.0-or-later
#include "IndexTableModel.h"

#include <algorithm>

namespace browse {

bool IndexTableModel::naturalLess(uint32_t a, uint32_t b) const
{
    const NaturalKey &ka = m_naturalKey[a], &kb = m_naturalKey[b];
    if (!(ka == kb))
        return ka < kb;
    const int c = naturalCompare(a, b);
    return c != 0 ? c < 0 : a < b;
}

void IndexTableModel::updateNatural(uint32_t total)
{
    const uint32_t known = uint32_t(m_natural.size());
    if (total == known)
        return;
    reserveFor(total);
    m_naturalKey.resize(total);
    for (uint32_t id = known; id < total; ++id)
        m_naturalKey[id] = naturalKeyOf(id);
    auto natLess = [this](uint32_t a, uint32_t b) {
        return naturalLess(a, b);
    };
    // Sorted as (key, id) pairs held inline: the keys decide almost every comparison
    // without touching the names.
    std::vector<std::pair<NaturalKey, uint32_t>> keyed(total - known);
    for (uint32_t i = 0; i < keyed.size(); ++i)
        keyed[i] = {m_naturalKey[known + i], known + i};
    std::sort(keyed.begin(), keyed.end(), [this](const auto &a, const auto &b) {
        if (!(a.first == b.first))
            return a.first < b.first;
        const int c = naturalCompare(a.second, b.second);
        return c != 0 ? c < 0 : a.second < b.second;
    });
    std::vector<uint32_t> added(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i)
        added[i] = keyed[i].second;
    keyed = {};
    // Each new row finds its place by a galloping search from the previous one's: the new
    // rows are sorted and spread over the table, so the step is about n / k rows and the
    // probes stay near each other (a binary search over all that remains probes far apart,
    // each probe a cache miss, and cost a million-row sync tens of milliseconds). Then one
    // backward pass moves every old row once, in place: a second n-row vector for the merge
    // would be megabytes more at the peak of a ten-million-key scan, at every sync.
    std::vector<uint32_t> at(added.size());
    auto from = m_natural.begin();
    for (size_t i = 0; i < added.size(); ++i) {
        auto to = from;
        for (ptrdiff_t step = 1; to != m_natural.end() && !natLess(added[i], *to); step *= 2) {
            from = to + 1;
            to = step < m_natural.end() - from ? from + step : m_natural.end();
        }
        from = std::upper_bound(from, to, added[i], natLess);
        at[i] = uint32_t(from - m_natural.begin());
    }
    m_natural.resize(total);
    uint32_t end = known; // old rows before `end` have not moved yet
    for (size_t j = added.size(); j-- > 0;) {
        // Old rows from at[j] on have j + 1 new rows before them.
        std::move_backward(m_natural.begin() + at[j], m_natural.begin() + end,
                           m_natural.begin() + end + long(j) + 1);
        m_natural[at[j] + j] = added[j];
        end = at[j];
    }
    // Ranks are only read to sort by another column: a pass of scattered writes over every
    // row, paid when such a sort needs it rather than at every sync of a growing scan.
    m_rankValid = false;
}

void IndexTableModel::reserveFor(uint32_t total)
{
    // Up to what the source reserved (DBSIZE told it): reserved pages cost nothing until
    // rows land in them, and the per-row vectors never reallocate, which would hold the old
    // and the new copy at once.
    if (m_natural.capacity() >= total && m_rowOf.capacity() >= total)
        return;
    const size_t want =
        std::max({size_t(total), size_t(sourceCapacity()), m_natural.capacity() * 2});
    m_natural.reserve(want);
    m_naturalKey.reserve(want);
    m_rowOf.reserve(want);
    m_rows.reserve(want);
}

void IndexTableModel::ensureRank() const
{
    if (m_rankValid)
        return;
    m_rank.resize(m_natural.size());
    for (uint32_t i = 0; i < m_natural.size(); ++i)
        m_rank[m_natural[i]] = i;
    m_rankValid = true;
}

std::vector<IndexTableModel::Keyed> IndexTableModel::keyedOf(const std::vector<uint32_t> &ids) const
{
    // Descending is ascending over inverted keys and ranks: one comparison either way.
    ensureRank();
    std::vector<Keyed> out(ids.size());
    const bool natural = m_sortColumn == naturalColumn();
    const bool down = m_sortOrder == Qt::DescendingOrder;
    for (size_t i = 0; i < ids.size(); ++i) {
        const quint64 key = natural ? 0 : sortKey(ids[i], m_sortColumn);
        const uint32_t rank = m_rank[ids[i]];
        out[i] = Keyed{down ? ~key : key, down ? ~rank : rank, ids[i]};
    }
    return out;
}

bool IndexTableModel::keyedLess(const Keyed &a, const Keyed &b)
{
    return a.key != b.key ? a.key < b.key : a.rank < b.rank;
}

void IndexTableModel::order(std::vector<uint32_t> &ids) const
{
    if (m_sortColumn < 0)
        return;
    std::vector<Keyed> k = keyedOf(ids);
    std::sort(k.begin(), k.end(), &IndexTableModel::keyedLess);
    for (size_t i = 0; i < k.size(); ++i)
        ids[i] = k[i].id;
}

void IndexTableModel::reindex()
{
    m_rowOf.assign(sourceRows(), -1);
    for (size_t i = 0; i < m_rows.size(); ++i)
        m_rowOf[m_rows[i]] = int32_t(i);
}

std::vector<uint32_t> IndexTableModel::idsInRows(int first, int last) const
{
    std::vector<uint32_t> ids;
    for (int r = qMax(0, first); r <= last && r < int(m_rows.size()); ++r)
        ids.push_back(m_rows[size_t(r)]);
    return ids;
}

void IndexTableModel::rebuild()
{
    beginResetModel();
    if (sourceEpoch() != m_epoch) {
        m_natural.clear();
        m_rank.clear();
        m_rankValid = true;
        m_naturalKey.clear();
    }
    m_epoch = sourceEpoch();
    m_revision = sourceRevision();
    m_known = sourceRows();
    updateNatural(m_known);
    m_rows.clear();
    if (m_sortColumn == naturalColumn()) {
        // Already in order: filter the permutation.
        for (uint32_t id : m_natural)
            if (accepts(id))
                m_rows.push_back(id);
        if (m_sortOrder == Qt::DescendingOrder)
            std::reverse(m_rows.begin(), m_rows.end());
    } else {
        for (uint32_t id = 0; id < m_known; ++id)
            if (accepts(id))
                m_rows.push_back(id);
        order(m_rows);
    }
    reindex();
    endResetModel();
}

void IndexTableModel::relayout(const std::function<void()> &reorder)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> ids;
    ids.reserve(size_t(before.size()));
    for (const QModelIndex &i : before)
        ids.push_back(m_rows[size_t(i.row())]);
    reorder();
    reindex();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(m_rowOf[ids[size_t(i)]], before[i].column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

bool IndexTableModel::sync(uint32_t maxNewRows)
{
    if (sourceEpoch() != m_epoch) {
        rebuild();
        return true;
    }
    const uint32_t total = uint32_t(qMin<quint64>(sourceRows(), quint64(m_known) + maxNewRows));
    const bool caughtUp = total == sourceRows();
    if (caughtUp && sourceRevision() == m_revision)
        return true;
    if (caughtUp)
        m_revision = sourceRevision();
    updateNatural(total);
    std::vector<uint32_t> added;
    for (uint32_t id = m_known; id < total; ++id)
        if (accepts(id))
            added.push_back(id);
    m_known = total;
    if (m_rowOf.size() < total) {
        reserveFor(total);
        m_rowOf.resize(total, -1);
    }
    if (!added.empty()) {
        const size_t old = m_rows.size();
        beginInsertRows({}, int(old), int(old + added.size() - 1));
        m_rows.insert(m_rows.end(), added.begin(), added.end());
        for (size_t i = old; i < m_rows.size(); ++i)
            m_rowOf[m_rows[i]] = int32_t(i);
        endInsertRows();
        if (m_sortColumn == naturalColumn()) {
            // The permutation already holds the order: walk it, keep the rows shown (m_rowOf
            // still says which), rewriting m_rows in place. O(rows), no comparisons at all.
            relayout([this] {
                if (m_rows.size() == m_natural.size()) {
                    m_rows.assign(m_natural.begin(), m_natural.end()); // no filter: a copy
                } else {
                    m_rows.clear();
                    for (uint32_t id : m_natural)
                        if (id < m_rowOf.size() && m_rowOf[id] >= 0)
                            m_rows.push_back(id);
                }
                if (m_sortOrder == Qt::DescendingOrder)
                    std::reverse(m_rows.begin(), m_rows.end());
            });
        } else if (m_sortColumn >= 0) {
            relayout([this, old] {
                // Keys of existing rows are taken afresh: values that changed since the last
                // sort (receipts arriving) may leave them slightly out of order until the next
                // sort; the merge is still a permutation.
                std::vector<Keyed> k = keyedOf(m_rows);
                auto cmp = &IndexTableModel::keyedLess;
                std::sort(k.begin() + long(old), k.end(), cmp);
                std::inplace_merge(k.begin(), k.begin() + long(old), k.end(), cmp);
                for (size_t i = 0; i < k.size(); ++i)
                    m_rows[i] = k[i].id;
            });
        }
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, columnCount() - 1));
    return caughtUp;
}

void IndexTableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    if (column < 0 || m_rows.empty())
        return;
    relayout([this] {
        if (m_sortColumn == naturalColumn()) {
            // The permutation is the order: keep the shown rows in its sequence. O(rows).
            std::vector<uint8_t> shown(m_natural.size(), 0);
            for (uint32_t id : m_rows)
                shown[id] = 1;
            m_rows.clear();
            for (uint32_t id : m_natural)
                if (shown[id])
                    m_rows.push_back(id);
            if (m_sortOrder == Qt::DescendingOrder)
                std::reverse(m_rows.begin(), m_rows.end());
        } else {
            this->order(m_rows);
        }
    });
}

int IndexTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

} // namespace browse
