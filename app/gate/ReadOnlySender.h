// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/CommandSender.h"

#include <QObject>
#include <map>
#include <memory>

namespace gate {

// The sender a panel that only reads gets (charts, readiness, the key browser's scans): it
// passes a batch on only when every command in it is one the console knows to be a read
// (CommandTraits::isKnownRead), and refuses the whole batch otherwise, before anything leaves.
// It asks the server nothing and needs no gate: a bug in such a panel cannot write, whatever
// the session's label. Refusals come posted, as RedisError kind NotSent with
// Refusal::ReadOnlyView. The keyspace walk's per-node senders are wrapped the same way.
class ReadOnlySender : public QObject, public redis::CommandSender
{
    Q_OBJECT
public:
    // `inner` is not owned and must outlive this sender.
    explicit ReadOnlySender(redis::CommandSender &inner, QObject *parent = nullptr);
    ~ReadOnlySender() override;

    using CommandSender::send;
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback callback,
                   int timeoutMs = -1) override;
    void sendTimedBatch(QList<redis::Command> commands, QObject *context,
                        redis::TimedBatchCallback callback, int timeoutMs = -1) override;
    QString address() const override { return m_inner.address(); }
    QList<redis::ScanNode> scanNodes() override;
    core::Sentence coverageProblem() const override { return m_inner.coverageProblem(); }

private:
    // The refusals for a batch holding a command not known to read, or an empty list.
    QList<redis::ReplyResult> refusals(const QList<redis::Command> &commands) const;

    redis::CommandSender &m_inner;
    // One wrapper per node sender the inner one hands out (a node's sender lives as long as
    // the session's router, which outlives this object).
    std::map<redis::CommandSender *, std::unique_ptr<ReadOnlySender>> m_nodes;
};

} // namespace gate
