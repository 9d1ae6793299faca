// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Deducer.h"
#include "core/TitledTableModel.h"

#include <vector>

namespace inventory {

// The deductions of this session, newest last, each with its latest re-check. A table model
// over a plain vector; views colour rows by OutcomeKindRole.
class DeductionHistory : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Mode, Sku, Order, Quantity, Outcome, Value, Check, ColumnCount };
    enum Role { OutcomeKindRole = Qt::UserRole + 1, EntryIdRole };

    struct Entry
    {
        int id = 0;
        DeductionResult result;
        std::optional<ReceiptStatus> receiptCheck; // Function mode
        std::optional<KeyReading> stockCheck;      // Script mode
        QDateTime checkedLocal;
        QString checkSummary; // what the last re-check said, in short
        // What the receipt check means for this call. No receipt is never "did not happen":
        // the receipt can have expired or been evicted, or the decrement run without it.
        QString receiptVerdict() const;
    };

    explicit DeductionHistory(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    int add(const DeductionResult &result); // returns the entry id
    void setReceiptCheck(int id, const ReceiptStatus &status);
    void setStockCheck(int id, const KeyReading &reading);
    const Entry *entry(int id) const;
    const Entry *entryAt(int row) const;
    int rowOf(int id) const; // -1 when unknown

private:
    std::vector<Entry> m_entries;
    int m_nextId = 1;
};

} // namespace inventory
