// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/TitledTableModel.h"
#include "reconcile/Reconciler.h"

namespace ui {

// Per SKU: what Redis holds (stock, receipts and their units) against what the ledger
// committed in scope. A stock that was not read says why, never 0; a SKU whose receipts do
// not all record a quantity is "not proven", never "balanced".
class SkuBalanceModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column {
        SkuColumn,
        StockColumn,
        ReceiptsColumn,
        ReceiptUnitsColumn,
        OrdersColumn,
        CommittedColumn,
        BalanceColumn
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit SkuBalanceModel(QObject *parent = nullptr);
    void setBalances(std::vector<reconcile::SkuBalance> balances);
    const std::vector<reconcile::SkuBalance> &balances() const { return m_balances; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    std::vector<reconcile::SkuBalance> m_balances;
};

// "balanced", "short by 2: receipts hold 5 units, the ledger committed 7", "not proven: 3
// receipts record no quantity". One text for the table and the exports.
QString balanceText(const reconcile::SkuBalance &b);
QString stockText(const reconcile::SkuBalance &b);

} // namespace ui
