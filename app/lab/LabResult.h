// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LabSettings.h"
#include "LatencyHistogram.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace lab {

// What one strategy's storm did, counted on the client and read back from the server.
struct StrategyResult
{
    Strategy strategy = Strategy::FunctionV1;
    QByteArray sku; // the throwaway SKU, e.g. "lab-3f9a0c12-fcall-v1"
    QByteArray stockKey;
    QString node;    // where its keys lived and its storm ran: host:port (a cluster's primary)
    QString skipped; // non-empty: not run, and why ("inventory_deduct_v2 is not loaded")
    QString failure; // non-empty: the run broke off (connection lost, setup refused)
    bool cancelled = false;
    qint64 initialStock = 0;

    // Client side, one storm.
    qint64 attempts = 0;        // attempts started (new orders and reused ids)
    qint64 reusedIds = 0;       // attempts that resent an earlier, acknowledged order id
    qint64 commands = 0;        // commands answered or failed (naive: GET and DECRBY)
    qint64 successes = 0;       // first deductions of an order acknowledged by the server
    qint64 duplicateAcks = 0;   // an order acknowledged as deducted once more
    qint64 retriesAnswered = 0; // "already applied" (a receipt answered)
    qint64 insufficient = 0;    // refused: not enough stock (nothing written)
    qint64 stockMissing = 0;
    qint64 errors = 0; // error replies (rejected, may have written)
    // The first one's words, in the language of the verdict around them: the window's, or
    // English in the CLI, which installs no translator.
    QString firstError;
    qint64 unknownOutcomes = 0; // commands sent with no reply in time (timeout, lost)
    qint64 retriesAfterUnknown = 0;
    // Orders whose deduction is still in doubt: a function's retries all went unanswered; for
    // the script and the naive way, an "outcome unknown" never followed by an acknowledged
    // deduction (a later "insufficient" does not say whether the lost call ran).
    qint64 unresolved = 0;
    QString faultNote; // what the fault did, e.g. "CLIENT PAUSE 300 ms WRITE at 50%"
    double elapsedMs = 0;
    LatencyHistogram latency;

    // Read back after the storm.
    std::optional<qint64> finalStock;
    std::optional<qint64> receipts; // receipt keys of the SKU (functions only)
    QString cleanupProblem;         // keys the lab could not remove

    // Derived (see LabResult.cpp for the rules).
    qint64 sold() const;             // initial − final: units that left the stock key
    qint64 oversold() const;         // sold − initial when positive
    qint64 doubleDeductions() const; // units deducted more than once for one order
    double opsPerSec() const;
    double p50Ms() { return latency.percentile(50); }
    double p99Ms() { return latency.percentile(99); }
    bool ran() const { return skipped.isEmpty() && failure.isEmpty(); }

    // One line: "oversold 7 units", "no oversell, 212 retries answered from receipts".
    QString verdict() const;
    // The CLI's --json object (fields in LabResult.cpp).
    QJsonObject toJson();

private:
    QStringList countParts() const;
};

} // namespace lab
