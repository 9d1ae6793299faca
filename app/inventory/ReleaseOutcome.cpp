// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReleaseOutcome.h"

namespace inventory {

RepairOutcome decodeReleaseReply(const redis::ReplyResult &result, qint64 quantity)
{
    return decodeRepairReply(
        RepairKind::Release, result, [quantity](qint64 code) -> std::optional<RepairCodeRule> {
            switch (code) {
            case 1: // INCRBY of a stock that stays within the bound
                return RepairCodeRule{
                    RepairOutcomeKind::Applied, quantity, MaxStockValue,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the stock after"))};
            case 2:
                return RepairCodeRule{
                    RepairOutcomeKind::AlreadyApplied, -1, MaxStockValue,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the current stock"))};
            case -4:
                return RepairCodeRule{
                    RepairOutcomeKind::NoReceipt, 0, 0,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the value"))};
            case -3:
                return RepairCodeRule{RepairOutcomeKind::OtherQuantity, 1, MaxQuantity,
                                      repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome",
                                                                   "the recorded quantity")),
                                      quantity};
            case -2:
                return RepairCodeRule{
                    RepairOutcomeKind::StockMissing, 0, 0,
                    repairSaid(QT_TRANSLATE_NOOP("inventory::RepairOutcome", "the value"))};
            }
            return std::nullopt;
        });
}

} // namespace inventory
