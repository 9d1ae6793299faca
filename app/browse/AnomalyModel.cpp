// SPDX-License-Identifier: GPL-3.0-or-later
#include "AnomalyModel.h"

#include "Cells.h"
#include "ModelRoles.h"
#include "StringPool.h"
#include "core/Bytes.h"

#include <algorithm>

namespace browse {

AnomalyModel::AnomalyModel(const KeyspaceStore &store, QObject *parent)
    : LocatedTableModel(parent)
    , m_store(store)
{
    static const ColumnHeader columns[] = {
        {QT_TR_NOOP("Anomaly"), "anomaly"},
        {QT_TR_NOOP("Key"), "key"},
        {QT_TR_NOOP("Why it matters"), "detail"},
    };
    static_assert(std::size(columns) == Slot);
    setPlainColumns(columns);
    sync();
}

std::vector<AnomalyModel::Entry> AnomalyModel::collect() const
{
    std::vector<Entry> out;
    const uint8_t wanted = m_filter ? m_filter : 0xFF;
    for (uint32_t s = 0; s < m_store.skuCount(); ++s)
        if (const uint8_t a = m_store.skuAnomalies(s) & wanted)
            for (int k = 0; k < AnomalyKinds; ++k)
                if (a & anomalyAt(k))
                    out.push_back(Entry{anomalyAt(k), false, s});
    for (uint32_t r = 0; r < m_store.receiptRows(); ++r)
        if (const uint8_t a = m_store.receiptAnomalies(r) & wanted)
            for (int k = 0; k < AnomalyKinds; ++k)
                if (a & anomalyAt(k))
                    out.push_back(Entry{anomalyAt(k), true, r});
    // By class, then SKU, then order: the list reads as groups.
    std::sort(out.begin(), out.end(), [this](const Entry &x, const Entry &y) {
        if (x.kind != y.kind)
            return x.kind < y.kind;
        const uint32_t sx = x.receipt ? m_store.skuOfReceipt(x.id) : x.id;
        const uint32_t sy = y.receipt ? m_store.skuOfReceipt(y.id) : y.id;
        if (const int c = naturalCompare(m_store.skuName(sx), m_store.skuName(sy)))
            return c < 0;
        if (x.receipt && y.receipt)
            return naturalCompare(m_store.orderId(x.id), m_store.orderId(y.id)) < 0;
        return x.id < y.id;
    });
    return out;
}

void AnomalyModel::sync()
{
    if (m_store.epoch() == m_epoch && m_store.revision() == m_revision)
        return;
    std::vector<Entry> now = collect();
    const bool same =
        m_store.epoch() == m_epoch && now.size() == m_rows.size()
        && std::equal(now.begin(), now.end(), m_rows.begin(), [](const Entry &a, const Entry &b) {
               return a.kind == b.kind && a.id == b.id && a.receipt == b.receipt;
           });
    m_epoch = m_store.epoch();
    m_revision = m_store.revision();
    if (same) {
        if (!m_rows.empty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_rows = std::move(now);
    endResetModel();
}

void AnomalyModel::setKindFilter(uint8_t bits)
{
    m_filter = bits;
    beginResetModel();
    m_rows = collect();
    endResetModel();
}

uint32_t AnomalyModel::skuOf(int row) const
{
    const Entry &e = m_rows[size_t(row)];
    return e.receipt ? m_store.skuOfReceipt(e.id) : e.id;
}

int AnomalyModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant AnomalyModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Entry &e = m_rows[size_t(index.row())];
    const QByteArray key = e.receipt ? m_store.receiptKey(e.id) : m_store.stockKey(e.id);
    if (index.column() >= Slot && isLocatedRole(role))
        return locatedData(index.column(), key, role);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Kind:
            return anomalyName(e.kind);
        case Key:
            return core::escapeBytes(key, role == Qt::DisplayRole ? DisplayBytes : 0);
        case Detail:
            return anomalyDetail(m_store, e.kind, e.id);
        }
        break;
    case RawBytesRole:
    case KeyRole:
        return key;
    case ExportRole:
        if (index.column() == Key)
            return key;
        return data(index, Qt::DisplayRole);
    case AnomalyRole:
        return int(e.kind);
    }
    return {};
}

} // namespace browse
