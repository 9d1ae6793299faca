#pragma once

#include "KeysReport.h"

namespace browse {

// What `inventory-cli order` prints: every receipt of one order with its sentence.
QString orderReportText(const KeyspaceStore &store, const QByteArray &orderId,
                        const ScanFacts &facts, qint64 nowMs);
QJsonObject orderReportJson(const KeyspaceStore &store, const QByteArray &orderId,
                            const ScanFacts &facts, qint64 nowMs);

} // namespace browse
