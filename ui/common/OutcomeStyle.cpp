// SPDX-License-Identifier: GPL-3.0-or-later
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
    return Palette::unknown(); // a kind this switch has not learnt yet needs checking too
}

QColor outcomeTint(OutcomeKind kind)
{
    const QColor c = outcomeColor(kind);
    const QColor paper = Palette::paper();
    // 12% of the colour over the paper.
    const auto mix = [](int over, int on) {
        return on - (on - over) * 12 / 100;
    };
    return QColor(mix(c.red(), paper.red()), mix(c.green(), paper.green()),
                  mix(c.blue(), paper.blue()));
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
