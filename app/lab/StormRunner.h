// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LabResult.h"
#include "LabSettings.h"
#include "inventory/KeySchema.h"
#include "redis/ConnectionOptions.h"
#include "redis/RespCodec.h"

#include <QElapsedTimer>
#include <QObject>
#include <QRandomGenerator>
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

namespace redis {
class RedisClient;
}

namespace lab {

class BlockingLane;

// Where one storm deducts: its server, its throwaway SKU's keys, and what it calls.
struct StormTarget
{
    redis::ConnectionOptions options; // the storm's connections copy these
    inventory::KeySchema schema;
    QByteArray sku;
    QByteArray scriptSha; // Strategy::Script
};

// One strategy's storm, on the calling thread: `connections` sockets owned by this thread
// (ConnectionOptions::onCallerThread, so no thread hop per round trip), each keeping one batch
// of `pipeline` commands in flight and sending the next from the previous one's callback. The
// attempts are shared among the connections as they free up (the naive way's batches also
// carry the DECRBYs of an earlier batch: see sendNaiveRound). An "outcome unknown" is retried
// on the same connection with the same order id after a pause as long as the timeout; the
// fault (a CLIENT PAUSE) is sent from a connection of its own once half the attempts are done.
class StormRunner : public QObject
{
    Q_OBJECT
public:
    using Progress = std::function<void(qint64 attemptsDone)>;
    StormRunner(const LabSettings &settings, Strategy strategy, StormTarget target,
                const std::atomic<bool> *cancel, Progress progress);
    ~StormRunner() override;

    // Connects, runs the storm to its end (a local event loop) and fills the client-side
    // counts of `result`. After it returns every command the storm sent has been answered or
    // the connection that sent it is closed: the server's state is final.
    void run(StrategyResult &result);

private:
    struct Order
    {
        qint64 id = 0;
        int tries = 0;
        bool reused = false;
        bool hadUnknown = false; // a deduction of it was sent and never answered
    };
    struct Lane
    {
        std::unique_ptr<redis::RedisClient> client;
        std::deque<Order> retries;
        // Naive: batches whose GET saw stock, oldest first; a batch's DECRBYs go out only once
        // a later batch's GETs are answered (see sendNaiveRound).
        std::deque<std::vector<Order>> decided;
        bool done = false;
    };

    using Done = std::function<void(const QList<redis::ReplyResult> &)>;
    bool connectAll(QString *why);
    // One batch on a lane: through its RedisClient, or, for a one-connection storm, queued for
    // the blocking loop in run() (no recursion from one round trip into the next).
    void send(int lane, QList<redis::Command> commands, Done done);
    void pump(int lane);
    bool nextOrder(Lane &lane, Order *out);
    void sendFunctionOrScript(int lane, std::vector<Order> orders);
    // Naive: the DECRBYs of an earlier batch and the GETs of a new one, in one round trip.
    void sendNaiveRound(int lane, std::vector<Order> reads);
    // The GET replies of a round: the orders that saw stock join lane.decided.
    void decideNaive(int lane, const QList<redis::ReplyResult> &replies, qsizetype first,
                     std::vector<Order> &orders, std::vector<Order> &retry);
    redis::Command deductCommand(const Order &order) const;
    // One deduction's outcome, from the strategy's decoder; true when it must be retried.
    enum class Seen { Deducted, Answered, Insufficient, Missing, Error, Unknown };
    void account(Order &order, Seen seen, const QString &error, std::vector<Order> &retry);
    void finishBatch(int lane, std::vector<Order> retry, qint64 sentNs, int commands);
    void maybeInjectFault();
    void laneDone(int lane);
    void drain();

    LabSettings m_settings;
    Strategy m_strategy;
    StormTarget m_target;
    QByteArray m_stockKey;
    QByteArray m_function;
    QByteArray m_ttl;
    const std::atomic<bool> *m_cancel;
    Progress m_progress;
    StrategyResult *m_result = nullptr;
    std::vector<Lane> m_lanes;
    std::unique_ptr<redis::RedisClient> m_control; // sends the fault
    // A one-connection storm without TLS or short timeouts: one socket written and then read
    // in turn (see BlockingLane), so that the c=1 shape measures the server, not Qt's loop.
    std::unique_ptr<BlockingLane> m_blocking;
    struct Pending
    {
        QList<redis::Command> commands;
        Done done;
    };
    std::optional<Pending> m_pending;
    qint64 m_started = 0;        // attempts started (new and reused)
    qint64 m_newOrders = 0;      // order ids handed out
    qint64 m_attemptsDone = 0;   // attempts with a final outcome
    std::vector<qint64> m_acked; // orders acknowledged as deducted, for reuse
    std::unordered_set<qint64> m_ackedSet;
    bool m_faultSent = false;
    int m_lanesLeft = 0;
    QElapsedTimer m_clock;
    qint64 m_lastProgressMs = -1000;
    std::function<void()> m_quit;
    QRandomGenerator m_random{QRandomGenerator::securelySeeded()};
};

} // namespace lab
