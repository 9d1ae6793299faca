// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DeductionRequest.h"

namespace inventory {

// The repair functions of inventory_lib_v1 1.3.0 (issue 32, docs/contracts.md).
constexpr auto ReleaseFunctionName = "inventory_release_v1";
constexpr auto AdjustFunctionName = "inventory_adjust_v1";

// Release: give back what one order's deduction took, once per order, while its receipt
// proves the deduction. Adjust: a manual correction of a stock, once per adjustment id.
enum class RepairKind { Release, Adjust };
QString repairName(RepairKind kind); // "release" | "adjust": the audit action and the verb

// What Lua accepts as a delta: a canonical quantity (1..1,000,000) with or without one
// leading '-'. nullopt when valid, else a sentence for the option.
std::optional<core::Sentence> signedDeltaProblem(const QByteArray &text);

// A repair as given on the command line. Values travel as FCALL arguments, never as code.
struct RepairRequest
{
    RepairKind kind = RepairKind::Release;
    QByteArray sku;
    QByteArray id;         // Release: the order id; Adjust: the adjustment id
    QByteArray amount;     // Release: the quantity; Adjust: the signed delta
    QByteArray ttlSeconds; // of the release or adjustment record
    QString reason;        // recorded in the audit log only (required for Adjust)
};

// The request resolved against a key schema.
struct RepairPlan
{
    RepairRequest request;
    QByteArray stockKey;
    QByteArray receiptKey; // Release only
    QByteArray recordKey;  // the release or adjustment key: it settles a lost reply
    int slot = -1;         // of the stock key; every key of the call shares it
    redis::Command command;
    QList<FieldProblem> problems; // fields: sku, order, id, quantity, delta, ttl, reason, keys

    bool ok() const { return problems.isEmpty(); }
    qint64 amount() const { return request.amount.toLongLong(); } // valid once ok()
};

// Validates every field (all problems at once) and builds the command:
//   FCALL inventory_release_v1 3 <stock> <receipt> <release> <quantity> <ttl>
//   FCALL inventory_adjust_v1 2 <stock> <adjustment> <delta> <ttl>
// Every key must hash to the stock key's cluster slot.
RepairPlan planRepair(const RepairRequest &request, const KeySchema &schema);

} // namespace inventory
