// SPDX-License-Identifier: GPL-3.0-or-later
#include "AdjustOutcome.h"

#include <algorithm>

namespace inventory {

RepairOutcome decodeAdjustReply(const redis::ReplyResult &result, qint64 delta)
{
    return decodeRepairReply(
        RepairKind::Adjust, result, [delta](qint64 code) -> std::optional<RepairCodeRule> {
            switch (code) {
            case 1:
                return RepairCodeRule{
                    RepairOutcomeKind::Applied, std::max<qint64>(0, delta),
                    std::min(MaxStockValue, MaxStockValue + delta),
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the stock after"))};
            case 2:
                return RepairCodeRule{
                    RepairOutcomeKind::AlreadyApplied, -1, MaxStockValue,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the current stock"))};
            case 0: // only a stock the delta would take below 0 or above the bound
                return delta < 0
                           ? RepairCodeRule{RepairOutcomeKind::OutOfBounds, 0, -delta - 1,
                                            repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                                         "the stock"))}
                           : RepairCodeRule{RepairOutcomeKind::OutOfBounds,
                                            MaxStockValue - delta + 1, MaxStockValue,
                                            repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                                         "the stock"))};
            case -2:
                return RepairCodeRule{
                    RepairOutcomeKind::StockMissing, 0, 0,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the value"))};
            }
            return std::nullopt;
        });
}

} // namespace inventory
