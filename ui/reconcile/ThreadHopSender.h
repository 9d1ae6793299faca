// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/CommandSender.h"

#include <QPointer>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace ui {

// A CommandSender that a worker thread may call (callBatch, from its own event loop), over a
// sender that must be used on the thread it lives on (the session's lanes and routers are
// GUI-thread objects): each batch is handed to `inner` on `home`'s thread and its replies
// come back to the caller's context. The reconcile run so reads through the session's own
// read-only lane (its tunnel, its cluster routing, its address map) without a connection of
// its own and without touching those objects from another thread.
//
// close() answers every batch still out (and every later one) with a NotSent error at once,
// so that a worker blocked on a reply can finish while the GUI thread waits for it.
class ThreadHopSender : public redis::CommandSender
{
public:
    // Made on `home`'s thread; `inner` outlives `home`, and a batch posted to `home` is
    // dropped with it.
    ThreadHopSender(redis::CommandSender &inner, QObject *home);
    ~ThreadHopSender() override;

    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback callback,
                   int timeoutMs = -1) override;
    QString address() const override { return m_address; }
    // The inner sender's nodes as they were when this was made, each behind a hop of its own.
    QList<redis::ScanNode> scanNodes() override { return m_scanNodes; }
    core::Sentence coverageProblem() const override { return m_coverage; }

    void close();

private:
    struct Flight;
    // What the batches out share with this sender. Held by every callback, so that a reply
    // that comes after this sender is gone (a new run replaced it) finds it still there.
    struct State
    {
        std::mutex lock;
        bool closed = false;
        std::set<std::shared_ptr<Flight>> out;
    };
    ThreadHopSender(redis::CommandSender &inner, QObject *home, bool withNodes);
    static void answer(const std::shared_ptr<Flight> &flight, QList<redis::ReplyResult> results);

    redis::CommandSender &m_inner;
    QPointer<QObject> m_home;
    QString m_address;
    core::Sentence m_coverage;
    std::vector<std::unique_ptr<ThreadHopSender>> m_nodes;
    QList<redis::ScanNode> m_scanNodes;
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

} // namespace ui
