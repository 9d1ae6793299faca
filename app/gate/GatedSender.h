// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "WriteGate.h"

#include <QPointer>
#include <deque>
#include <functional>

namespace gate {

// A CommandSender that sends through another one, asking the WriteGate first. While the
// session is read-only (or, on a cluster, a write would land on a node the session's label
// does not cover), a batch holding a write is refused as a whole: every command gets a
// RedisError of kind NotSent and nothing reaches the server. Reads pass (an FCALL of a
// no-writes function goes out as FCALL_RO). Batches keep their order. Use from the thread
// this object lives on.
class GatedSender : public QObject, public redis::CommandSender
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive this sender.
    GatedSender(redis::CommandSender &inner, WriteGate &gate, QObject *parent = nullptr);
    ~GatedSender() override;

    using CommandSender::send;
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback callback,
                   int timeoutMs = -1) override;
    QString address() const override { return m_inner.address(); }
    // A walk only reads: the nodes' own senders, past the gate.
    QList<redis::ScanNode> scanNodes() override { return m_inner.scanNodes(); }

    WriteGate &gate() { return m_gate; }
    // Told when a server answers a command it forwarded with READONLY (the node written to
    // is a replica now: a failover moved the primary), with a sentence saying where.
    void setOnReadOnlyReply(std::function<void(const QString &)> onReadOnly)
    {
        m_onReadOnly = std::move(onReadOnly);
    }

private:
    struct Pending
    {
        QList<redis::Command> commands;
        QPointer<QObject> context;
        bool hadContext = false;
        redis::BatchCallback callback;
        int timeoutMs = -1;
    };
    void pump();
    void forward(Pending p);
    void decideAndSend(Pending p, const QList<WriteDecision> &decisions);
    void refuse(Pending p, const QList<WriteDecision> &decisions, const redis::RedisError &base);

    redis::CommandSender &m_inner;
    WriteGate &m_gate;
    std::deque<Pending> m_queue;
    bool m_fetching = false;
    std::function<void(const QString &)> m_onReadOnly;
};

} // namespace gate
