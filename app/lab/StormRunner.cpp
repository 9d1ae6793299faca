// SPDX-License-Identifier: GPL-3.0-or-later
#include "StormRunner.h"

#include "BlockingLane.h"

#include "inventory/DeductionOutcome.h"
#include "redis/RedisClient.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

namespace lab {

namespace {
// Why a storm could not start, and its fault, in the window's language (the CLI prints the
// English).
struct StormText
{
    Q_DECLARE_TR_FUNCTIONS(lab::StormRunner)
};
} // namespace

using redis::Command;
using redis::ReplyResult;

namespace {
qint64 nowNs(const QElapsedTimer &clock)
{
    return clock.nsecsElapsed();
}
} // namespace

StormRunner::StormRunner(const LabSettings &settings, Strategy strategy, StormTarget target,
                         const std::atomic<bool> *cancel, Progress progress)
    : m_settings(settings)
    , m_strategy(strategy)
    , m_target(std::move(target))
    , m_cancel(cancel)
    , m_progress(std::move(progress))
{
    m_stockKey = m_target.schema.stockKey(m_target.sku);
    m_function = strategy == Strategy::FunctionV2 ? "inventory_deduct_v2" : "inventory_deduct_v1";
    m_ttl = QByteArray::number(m_settings.receiptTtlSeconds);
}

StormRunner::~StormRunner() = default;

bool StormRunner::connectAll(QString *why)
{
    redis::ConnectionOptions options = m_target.options;
    options.onCallerThread = true;
    options.clientName = "inventory-lab";
    options.commandTimeoutMs = m_settings.stormTimeoutMs();
    if (m_settings.connections == 1 && !options.tls.enabled
        && m_settings.fault != Fault::ShortTimeout) {
        m_blocking = std::make_unique<BlockingLane>();
        core::Sentence laneFailure;
        if (!m_blocking->open(options, &laneFailure)) {
            *why = laneFailure.text; // a strategy's failure is in the window's language
            return false;
        }
        m_lanes.emplace_back();
    } else {
        for (int i = 0; i < m_settings.connections; ++i) {
            Lane lane;
            lane.client = std::make_unique<redis::RedisClient>(options);
            lane.client->open();
            m_lanes.push_back(std::move(lane));
        }
    }
    options.commandTimeoutMs = m_settings.normalTimeoutMs;
    m_control = std::make_unique<redis::RedisClient>(options);
    m_control->open();
    for (Lane &lane : m_lanes) {
        if (lane.client && !lane.client->waitUntilReady(options.connectTimeoutMs + 1000)) {
            *why = StormText::tr("could not open the storm's connections: %1")
                       .arg(lane.client->stateDetail().text);
            return false;
        }
    }
    if (!m_control->waitUntilReady(options.connectTimeoutMs + 1000)) {
        *why = StormText::tr("could not open the lab's control connection: %1")
                   .arg(m_control->stateDetail().text);
        return false;
    }
    return true;
}

void StormRunner::run(StrategyResult &result)
{
    m_result = &result;
    QString why;
    if (!connectAll(&why)) {
        result.failure = why;
        return;
    }
    QEventLoop loop;
    m_quit = [&loop] {
        loop.quit();
    };
    m_lanesLeft = int(m_lanes.size());
    const size_t expected = size_t(std::min(m_settings.attempts, qint64(1) << 24));
    m_acked.reserve(expected);
    m_ackedSet.reserve(expected);
    m_clock.start();
    for (int i = 0; i < int(m_lanes.size()); ++i)
        pump(i);
    while (m_pending) {
        Pending p = std::move(*m_pending);
        m_pending.reset();
        p.done(m_blocking->roundTrip(p.commands, m_settings.stormTimeoutMs()));
    }
    if (m_lanesLeft > 0)
        loop.exec();
    result.elapsedMs = double(m_clock.nsecsElapsed()) / 1e6;
    result.attempts = m_started;
    drain();
    if (m_progress)
        m_progress(m_attemptsDone);
}

// Replies come in order on each connection: once a PING sent after everything else is
// answered, every command the storm sent on it has run (a command that timed out on the
// client may still have been waiting behind a CLIENT PAUSE). Only then is the stock final.
void StormRunner::drain()
{
    if (m_blocking) {
        m_blocking->roundTrip({{"PING"}}, m_settings.normalTimeoutMs + m_settings.pauseMs);
        return;
    }
    QEventLoop loop;
    int waiting = 0;
    for (Lane &lane : m_lanes) {
        ++waiting;
        lane.client->sendBatch(
            {{"PING"}}, this,
            [&](const QList<ReplyResult> &) {
                if (--waiting == 0)
                    loop.quit();
            },
            m_settings.normalTimeoutMs + m_settings.pauseMs);
    }
    if (waiting > 0)
        loop.exec();
}

bool StormRunner::nextOrder(Lane &lane, Order *out)
{
    if (!lane.retries.empty()) {
        *out = lane.retries.front();
        lane.retries.pop_front();
        return true;
    }
    if (m_started >= m_settings.attempts || (m_cancel && m_cancel->load()))
        return false;
    ++m_started;
    Order order;
    if (m_settings.retryShare > 0 && !m_acked.empty()
        && m_random.generateDouble() < m_settings.retryShare) {
        order.id = m_acked[size_t(m_random.bounded(quint64(m_acked.size())))];
        order.reused = true;
        ++m_result->reusedIds;
    } else {
        order.id = ++m_newOrders;
    }
    *out = order;
    return true;
}

void StormRunner::pump(int index)
{
    Lane &lane = m_lanes[size_t(index)];
    std::vector<Order> orders;
    Order order;
    while (int(orders.size()) < m_settings.pipeline && nextOrder(lane, &order))
        orders.push_back(order);
    if (m_strategy == Strategy::Naive) {
        // Decided batches with nothing to write (every read saw no stock) need no round trip.
        while (orders.empty() && !lane.decided.empty() && lane.decided.front().empty())
            lane.decided.pop_front();
        if (orders.empty() && lane.decided.empty())
            laneDone(index);
        else
            sendNaiveRound(index, std::move(orders));
        return;
    }
    if (orders.empty()) {
        laneDone(index);
        return;
    }
    sendFunctionOrScript(index, std::move(orders));
}

void StormRunner::laneDone(int index)
{
    Lane &lane = m_lanes[size_t(index)];
    if (lane.done)
        return;
    lane.done = true;
    if (--m_lanesLeft == 0 && m_quit)
        m_quit();
}

Command StormRunner::deductCommand(const Order &order) const
{
    if (m_strategy == Strategy::Script)
        return {"EVALSHA", m_target.scriptSha, "1", m_stockKey, "1"};
    const QByteArray orderId = 'o' + QByteArray::number(order.id);
    return {"FCALL", m_function, "2", m_stockKey, m_target.schema.receiptKey(m_target.sku, orderId),
            "1",     m_ttl};
}

void StormRunner::send(int index, QList<Command> commands, Done done)
{
    if (m_blocking) {
        m_pending = Pending{std::move(commands), std::move(done)};
        return;
    }
    m_lanes[size_t(index)].client->sendBatch(std::move(commands), this, std::move(done));
}

void StormRunner::sendFunctionOrScript(int index, std::vector<Order> orders)
{
    QList<Command> commands;
    commands.reserve(qsizetype(orders.size()));
    for (const Order &o : orders)
        commands.append(deductCommand(o));
    const qint64 sent = nowNs(m_clock);
    send(
        index, std::move(commands),
        [this, index, sent, orders = std::move(orders)](const QList<ReplyResult> &replies) mutable {
            std::vector<Order> retry;
            for (size_t i = 0; i < orders.size(); ++i) {
                const auto o =
                    m_strategy == Strategy::Script
                        ? inventory::decodeScriptReply(replies.at(qsizetype(i)))
                        : inventory::decodeFunctionReply(
                            replies.at(qsizetype(i)), m_strategy == Strategy::FunctionV2
                                                          ? inventory::ReplyContract::FunctionV2
                                                          : inventory::ReplyContract::FunctionV1);
                Seen seen = Seen::Error;
                switch (o.kind) {
                case inventory::OutcomeKind::Deducted:
                    seen = Seen::Deducted;
                    break;
                case inventory::OutcomeKind::AlreadyApplied:
                    seen = Seen::Answered;
                    break;
                case inventory::OutcomeKind::Insufficient:
                    seen = Seen::Insufficient;
                    break;
                case inventory::OutcomeKind::StockMissing:
                    seen = Seen::Missing;
                    break;
                case inventory::OutcomeKind::Unknown:
                    seen = Seen::Unknown;
                    break;
                case inventory::OutcomeKind::Rejected:
                case inventory::OutcomeKind::MayHaveWritten:
                case inventory::OutcomeKind::NotSent:
                    seen = Seen::Error;
                    break;
                }
                // A reply outside the contract has no error text: its anomaly says what came.
                const QString why = !o.serverError.isEmpty() ? o.serverError.text
                                    : !o.anomaly.isEmpty()   ? o.anomaly.text
                                                             : o.transportError.text;
                account(orders[i], seen, why, retry);
            }
            finishBatch(index, std::move(retry), sent, int(orders.size()));
        });
}

// The race the seeds warn about: read, decide on the client, then write. It must show by
// construction, not by the scheduler's luck (a run on a quiet cluster node once oversold
// nothing): each connection sends a batch's DECRBYs only after the GETs of its next batch are
// answered. Whichever DECRBY takes the last unit, its connection has already read at least
// one unit left for its next orders, and their DECRBYs follow: once the stock runs out while
// attempts remain, it goes below zero. More connections add overlap, as concurrent clients do.
void StormRunner::sendNaiveRound(int index, std::vector<Order> reads)
{
    Lane &lane = m_lanes[size_t(index)];
    std::vector<Order> writes;
    // Without new reads (the attempts are all handed out, or a cancel) the decided batches
    // are written anyway: those clients already took their decision.
    if (lane.decided.size() >= 2 || (reads.empty() && !lane.decided.empty())) {
        writes = std::move(lane.decided.front());
        lane.decided.pop_front();
    }
    QList<Command> commands;
    commands.reserve(qsizetype(writes.size() + reads.size()));
    for (size_t i = 0; i < writes.size(); ++i)
        commands.append({"DECRBY", m_stockKey, "1"});
    for (size_t i = 0; i < reads.size(); ++i)
        commands.append({"GET", m_stockKey});
    const qint64 sent = nowNs(m_clock);
    send(index, std::move(commands),
         [this, index, sent, writes = std::move(writes),
          reads = std::move(reads)](const QList<ReplyResult> &replies) mutable {
             std::vector<Order> retry;
             for (size_t i = 0; i < writes.size(); ++i) {
                 const auto remaining = redis::integerOf(replies.at(qsizetype(i)));
                 if (remaining.ok())
                     account(writes[i], Seen::Deducted, {}, retry);
                 else if (remaining.error().mayHaveRun())
                     account(writes[i], Seen::Unknown, remaining.error().message.text, retry);
                 else
                     account(writes[i], Seen::Error, remaining.error().toString().text, retry);
             }
             decideNaive(index, replies, qsizetype(writes.size()), reads, retry);
             finishBatch(index, std::move(retry), sent, int(writes.size() + reads.size()));
         });
}

void StormRunner::decideNaive(int index, const QList<ReplyResult> &replies, qsizetype first,
                              std::vector<Order> &orders, std::vector<Order> &retry)
{
    if (orders.empty())
        return;
    std::vector<Order> decrement;
    for (size_t i = 0; i < orders.size(); ++i) {
        const ReplyResult &r = replies.at(first + qsizetype(i));
        if (r.ok() && r->isNil()) {
            account(orders[i], Seen::Missing, {}, retry);
            continue;
        }
        const auto stock = r.ok() ? r->number() : redis::Decoded<qint64>(r.error());
        if (!stock.ok()) {
            // A read that got no reply changed nothing: read again, not a lost write.
            if (stock.error().mayHaveRun() && ++orders[i].tries <= m_settings.maxRetries) {
                retry.push_back(orders[i]);
                continue;
            }
            account(orders[i], Seen::Error, stock.error().readFailure().text, retry);
        } else if (*stock < 1) {
            account(orders[i], Seen::Insufficient, {}, retry);
        } else {
            decrement.push_back(orders[i]);
        }
    }
    // Kept even when empty: it is the later read the batch before it waits for.
    m_lanes[size_t(index)].decided.push_back(std::move(decrement));
}

void StormRunner::account(Order &order, Seen seen, const QString &error, std::vector<Order> &retry)
{
    StrategyResult &r = *m_result;
    const bool function = m_strategy == Strategy::FunctionV1 || m_strategy == Strategy::FunctionV2;
    if (seen == Seen::Unknown) {
        ++r.unknownOutcomes;
        order.hadUnknown = true;
        if (++order.tries <= m_settings.maxRetries) {
            ++r.retriesAfterUnknown;
            retry.push_back(order);
            return;
        }
        ++r.unresolved;
        ++m_attemptsDone;
        return;
    }
    ++m_attemptsDone;
    switch (seen) {
    case Seen::Deducted:
        if (m_ackedSet.insert(order.id).second) {
            ++r.successes;
            m_acked.push_back(order.id);
        } else {
            ++r.duplicateAcks;
        }
        return;
    case Seen::Answered:
        ++r.retriesAnswered;
        return;
    case Seen::Insufficient:
        ++r.insufficient;
        break;
    case Seen::Missing:
        ++r.stockMissing;
        break;
    case Seen::Error:
        ++r.errors;
        if (r.firstError.isEmpty())
            r.firstError = error;
        break;
    case Seen::Unknown:
        break;
    }
    // Any known answer settles a function's lost call: its receipt is checked first. The
    // script and the naive way cannot tell whether the lost call ran.
    if (order.hadUnknown && !function && !m_ackedSet.count(order.id))
        ++r.unresolved;
}

void StormRunner::finishBatch(int index, std::vector<Order> retry, qint64 sentNs, int commands)
{
    if (sentNs >= 0) {
        const double ms = double(nowNs(m_clock) - sentNs) / 1e6;
        m_result->latency.add(ms, commands);
        m_result->commands += commands;
    }
    Lane &lane = m_lanes[size_t(index)];
    const bool backOff = !retry.empty();
    for (Order &o : retry)
        lane.retries.push_back(o);
    maybeInjectFault();
    const qint64 ms = m_clock.elapsed();
    if (m_progress && ms - m_lastProgressMs >= 50) {
        m_lastProgressMs = ms;
        m_progress(m_attemptsDone);
    }
    if (m_cancel && m_cancel->load()) {
        // Retries of lost calls are dropped too: what they would have settled stays unknown.
        for (const Order &o : lane.retries)
            if (o.hadUnknown)
                ++m_result->unresolved;
        lane.retries.clear();
    }
    if (backOff && !(m_cancel && m_cancel->load())) {
        // As a client would: wait about a timeout before resending, so that retries do not
        // pile up behind a server that is not answering.
        if (m_blocking) {
            QThread::msleep(ulong(m_settings.stormTimeoutMs()));
            pump(index);
        } else {
            QTimer::singleShot(m_settings.stormTimeoutMs(), this, [this, index] { pump(index); });
        }
        return;
    }
    pump(index);
}

void StormRunner::maybeInjectFault()
{
    if (m_faultSent || m_settings.fault == Fault::None || m_started * 2 < m_settings.attempts)
        return;
    m_faultSent = true;
    const QByteArray ms = QByteArray::number(m_settings.pauseMs);
    m_result->faultNote =
        (m_settings.fault == Fault::ShortTimeout
             ? StormText::tr("CLIENT PAUSE %1 WRITE after %2 of %3 attempts, client timeout %4 ms")
                   .arg(m_settings.pauseMs)
                   .arg(m_started)
                   .arg(m_settings.attempts)
                   .arg(m_settings.clientTimeoutMs)
             : StormText::tr("CLIENT PAUSE %1 WRITE after %2 of %3 attempts")
                   .arg(m_settings.pauseMs)
                   .arg(m_started)
                   .arg(m_settings.attempts));
    m_control->sendBatch(
        {{"CLIENT", "PAUSE", ms, "WRITE"}}, this, [this](const QList<ReplyResult> &r) {
            if (!r.first().ok())
                m_result->faultNote = StormText::tr("%1 (refused: %2)")
                                          .arg(m_result->faultNote, r.first().error().message.text);
        });
}

} // namespace lab
