#pragma once

#include "KeysReport.h"
#include "OrderSentence.h"

namespace browse {

// What `inventory-cli order` prints: every receipt of one order with its explanation; a
// receipt expiring within warnWithinMs is flagged (WARNING, "expiring_soon").
QString orderReportText(const KeyspaceStore &store, const QByteArray &orderId,
                        const ScanFacts &facts, qint64 nowMs,
                        qint64 warnWithinMs = DefaultExpiryWarningMs);
QJsonObject orderReportJson(const KeyspaceStore &store, const QByteArray &orderId,
                            const ScanFacts &facts, qint64 nowMs,
                            qint64 warnWithinMs = DefaultExpiryWarningMs);

} // namespace browse
