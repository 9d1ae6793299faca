// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AuditLog.h"
#include "DeductionHistory.h"

#include <QDateTime>
#include <QList>

namespace inventory {

// An earlier call for the same SKU and order, found before a new deduction runs: the script
// keeps no receipt and inventory_deduct_v1 records no quantity, so only the client can tell a
// person that the order was already tried.
struct PriorDeduction
{
    enum class Source { History, AuditLog };
    Source source = Source::History;
    QDateTime timeUtc;
    DeductionMode mode = DeductionMode::Function;
    QByteArray quantity;
    QString result; // the outcome in words, as recorded
    // Deducted, already applied, may have written, unknown or no outcome recorded: the order
    // may have been deducted by it. Insufficient, missing stock, refusals and NOSCRIPT not.
    bool mayHaveDeducted = false;
};

// The entries of this session's history for the plan's SKU and order (none without an
// order id), oldest first.
QList<PriorDeduction> priorInHistory(const DeductionHistory &history, const DeductionPlan &plan);
// The same from audit records as pairAttempts() returns them, of calls to `server` (host:port
// as recorded; the log is shared by every session and server, and another server's stock is
// not this one's). Script records name their order in the detail ("order 9001"), function
// records in the receipt key (parsed with `schema`).
QList<PriorDeduction> priorInAudit(const QList<AuditRecord> &records, const DeductionPlan &plan,
                                   const KeySchema &schema, const QString &server);
// History first, then the audit records that are not one of those entries: the audit log
// also holds this session's calls, and one call must not be counted twice (same mode,
// quantity and outcome class, within seconds).
QList<PriorDeduction> mergePrior(const QList<PriorDeduction> &history,
                                 const QList<PriorDeduction> &audit);

// What a person must know before `plan` runs, or empty:
// - Script mode: an earlier call for this order that may have deducted (running it again
//   deducts again);
// - Function mode (v1): an earlier call for this order with another quantity (v1's receipt
//   keeps no quantity, so this call returns Already applied and the new quantity is ignored).
QString repeatWarning(const DeductionPlan &plan, const QList<PriorDeduction> &prior);
// True when repeatWarning() describes a possible second deduction (Script mode): the
// confirmation then asks for an explicit acknowledgement.
bool repeatMayDeductTwice(const DeductionPlan &plan, const QList<PriorDeduction> &prior);

} // namespace inventory
