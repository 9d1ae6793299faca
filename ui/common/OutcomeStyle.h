// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionOutcome.h"

#include <QColor>
#include <QIdentityProxyModel>

namespace ui {

// One colour per deduction outcome, used by the result card and the history table:
// green deducted, blue already applied, amber insufficient / stock missing, red rejected,
// purple outcome unknown or an error that may have written (the ones that need a person),
// grey not sent.
QColor outcomeColor(inventory::OutcomeKind kind);
// A pale tint of the same hue (a dark one in the dark variant), for backgrounds.
QColor outcomeTint(inventory::OutcomeKind kind);

// Colours the Outcome column of a DeductionHistory (read through its OutcomeKindRole).
class HistoryColorProxy : public QIdentityProxyModel
{
    Q_OBJECT
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
};

} // namespace ui
