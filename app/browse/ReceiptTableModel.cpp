// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptTableModel.h"

#include "Cells.h"
#include "ModelRoles.h"
#include "OrderSentence.h"
#include "Values.h"
#include "core/Bytes.h"

#include <QDateTime>
#include <algorithm>

namespace browse {

ReceiptTableModel::ReceiptTableModel(const KeyspaceStore &store, QObject *parent)
    : LocatedTableModel(parent)
    , m_store(store)
    , m_epoch(store.epoch())
    , m_warnWithinMs(DefaultExpiryWarningMs)
{
    static const ColumnHeader columns[] = {
        {QT_TR_NOOP("SKU"), "sku"},
        {QT_TR_NOOP("Order"), "order"},
        {QT_TR_NOOP("Recorded remaining"), "remaining",
         QT_TR_NOOP("The stock left right after this order was deducted, as the receipt "
                    "recorded it.")},
        {QT_TR_NOOP("TTL"), "ttl_ms",
         QT_TR_NOOP("Time until the receipt expires; after that a retry of the order "
                    "deducts again.")},
        {QT_TR_NOOP("Expires at"), "expires_at_utc"},
        {QT_TR_NOOP("Receipt type"), "receipt"},
        {QT_TR_NOOP("Anomalies"), "anomalies"},
    };
    static_assert(std::size(columns) == Slot);
    setPlainColumns(columns);
}

void ReceiptTableModel::setExpiryWarningMs(qint64 ms)
{
    m_warnWithinMs = qMax<qint64>(0, ms);
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, columnCount() - 1));
}

void ReceiptTableModel::setAnomaliesFirst(bool on)
{
    m_anomaliesFirst = on;
    sort(m_sortColumn, m_sortOrder);
}

int ReceiptTableModel::liveCount(qint64 nowMs) const
{
    int n = 0;
    for (uint32_t r : m_rows) {
        const qint64 e = m_store.receiptExpiryMs(r);
        n += m_store.receiptAlive(r) && (e == NoExpiry || e > nowMs);
    }
    return n;
}

int ReceiptTableModel::expiringSoonCount(qint64 nowMs) const
{
    int n = 0;
    for (uint32_t r : m_rows)
        n += m_store.receiptAlive(r)
             && expiresSoon(m_store.receiptExpiryMs(r), nowMs, m_warnWithinMs);
    return n;
}

void ReceiptTableModel::showSku(uint32_t sku)
{
    m_all = false;
    m_sku = sku;
    rebuild();
}

void ReceiptTableModel::showAll()
{
    m_all = true;
    m_sku = KeyspaceStore::None;
    rebuild();
}

std::vector<uint32_t> ReceiptTableModel::collect() const
{
    std::vector<uint32_t> rows;
    if (m_all) {
        for (uint32_t r = 0; r < m_store.receiptRows(); ++r)
            if (m_store.receiptAlive(r))
                rows.push_back(r);
    } else if (m_sku != KeyspaceStore::None && m_sku < m_store.skuCount()) {
        for (uint32_t r = m_store.firstReceiptOf(m_sku); r != KeyspaceStore::None;
             r = m_store.nextReceipt(r))
            rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end(), [this](uint32_t a, uint32_t b) { return less(a, b); });
    return rows;
}

bool ReceiptTableModel::less(uint32_t a, uint32_t b) const
{
    const KeyspaceStore &st = m_store;
    int c = 0;
    auto cmp = [](auto x, auto y) {
        return x == y ? 0 : (x < y ? -1 : 1);
    };
    auto expiry = [&](uint32_t r) {
        return st.receiptExpiryMs(r) == NoExpiry ? std::numeric_limits<qint64>::max()
                                                 : st.receiptExpiryMs(r);
    };
    if (m_anomaliesFirst) {
        // Not reversed by a descending sort: anomalies stay on top either way.
        const bool aOdd = st.receiptAnomalies(a) != 0, bOdd = st.receiptAnomalies(b) != 0;
        if (aOdd != bOdd)
            return aOdd;
    }
    switch (m_sortColumn) {
    case Sku:
        c = naturalCompare(st.skuName(st.skuOfReceipt(a)), st.skuName(st.skuOfReceipt(b)));
        break;
    case Remaining:
        c = cmp(int(st.receiptValue(a)), int(st.receiptValue(b)));
        if (c == 0)
            c = cmp(st.remaining(a), st.remaining(b));
        break;
    case Ttl:
    case ExpiresAt:
        c = cmp(expiry(a), expiry(b));
        break;
    case Kind:
        c = cmp(st.receiptIsHash(a), st.receiptIsHash(b));
        break;
    case Anomalies:
        c = cmp(st.receiptAnomalies(a), st.receiptAnomalies(b));
        break;
    case Node:
    case Slot:
        c = cmp(locatedSortKey(m_sortColumn, st.receiptKey(a)),
                locatedSortKey(m_sortColumn, st.receiptKey(b)));
        break;
    default:
        break;
    }
    if (c == 0)
        c = naturalCompare(st.orderId(a), st.orderId(b));
    if (c == 0)
        c = naturalCompare(st.skuName(st.skuOfReceipt(a)), st.skuName(st.skuOfReceipt(b)));
    return m_sortOrder == Qt::AscendingOrder ? c < 0 : c > 0;
}

void ReceiptTableModel::rebuild()
{
    beginResetModel();
    m_epoch = m_store.epoch();
    m_revision = m_store.revision();
    if (m_sku >= m_store.skuCount())
        m_sku = KeyspaceStore::None; // the store was cleared under us
    m_rows = collect();
    endResetModel();
}

