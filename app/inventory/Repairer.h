// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Deducer.h"
#include "RepairOutcome.h"

namespace inventory {

// A release or adjustment key as read (GET and TTL): what settles a repair whose reply was lost.
struct RecordReading
{
    bool read = false;               // false: not attempted
    core::Sentence error;            // the read failed: it says nothing about the repair
    std::optional<QByteArray> value; // nullopt: the key does not exist
    qint64 ttlSeconds = -2;
    // The value has the form the repair functions write ("quantity=3;time=..." for a
    // release, "delta=-2;time=..." for an adjustment).
    bool wellFormed(RepairKind kind) const;
    // The quantity or delta a well-formed record holds ("3", "-2"); nullopt otherwise.
    std::optional<QByteArray> amount(RepairKind kind) const;
    QString text() const; // "quantity=3;time=... (TTL 600 s)", "missing", "could not read (...)"
};

// What a lost reply's read of the record key proves. Only an existing key in the form the
// function writes, with this repair's amount, is proof ("applied"). The same key with another
// amount settles it the other way: another repair wrote it, so this one, if it ran, was
// answered from it and wrote nothing (`otherAmount`). Anything else is "not proven", with why.
struct RepairSettlement
{
    bool applied = false;
    std::optional<QByteArray> otherAmount; // the key's amount, when it is not this repair's
    QString sentence; // "released: the release key exists (...)" / "not proven: ..."

    // Nothing is left unknown: resending would change nothing.
    bool settled() const { return applied || otherAmount.has_value(); }
};
RepairSettlement settleRepair(const RepairPlan &plan, const RecordReading &record);

// Everything one repair did, in the order it happened.
struct RepairResult
{
    RepairPlan plan;
    RepairOutcome outcome;
    QDateTime startedUtc;
    qint64 durationMs = -1; // of the FCALL
    QString runId;          // the server's run_id, read before the call
    QString server;         // host:port of the node that ran it (a cluster: the slot owner)
    KeyReading stockBefore, stockAfter;
    RecordReading recordBefore, recordAfter;
    // Release: the order's receipt read just before, the evidence of its deduction (also in
    // the audit record).
    std::optional<ReceiptStatus> receiptBefore;
    core::Sentences auditProblems; // outcome records that failed (the result is shown anyway)

    // "Already applied" answers for the record key, whatever amount was asked this time. When
    // the key, as read, holds another amount, what was asked was not done: the amount the key
    // records, and one sentence that says so. nullopt when it matches or was not read.
    std::optional<QByteArray> otherRecordedAmount() const;
    QString otherAmountSentence() const;
};

// Runs one repair through `sender` (gated), as deduct() runs a deduction:
//  1. reads the stock, the record key, run_id and role (a replica, or a role that could not
//     be read, is refused: NotSent) and, for a release, the receipt;
//  2. appends the attempt to the audit log, fsynced, with the reason and the evidence read;
//     if that fails nothing is sent;
//  3. sends the FCALL once, decodes its reply (ReleaseOutcome.h, AdjustOutcome.h) and appends
//     the outcome record;
//  4. unless the outcome is unknown or nothing was sent, reads the stock and the record key
//     again. A lost reply is never resent: settle it with readRecordBlocking, on a connection
//     that is not stuck behind the call.
RepairResult repairBlocking(redis::CommandSender &sender, const DeductionContext &ctx,
                            const RepairPlan &plan);

// Reads one record key (GET, TTL). Reads only.
RecordReading readRecordBlocking(redis::CommandSender &sender, const QByteArray &key,
                                 int timeoutMs = -1);

} // namespace inventory
