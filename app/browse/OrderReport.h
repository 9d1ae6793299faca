// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeysReport.h"
#include "OrderSentence.h"

namespace browse {

// What the order's sentences rest on: the server evidence of each receipt found (read from
// the node holding it), or, when none was found, of every node searched.
struct OrderEvidence
{
    QHash<uint32_t, ServerEvidence> byReceipt;
    QList<ServerEvidence> nodes;
    QString auditNote; // orderAuditNote(), when no receipt was found
};

// Reads the evidence (blocking, for the CLI): one INFO at the node of each receipt found, or
// at every node searched when there is none.
OrderEvidence readOrderEvidence(redis::CommandSender &sender, const KeyspaceStore &store,
                                int timeoutMs);

// What `inventory-cli order` prints: every receipt of one order with its explanation; a
// receipt expiring within warnWithinMs is flagged (WARNING, "expiring_soon").
QString orderReportText(const KeyspaceStore &store, const QByteArray &orderId,
                        const ScanFacts &facts, const OrderEvidence &evidence, qint64 nowMs,
                        qint64 warnWithinMs = DefaultExpiryWarningMs);
// The same as JSON; each receipt's "retry_safety" is {verdict, until_ms, reasons, server}.
QJsonObject orderReportJson(const KeyspaceStore &store, const QByteArray &orderId,
                            const ScanFacts &facts, const OrderEvidence &evidence, qint64 nowMs,
                            qint64 warnWithinMs = DefaultExpiryWarningMs);
QJsonObject evidenceJson(const ServerEvidence &evidence);

} // namespace browse
