// SPDX-License-Identifier: GPL-3.0-or-later
#include "SkuTableModel.h"

#include "Cells.h"
#include "Glob.h"
#include "ModelRoles.h"
#include "OrderSentence.h"
#include "Values.h"
#include "core/Bytes.h"

#include <QDateTime>
#include <algorithm>

namespace browse {

namespace {

// Stock sorts by value; strings that are not integers after all integers, then the wrong
// type, then missing.
int stockRank(const KeyspaceStore &st, uint32_t s)
{
    switch (st.stockState(s)) {
    case StockState::Integer:
        return 0;
    case StockState::NotInteger:
        return 1;
    case StockState::WrongType:
        return 2;
    default:
        return 3;
    }
}

// No TTL (or none at all) sorts after every real expiry.
quint64 expiryKey(qint64 e)
{
    return e == NoExpiry ? std::numeric_limits<quint64>::max() : quint64(e);
}

} // namespace

SkuTableModel::SkuTableModel(const KeyspaceStore &store, QObject *parent)
    : IndexTableModel(parent)
    , m_store(store)
    , m_warnWithinMs(DefaultExpiryWarningMs)
{
    static const ColumnHeader columns[] = {
        {QT_TR_NOOP("SKU"), "sku"},
        {QT_TR_NOOP("Stock"), "stock"},
        {QT_TR_NOOP("Stock TTL"), "stock_ttl_ms",
         QT_TR_NOOP("Time left on the stock key. Stock should never expire: 'none' is right.")},
        {QT_TR_NOOP("Receipts"), "receipts",
         QT_TR_NOOP("Idempotency receipts (one per deducted order) still held for this SKU.")},
        {QT_TR_NOOP("Soonest receipt expiry"), "soonest_receipt_expiry_utc",
         QT_TR_NOOP("Time until this SKU's first receipt expires; after that, a retry of "
                    "that order would deduct again.")},
        {QT_TR_NOOP("Anomalies"), "anomalies"},
    };
    static_assert(std::size(columns) == Slot);
    setPlainColumns(columns);
    setDefaultSort(Sku);
    rebuild();
}

bool SkuTableModel::accepts(uint32_t s) const
{
    if (!m_store.stockPresent(s) && m_store.receiptCountOf(s) == 0)
        return false;
    if (!m_filter.isEmpty()) {
        const QByteArrayView name = m_store.skuName(s);
        if (m_filterIsGlob ? !globMatch(m_filter, name) : !name.contains(m_filter))
            return false;
    }
    return !m_anomaliesOnly || rowAnomalies(s) != 0;
}

uint8_t SkuTableModel::rowAnomalies(uint32_t s) const
{
    uint8_t a = m_store.skuAnomalies(s);
    for (uint32_t r = m_store.firstReceiptOf(s); r != KeyspaceStore::None;
         r = m_store.nextReceipt(r))
        a |= m_store.receiptAnomalies(r);
    return a;
}

int SkuTableModel::naturalCompare(uint32_t a, uint32_t b) const
{
    return browse::naturalCompare(m_store.skuName(a), m_store.skuName(b));
}

quint64 SkuTableModel::sortKey(uint32_t s, int column) const
{
    const KeyspaceStore &st = m_store;
    switch (column) {
    case Stock: {
        // Integers by value, then strings that are not integers, the wrong type, missing.
        const int rank = stockRank(st, s);
        if (rank != 0)
            return ~quint64(0) - quint64(3 - rank);
        return signedKey(qBound<qint64>(-(qint64(1) << 62), st.stockValue(s), qint64(1) << 62));
    }
    case StockTtl:
        return expiryKey(st.stockExpiryMs(s));
    case Receipts:
        return st.receiptCountOf(s);
    case SoonestExpiry:
        return quint64(st.soonestReceiptExpiryMs(s));
    case Anomalies:
        return rowAnomalies(s);
    case Node:
    case Slot:
        return locatedSortKey(column, st.stockKey(s));
    }
    return 0;
}

void SkuTableModel::setFilter(const QByteArray &skuFilter, bool anomaliesOnly)
{
    m_filter = skuFilter;
    m_filterIsGlob = skuFilter.contains('*') || skuFilter.contains('?') || skuFilter.contains('[');
    m_anomaliesOnly = anomaliesOnly;
    rebuild();
}

void SkuTableModel::setExpiryWarningMs(qint64 ms)
{
    m_warnWithinMs = qMax<qint64>(0, ms);
    tick();
}

void SkuTableModel::tick()
{
    if (rowCount() == 0)
        return;
    const int last = rowCount() - 1;
    emit dataChanged(index(0, StockTtl), index(last, StockTtl), {Qt::DisplayRole});
    emit dataChanged(index(0, SoonestExpiry), index(last, SoonestExpiry), {Qt::DisplayRole});
}

QVariant SkuTableModel::displayData(int column, uint32_t s) const
{
    const KeyspaceStore &st = m_store;
    const qint64 now = modelNowMs();
    const qint64 soonest = st.soonestReceiptExpiryMs(s);
    switch (column) {
    case Sku:
        return core::escapeBytes(st.skuName(s).toByteArray(), DisplayBytes);
    case Stock:
        return stockText(st, s);
    case StockTtl:
        return st.stockPresent(s) ? ttlText(st.stockExpiryMs(s), now) : QString();
    case Receipts:
        return st.receiptCountOf(s);
    case SoonestExpiry:
        return soonest == NoReceiptExpiry ? QString() : ttlText(soonest, now);
    case Anomalies:
        return anomalyShortText(rowAnomalies(s));
    }
    return {};
}

QVariant SkuTableModel::exportData(int column, uint32_t s) const
{
    const KeyspaceStore &st = m_store;
    const qint64 soonest = st.soonestReceiptExpiryMs(s);
    switch (column) {
    case Sku:
        return st.skuName(s).toByteArray();
    case Stock: // a value, or none (an empty cell, JSON null): no string key holds one
        if (st.stockState(s) == StockState::Integer)
            return st.stockValue(s);
        if (st.stockState(s) == StockState::NotInteger)
            return st.stockRaw(s);
        return noExportValue(); // missing, not read yet, or another type: see the anomalies
    case StockTtl:              // milliseconds left; -1 no TTL; empty when there is no stock key
        return !st.stockPresent(s) ? QVariant()
               : st.stockExpiryMs(s) == NoExpiry
                   ? QVariant(qint64(-1))
                   : QVariant(qMax<qint64>(0, st.stockExpiryMs(s) - modelNowMs()));
    case Receipts:
        return st.receiptCountOf(s);
    case SoonestExpiry: // ISO 8601 UTC
        return soonest == NoReceiptExpiry
                   ? QVariant()
                   : QVariant(QDateTime::fromMSecsSinceEpoch(soonest, Qt::UTC)
                                  .toString(Qt::ISODateWithMs));
    case Anomalies:
        return anomalyShortText(rowAnomalies(s));
    }
    return {};
}

QVariant SkuTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const uint32_t s = idAt(index.row());
    const KeyspaceStore &st = m_store;
    if (index.column() >= Slot && isLocatedRole(role))
        return locatedData(index.column(), st.stockKey(s), role);
    const qint64 now = modelNowMs();
    const qint64 soonest = st.soonestReceiptExpiryMs(s);
    switch (role) {
    case Qt::DisplayRole:
        return displayData(index.column(), s);
    case ExpiringSoonRole:
        return index.column() == SoonestExpiry && soonest != NoReceiptExpiry
               && expiresSoon(soonest, now, m_warnWithinMs);
    case Qt::ToolTipRole:
        if (index.column() == SoonestExpiry && soonest != NoReceiptExpiry)
            return expiresSoon(soonest, now, m_warnWithinMs)
                       ? tr("%1: expires soon, and a retry of its order after that deducts "
                            "again")
                             .arg(formatExpiry(soonest))
                       : formatExpiry(soonest);
        if (index.column() == StockTtl && st.stockExpiryMs(s) != NoExpiry)
            return formatExpiry(st.stockExpiryMs(s));
        if (index.column() == Sku)
            return core::escapeBytes(st.stockKey(s));
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == Stock || index.column() == Receipts)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case RawBytesRole:
        if (index.column() == Sku)
            return st.skuName(s).toByteArray();
        if (index.column() == Stock && st.stockState(s) == StockState::NotInteger)
            return st.stockRaw(s);
        if (index.column() == Stock && st.stockState(s) == StockState::Integer)
            return QByteArray::number(st.stockValue(s));
        break;
    case ExportRole:
        return exportData(index.column(), s);
    case KeyRole:
        return st.stockKey(s);
    case ExpiryRole: // of the stock key; NoExpiry also when there is none
        return st.stockPresent(s) ? st.stockExpiryMs(s) : NoExpiry;
    case AnomalyRole:
        return int(rowAnomalies(s));
    }
    return {};
}

} // namespace browse
