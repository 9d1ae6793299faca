// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace lab {

// How a storm deducts. Each runs on its own fresh SKU.
enum class Strategy {
    Naive,      // client GET, compare, then DECRBY: the race the seeds warn about
    Script,     // EVALSHA stock_decrement.lua: atomic, not idempotent
    FunctionV1, // FCALL inventory_deduct_v1: atomic, idempotent per order (a receipt)
    FunctionV2, // FCALL inventory_deduct_v2, when the loaded library has it
};
QString strategyName(Strategy s);  // "naive", "script", "fcall-v1", "fcall-v2" (CLI, JSON)
QString strategyTitle(Strategy s); // "Naive GET + DECRBY", ... (for people)
std::optional<Strategy> parseStrategy(const QString &name);
QList<Strategy> allStrategies();

// What goes wrong on purpose in the middle of a storm.
enum class Fault {
    None,
    // CLIENT PAUSE <pauseMs> WRITE from a separate connection once half the attempts are done:
    // the storm stalls, every reply still comes (the client timeout is longer).
    Pause,
    // The same pause, with the storm's client timeout shorter than it: the replies of the
    // commands in flight come too late, each is "outcome unknown" and retried with the same
    // order id, though the server runs it once the pause ends.
    ShortTimeout,
};
QString faultName(Fault f); // "none", "pause", "timeout"
std::optional<Fault> parseFault(const QString &name);

struct LabSettings
{
    static constexpr int MaxConnections = 200;
    static constexpr int MaxPipeline = 1000;
    static constexpr qint64 MaxAttempts = 10000000;
    static constexpr qint64 MaxStock = 1000000000; // the contracts' bound

    qint64 initialStock = 100;
    int connections = 20;
    qint64 attempts = 1000;
    int pipeline = 1;
    // Share of attempts (0..1) that retry an earlier, acknowledged order id instead of a new one:
    // what a client that resends a finished order does.
    double retryShare = 0.0;
    Fault fault = Fault::None;
    int pauseMs = 300;          // the CLIENT PAUSE of both faults
    int clientTimeoutMs = 50;   // ShortTimeout: the storm's command timeout (below pauseMs)
    int normalTimeoutMs = 5000; // every other command timeout of the storm
    int maxRetries = 20;        // per order after "outcome unknown"; then it stays unresolved
    qint64 receiptTtlSeconds = 600;
    QList<Strategy> strategies{Strategy::Naive, Strategy::FunctionV1};

    // Empty when the settings can run; otherwise one sentence per problem, naming the setting
    // and its bounds ("connections: give 1 to 200, not 0").
    QStringList problems() const;
    // The command timeout the storm's connections use.
    int stormTimeoutMs() const
    {
        return fault == Fault::ShortTimeout ? clientTimeoutMs : normalTimeoutMs;
    }
};

} // namespace lab
