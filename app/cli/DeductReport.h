// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// inventory-cli deduct's output: a deduction's result and a receipt check as JSON (--json), and
// the result as text.

#include "inventory/Deducer.h"

#include <QJsonObject>

class QTextStream;

namespace cli {

// A plan's problems as one line, each under the option a person typed (a key problem under
// --sku): "nothing sent: --quantity: ...; --ttl: ...". Shared by deduct, release and adjust.
QString planProblemsLine(const QList<inventory::FieldProblem> &problems);

QJsonObject receiptJson(const inventory::ReceiptStatus &s);
QJsonObject resultJson(const inventory::DeductionResult &r, const QString &auditPath);
void printResultText(QTextStream &out, const inventory::DeductionResult &r,
                     const inventory::DeductionContext &ctx);

} // namespace cli
