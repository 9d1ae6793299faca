// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// inventory-cli release/adjust output: a repair's result as JSON (--json) and as text.

#include "inventory/Repairer.h"

#include <QJsonObject>

class QTextStream;

namespace cli {

QJsonObject repairJson(const inventory::RepairResult &r,
                       const std::optional<inventory::RepairSettlement> &settlement,
                       const QString &auditPath);
void printRepairText(QTextStream &out, const inventory::RepairResult &r,
                     const std::optional<inventory::RepairSettlement> &settlement,
                     const QString &auditPath);

} // namespace cli
