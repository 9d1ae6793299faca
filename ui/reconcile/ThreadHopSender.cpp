// SPDX-License-Identifier: GPL-3.0-or-later
#include "ThreadHopSender.h"

#include <atomic>

namespace ui {

namespace {
// What the commands a stopped run still held are told, in both copies.
core::Sentence runStopped()
{
    return core::Sentence::translated(
        "ui::ThreadHopSender", QT_TRANSLATE_NOOP("ui::ThreadHopSender", "the run was stopped"));
}
} // namespace

// One batch out: answered once, by its replies or by close(), whichever comes first.
struct ThreadHopSender::Flight
{
    QPointer<QObject> context;
    redis::BatchCallback callback;
    qsizetype commands = 0;
    std::atomic_bool answered{false};
};

ThreadHopSender::ThreadHopSender(redis::CommandSender &inner, QObject *home)
    : ThreadHopSender(inner, home, true)
{}

ThreadHopSender::ThreadHopSender(redis::CommandSender &inner, QObject *home, bool withNodes)
    : m_inner(inner)
    , m_home(home)
    , m_address(inner.address())
    , m_coverage(inner.coverageProblem())
{
    if (!withNodes) {
        m_scanNodes << redis::ScanNode{this, m_address};
        return;
    }
    for (const redis::ScanNode &node : inner.scanNodes()) {
        if (node.sender == &inner) {
            m_scanNodes << redis::ScanNode{this, node.name};
            continue;
        }
        m_nodes.push_back(
            std::unique_ptr<ThreadHopSender>(new ThreadHopSender(*node.sender, home, false)));
        m_scanNodes << redis::ScanNode{m_nodes.back().get(), node.name};
    }
}

ThreadHopSender::~ThreadHopSender()
{
    close();
}

void ThreadHopSender::answer(const std::shared_ptr<Flight> &flight,
                             QList<redis::ReplyResult> results)
{
    if (flight->answered.exchange(true) || !flight->context)
        return;
    QMetaObject::invokeMethod(
        flight->context.data(), [cb = flight->callback, r = std::move(results)] { cb(r); },
        Qt::QueuedConnection);
}

void ThreadHopSender::close()
{
    std::set<std::shared_ptr<Flight>> out;
    {
        const std::lock_guard<std::mutex> hold(m_state->lock);
        m_state->closed = true;
        out.swap(m_state->out);
    }
    for (const auto &flight : out)
        answer(flight, QList<redis::ReplyResult>(flight->commands,
                                                 redis::RedisError::notSent(runStopped())));
    for (auto &node : m_nodes)
        node->close();
}

void ThreadHopSender::sendBatch(QList<redis::Command> commands, QObject *context,
                                redis::BatchCallback callback, int timeoutMs)
{
    auto flight = std::make_shared<Flight>();
    flight->context = context;
    flight->callback = std::move(callback);
    flight->commands = commands.size();
    bool open = false;
    {
        const std::lock_guard<std::mutex> hold(m_state->lock);
        open = !m_state->closed && m_home;
        if (open)
            m_state->out.insert(flight);
    }
    if (!open) {
        answer(flight, QList<redis::ReplyResult>(flight->commands,
                                                 redis::RedisError::notSent(runStopped())));
        return;
    }
    // Nothing below touches this object: it may be gone by the time either lambda runs.
    QMetaObject::invokeMethod(
        m_home.data(),
        [inner = &m_inner, home = m_home, state = m_state, flight, commands = std::move(commands),
         timeoutMs]() mutable {
            if (!home)
                return;
            inner->sendBatch(
                std::move(commands), home.data(),
                [state, flight](const QList<redis::ReplyResult> &results) {
                    {
                        const std::lock_guard<std::mutex> hold(state->lock);
                        state->out.erase(flight);
                    }
                    answer(flight, results);
                },
                timeoutMs);
        },
        Qt::QueuedConnection);
}

} // namespace ui
