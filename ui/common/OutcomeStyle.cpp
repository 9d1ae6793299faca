#include "OutcomeStyle.h"

#include "Palette.h"

#include "inventory/DeductionHistory.h"

namespace ui {

using inventory::OutcomeKind;

QColor outcomeColor(OutcomeKind kind)
{
    switch (kind) {
    case OutcomeKind::Deducted:
        return Palette::ok();
    case OutcomeKind::AlreadyApplied:
        return Palette::applied();
    case OutcomeKind::Insufficient:
    case OutcomeKind::StockMissing:
        return Palette::warning();
    case OutcomeKind::Rejected:
        return Palette::error();
    case OutcomeKind::MayHaveWritten: // as unknown: what happened needs checking
    case OutcomeKind::Unknown:
        return Palette::unknown();
    case OutcomeKind::NotSent:
        return Palette::muted();
    }
    return Qt::black;
}

QColor outcomeTint(OutcomeKind kind)
{
    const QColor c = outcomeColor(kind);
    // 12% of the colour over white.
    return QColor(255 - (255 - c.red()) * 12 / 100, 255 - (255 - c.green()) * 12 / 100,
                  255 - (255 - c.blue()) * 12 / 100);
}

QVariant HistoryColorProxy::data(const QModelIndex &index, int role) const
{
    if (index.column() == inventory::DeductionHistory::Outcome && role == Qt::ForegroundRole) {
        const auto kind = OutcomeKind(
            QIdentityProxyModel::data(index, inventory::DeductionHistory::OutcomeKindRole).toInt());
        return outcomeColor(kind);
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace ui
