// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CommandSender.h"
#include "ConnectionOptions.h"

#include <QObject>
#include <atomic>
#include <memory>

namespace redis {

class ConnectionWorker;
namespace transport {
struct ReceivingThread;
}

// One connection to one server. The socket lives on the shared transport thread; results come back
// on the thread of the context object given with each command, and never to a context that
// has been destroyed. Many commands may be in flight; replies are matched in order.
class RedisClient : public QObject, public CommandSender
{
    Q_OBJECT
public:
    explicit RedisClient(ConnectionOptions options, QObject *parent = nullptr);
    ~RedisClient() override;

    void open();
    void close();
    // Points this connection at another server (Sentinel named a new primary), keeping every
    // other option. What is in flight on the old server fails as a lost connection says
    // (outcome unknown once written) and is never resent; what waits unsent goes to the new
    // server. An open connection connects there at once; a closed one when opened.
    void retarget(const QString &host, quint16 port, const QString &why);
    const ConnectionOptions &options() const { return m_options; }
    ConnectionState state() const { return m_state.load(); }
    // Why the connection is in its state: in English (the CLI, the log) and in the window's
    // language.
    // Why the state is what it is: the window shows `.text`, the CLI and the log `.english`.
    core::Sentence stateDetail() const { return m_stateDetail; }
    // Why the connection failed or was lost (None while ready).
    ConnectFailure failure() const { return m_failure; }

    using CommandSender::send;
    void sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                   int timeoutMs = -1) override;
    // Timed on the thread that owns the socket, from the write to the read of the last reply.
    void sendTimedBatch(QList<Command> commands, QObject *context, TimedBatchCallback callback,
                        int timeoutMs = -1) override;
    QString address() const override { return m_options.address(); }

    // Blocks (running a local event loop) until ready or failed, at most timeoutMs.
    bool waitUntilReady(int timeoutMs);

signals:
    void stateChanged(redis::ConnectionState state, const QString &detail);

private:
    // m_options with the detour its route gives to its host and port, for the worker.
    ConnectionOptions wireOptions() const;
    // Both sends; `Cb` is a BatchCallback or a TimedBatchCallback.
    template<class Cb>
    void submit(QList<Command> commands, QObject *context, Cb callback, int timeoutMs);

    ConnectionOptions m_options;
    std::shared_ptr<transport::ReceivingThread> m_receiver; // the thread that made this client
    ConnectionWorker *m_worker = nullptr;
    std::atomic<ConnectionState> m_state{ConnectionState::Idle};
    core::Sentence m_stateDetail;
    ConnectFailure m_failure = ConnectFailure::None;
};

} // namespace redis