void ReceiptTableModel::sync()
{
    if (m_store.epoch() != m_epoch) {
        m_sku = KeyspaceStore::None;
        rebuild();
        return;
    }
    if (m_store.revision() == m_revision)
        return;
    m_revision = m_store.revision();
    std::vector<uint32_t> now = collect();
    if (now == m_rows) {
        if (!m_rows.empty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, columnCount() - 1));
        return;
    }
    if (now.size() != m_rows.size()) {
        rebuild(); // receipts came or went: a few rows of one SKU, a reset costs nothing
        return;
    }
    // Same number, new order (an expiry moved): keep the selection on the same receipts.
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    for (const QModelIndex &i : before) {
        const auto it = std::find(now.begin(), now.end(), m_rows[size_t(i.row())]);
        after << (it == now.end() ? QModelIndex() : createIndex(int(it - now.begin()), i.column()));
    }
    m_rows = std::move(now);
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

void ReceiptTableModel::tick()
{
    if (!m_rows.empty())
        emit dataChanged(index(0, Ttl), index(int(m_rows.size()) - 1, Ttl), {Qt::DisplayRole});
}

void ReceiptTableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> ids;
    for (const QModelIndex &i : before)
        ids.push_back(m_rows[size_t(i.row())]);
    std::sort(m_rows.begin(), m_rows.end(), [this](uint32_t a, uint32_t b) { return less(a, b); });
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i) {
        const auto it = std::find(m_rows.begin(), m_rows.end(), ids[size_t(i)]);
        after << createIndex(int(it - m_rows.begin()), before[i].column());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int ReceiptTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ReceiptTableModel::displayData(int column, uint32_t r) const
{
    const KeyspaceStore &st = m_store;
    const qint64 expiry = st.receiptExpiryMs(r);
    switch (column) {
    case Sku:
        return core::escapeBytes(st.skuName(st.skuOfReceipt(r)).toByteArray(), DisplayBytes);
    case Order:
        return core::escapeBytes(st.orderId(r).toByteArray(), DisplayBytes);
    case Remaining:
        return remainingText(st, r);
    case Ttl: {
        const qint64 now = modelNowMs();
        return expiresSoon(expiry, now, m_warnWithinMs) ? tr("%1 (soon)").arg(ttlText(expiry, now))
                                                        : ttlText(expiry, now);
    }
    case ExpiresAt:
        return expiry == NoExpiry ? tr("never") : formatExpiry(expiry);
    case Kind:
        return receiptKindText(st, r);
    case Anomalies:
        return anomalyShortText(st.receiptAnomalies(r));
    }
    return {};
}

QVariant ReceiptTableModel::exportData(int column, uint32_t r) const
{
    const KeyspaceStore &st = m_store;
    const qint64 expiry = st.receiptExpiryMs(r);
    switch (column) {
    case Sku:
        return st.skuName(st.skuOfReceipt(r)).toByteArray();
    case Order:
        return st.orderId(r).toByteArray();
    case Remaining: // a value, or none: a hash without the field, or another type (kind)
        if (st.receiptValue(r) == ReceiptValue::Integer)
            return st.remaining(r);
        return st.receiptValue(r) == ReceiptValue::NotInteger ? QVariant(st.receiptRaw(r))
                                                              : noExportValue();
    case Ttl:
        return expiry == NoExpiry ? qint64(-1) : qMax<qint64>(0, expiry - modelNowMs());
    case ExpiresAt:
        return expiry == NoExpiry
                   ? QVariant()
                   : QVariant(
                       QDateTime::fromMSecsSinceEpoch(expiry, Qt::UTC).toString(Qt::ISODateWithMs));
    case Kind:
        return receiptKindText(st, r);
    case Anomalies:
        return anomalyShortText(st.receiptAnomalies(r));
    }
    return {};
}

QVariant ReceiptTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const uint32_t r = m_rows[size_t(index.row())];
    const KeyspaceStore &st = m_store;
    if (index.column() >= Slot && isLocatedRole(role))
        return locatedData(index.column(), st.receiptKey(r), role);
    const qint64 expiry = st.receiptExpiryMs(r);
    switch (role) {
    case Qt::DisplayRole:
        return displayData(index.column(), r);
    case Qt::ToolTipRole:
        if (index.column() == Kind)
            return receiptKindText(st, r);
        if ((index.column() == Ttl || index.column() == ExpiresAt)
            && expiresSoon(expiry, modelNowMs(), m_warnWithinMs))
            return tr("Expires soon: a retry of this order is safe only until %1; after that "
                      "it deducts again.")
                .arg(formatExpiry(expiry));
        return core::escapeBytes(st.receiptKey(r));
    case ExpiringSoonRole:
        return (index.column() == Ttl || index.column() == ExpiresAt)
               && expiresSoon(expiry, modelNowMs(), m_warnWithinMs);
    case Qt::TextAlignmentRole:
        if (index.column() == Remaining || index.column() == Ttl)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case RawBytesRole:
        if (index.column() == Sku)
            return st.skuName(st.skuOfReceipt(r)).toByteArray();
        if (index.column() == Order)
            return st.orderId(r).toByteArray();
        if (index.column() == Remaining)
            return st.receiptValue(r) == ReceiptValue::Integer ? QByteArray::number(st.remaining(r))
                                                               : st.receiptRaw(r);
        break;
    case ExportRole:
        return exportData(index.column(), r);
    case KeyRole:
        return st.receiptKey(r);
    case ExpiryRole:
        return expiry;
    case AnomalyRole:
        return int(st.receiptAnomalies(r));
    }
    return {};
}

} // namespace browse
