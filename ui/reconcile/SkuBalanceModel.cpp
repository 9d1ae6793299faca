// SPDX-License-Identifier: GPL-3.0-or-later
#include "SkuBalanceModel.h"

#include "ui/common/Palette.h"

namespace ui {

QString balanceText(const reconcile::SkuBalance &b)
{
    if (b.receiptsWithoutQuantity > 0)
        return QObject::tr("not proven: %n receipt(s) record no quantity", nullptr,
                           int(b.receiptsWithoutQuantity));
    if (b.balanced())
        return QObject::tr("balanced");
    const qint64 d = b.receiptUnits - b.committedUnits;
    return QObject::tr("receipts hold %1 units, the ledger committed %2 (%3%4)")
        .arg(b.receiptUnits)
        .arg(b.committedUnits)
        .arg(d > 0 ? QStringLiteral("+") : QString())
        .arg(d);
}

QString stockText(const reconcile::SkuBalance &b)
{
    return b.stockKnown ? QString::number(b.stock)
                        : QObject::tr("unknown (%1)").arg(b.stockProblem);
}

SkuBalanceModel::SkuBalanceModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("SKU"), QT_TR_NOOP("Stock"), QT_TR_NOOP("Receipts"),
                        QT_TR_NOOP("Receipted units"), QT_TR_NOOP("Committed orders"),
                        QT_TR_NOOP("Committed units"), QT_TR_NOOP("Receipts against ledger")},
                       parent)
{}

void SkuBalanceModel::setBalances(std::vector<reconcile::SkuBalance> balances)
{
    beginResetModel();
    m_balances = std::move(balances);
    endResetModel();
}

int SkuBalanceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_balances.size());
}

QVariant SkuBalanceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const reconcile::SkuBalance &b = m_balances[size_t(index.row())];
    const auto number = [&]() -> std::optional<qint64> {
        switch (index.column()) {
        case StockColumn:
            return b.stockKnown ? std::optional<qint64>(b.stock) : std::nullopt;
        case ReceiptsColumn:
            return b.receipts;
        case ReceiptUnitsColumn:
            return b.receiptUnits;
        case OrdersColumn:
            return b.committedOrders;
        case CommittedColumn:
            return b.committedUnits;
        }
        return std::nullopt;
    };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        if (index.column() == SkuColumn)
            return QString::fromUtf8(b.sku);
        if (index.column() == StockColumn)
            return stockText(b);
        if (index.column() == BalanceColumn)
            return balanceText(b);
        return number() ? QVariant(*number()) : QVariant();
    case SortRole:
        if (const auto n = number())
            return *n;
        return data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
        if (index.column() == BalanceColumn && !b.balanced())
            return Palette::error();
        if (index.column() == StockColumn && !b.stockKnown)
            return Palette::muted();
        return {};
    case Qt::TextAlignmentRole:
        return number() || index.column() == StockColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    }
    return {};
}

} // namespace ui
