// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionHistory.h"

#include "RetryProtection.h"
#include "core/Bytes.h"

namespace inventory {

DeductionHistory::DeductionHistory(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Time"), QT_TR_NOOP("Mode"), QT_TR_NOOP("SKU"),
                        QT_TR_NOOP("Order"), QT_TR_NOOP("Qty"), QT_TR_NOOP("Outcome"),
                        QT_TR_NOOP("Remaining / stock"), QT_TR_NOOP("Last check")},
                       parent)
{}

int DeductionHistory::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant DeductionHistory::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return {};
    const Entry &e = m_entries[size_t(index.row())];
    const DeductionResult &r = e.result;
    if (role == OutcomeKindRole)
        return int(r.outcome.kind);
    if (role == EntryIdRole)
        return e.id;
    if (role == Qt::ToolTipRole && index.column() == Check)
        return e.receiptCheck ? e.receiptVerdict() : e.checkSummary;
    if (role == Qt::ToolTipRole && index.column() == Outcome)
        return resultMeaning(r);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time:
        return r.startedUtc.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    case Mode:
        return r.plan.request.mode == DeductionMode::Function ? tr("Function") : tr("Script");
    case Sku:
        return core::escapeBytes(r.plan.request.sku, 40);
    case Order:
        return core::escapeBytes(r.plan.request.orderId, 40);
    case Quantity:
        return QString::fromLatin1(r.plan.request.quantity);
    case Outcome:
        return outcomeTitle(r.outcome.kind);
    case Value:
        if (r.outcome.remaining)
            return tr("remaining %1").arg(*r.outcome.remaining);
        if (r.outcome.stock)
            return tr("stock %1").arg(*r.outcome.stock);
        return QString();
    case Check:
        if (e.checkSummary.isEmpty())
            return tr("not checked");
        return tr("%1 at %2")
            .arg(e.checkSummary, e.checkedLocal.toString(QStringLiteral("HH:mm:ss")));
    }
    return {};
}

int DeductionHistory::add(const DeductionResult &result)
{
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    Entry e;
    e.id = m_nextId++;
    e.result = result;
    m_entries.push_back(std::move(e));
    endInsertRows();
    // The receipt read just after the call is its first check.
    if (result.receiptAfter && result.receiptAfter->ok())
        setReceiptCheck(m_entries.back().id, *result.receiptAfter);
    return m_entries.back().id;
}

QString DeductionHistory::Entry::receiptVerdict() const
{
    return receiptCheck ? inventory::receiptVerdict(result, *receiptCheck) : QString();
}

void DeductionHistory::setReceiptCheck(int id, const ReceiptStatus &status)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    Entry &e = m_entries[size_t(row)];
    e.receiptCheck = status;
    e.checkedLocal = status.checkedUtc.isValid() ? status.checkedUtc.toLocalTime()
                                                 : QDateTime::currentDateTime();
    const OutcomeKind k = e.result.outcome.kind;
    const bool mayHaveWritten = k == OutcomeKind::MayHaveWritten;
    // This call's own reply said a receipt stood behind it: it is gone, so a retry deducts.
    const bool gone = k == OutcomeKind::Deducted || k == OutcomeKind::AlreadyApplied;
    // Short, for the table's column; the tooltip gives the whole verdict. Absence is not proof
    // that the deduction did not happen: the receipt can have expired or been evicted.
    e.checkSummary = !status.ok()     ? tr("check failed")
                     : status.exists  ? tr("happened; receipt TTL %1").arg(status.ttlText())
                     : mayHaveWritten ? tr("no receipt; the call may have written")
                     : gone           ? tr("receipt gone: a retry deducts")
                                      : tr("no receipt found");
    emit dataChanged(index(row, Check), index(row, Check));
}

void DeductionHistory::setStockCheck(int id, const KeyReading &reading)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    Entry &e = m_entries[size_t(row)];
    e.stockCheck = reading;
    e.checkedLocal = QDateTime::currentDateTime();
    e.checkSummary = tr("stock now %1").arg(reading.text());
    emit dataChanged(index(row, Check), index(row, Check));
}

const DeductionHistory::Entry *DeductionHistory::entry(int id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : &m_entries[size_t(row)];
}

const DeductionHistory::Entry *DeductionHistory::entryAt(int row) const
{
    return row >= 0 && row < int(m_entries.size()) ? &m_entries[size_t(row)] : nullptr;
}

int DeductionHistory::rowOf(int id) const
{
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].id == id)
            return int(i);
    return -1;
}

} // namespace inventory
