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
    // Named shades rather than a mix with the paper: each is one of the palette's, with its
    // dark counterpart, so that a theme switch re-tints a card already on screen.
    switch (kind) {
    case OutcomeKind::Deducted:
        return Palette::okTint();
    case OutcomeKind::AlreadyApplied:
        return Palette::infoTint();
    case OutcomeKind::Insufficient:
    case OutcomeKind::StockMissing:
        return Palette::warningTint();
    case OutcomeKind::Rejected:
        return Palette::errorTint();
    case OutcomeKind::MayHaveWritten:
    case OutcomeKind::Unknown:
        return Palette::unknownTint();
    case OutcomeKind::NotSent:
        return Palette::idleTint();
    }
    return Palette::unknownTint();
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
