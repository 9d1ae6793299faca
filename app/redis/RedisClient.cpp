// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisClient.h"

#include "ConnectionWorker.h"
#include "TransportThread.h"

#include <QEventLoop>
#include <QPointer>
#include <QThread>
#include <QTimer>

namespace redis {

RedisClient::RedisClient(ConnectionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_receiver(transport::receivingThread())
{
    qRegisterMetaType<redis::ConnectionState>();
    qRegisterMetaType<redis::ConnectFailure>();
    qRegisterMetaType<core::Sentence>();
    m_worker = new ConnectionWorker(wireOptions());
    if (!m_options.onCallerThread)
        m_worker->moveToThread(transport::thread());
    connect(m_worker, &ConnectionWorker::stateChanged, this,
            [this](ConnectionState s, const core::Sentence &detail, ConnectFailure failure) {
                m_state = s;
                m_stateDetail = detail;
                m_failure = failure;
                emit stateChanged(s, detail.english);
            });
}

RedisClient::~RedisClient()
{
    // The worker fails whatever is pending, and each caller still alive hears of it.
    if (m_worker->thread() == QThread::currentThread()) {
        m_worker->close();
        delete m_worker;
        return;
    }
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker] {
            transport::submitQueued();
            w->close();
            delete w;
        },
        Qt::BlockingQueuedConnection);
}

ConnectionOptions RedisClient::wireOptions() const
{
    // options() stays as given: a copy aimed at another node must ask the route again.
    ConnectionOptions wire = m_options;
    if (wire.route)
        wire.detour = wire.route(wire.host, wire.port);
    return wire;
}

void RedisClient::retarget(const QString &host, quint16 port, const QString &why)
{
    m_options.host = host;
    m_options.port = port;
    // On the caller's thread at once: a command sent next must not reach the old server.
    if (m_worker->thread() == QThread::currentThread()) {
        m_worker->retarget(wireOptions(), why);
        return;
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, wire = wireOptions(), why] { w->retarget(wire, why); },
        Qt::QueuedConnection);
}

void RedisClient::open()
{
    QMetaObject::invokeMethod(m_worker, &ConnectionWorker::open, Qt::QueuedConnection);
}

void RedisClient::close()
{
    QMetaObject::invokeMethod(m_worker, &ConnectionWorker::close, Qt::QueuedConnection);
}

namespace {

// What runs on the receiving thread: the callback with the results, and the time on the wire
// for a caller that asked for it.
BatchCallback withWireTime(BatchCallback callback, WireTimeUs)
{
    return callback;
}

BatchCallback withWireTime(TimedBatchCallback callback, WireTimeUs us)
{
    return [cb = std::move(callback), us](const QList<ReplyResult> &results) {
        cb(results, us);
    };
}

} // namespace

void RedisClient::sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                            int timeoutMs)
{
    submit(std::move(commands), context, std::move(callback), timeoutMs);
}

void RedisClient::sendTimedBatch(QList<Command> commands, QObject *context,
                                 TimedBatchCallback callback, int timeoutMs)
{
    submit(std::move(commands), context, std::move(callback), timeoutMs);
}

template<class Cb>
void RedisClient::submit(QList<Command> commands, QObject *context, Cb callback, int timeoutMs)
{
    auto batch = std::make_shared<Batch>();
    batch->commands = std::move(commands);
    batch->encode();
    batch->timeoutMs = timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs;
    if (m_worker->thread() == QThread::currentThread()) {
        // On the caller's thread the reply is read here too: posted to the context rather
        // than called from inside the socket's read, so that a callback may block on another
        // call (a nested read of the same socket would never be signalled).
        batch->deliver = [guard = QPointer<QObject>(context), cb = std::move(callback)](
                             QList<ReplyResult> &&results, WireTimeUs us) mutable {
            if (guard)
                QMetaObject::invokeMethod(
                    guard.data(),
                    [cb = withWireTime(std::move(cb), us), r = std::move(results)] { cb(r); },
                    Qt::QueuedConnection);
        };
        m_worker->submit(std::move(batch));
        return;
    }
    // Replies go to the context's thread: this one usually, or else the client's own, which
    // passes them on.
    auto to = context && context->thread() == QThread::currentThread()
                  ? transport::receivingThread()
                  : m_receiver;
    batch->deliver = [to = std::move(to), guard = QPointer<QObject>(context),
                      cb = std::move(callback)](QList<ReplyResult> &&results,
                                                WireTimeUs us) mutable {
        transport::deliver(to, std::move(guard), withWireTime(std::move(cb), us),
                           std::move(results));
    };
    transport::submit(m_worker, std::move(batch));
}

bool RedisClient::waitUntilReady(int timeoutMs)
{
    const auto settled = [this] {
        const auto s = state();
        return s == ConnectionState::Ready || s == ConnectionState::Failed
               || s == ConnectionState::Closed;
    };
    if (!settled()) {
        QEventLoop loop;
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        connect(this, &RedisClient::stateChanged, &loop, [&] {
            if (settled())
                loop.quit();
        });
        loop.exec();
    }
    return state() == ConnectionState::Ready;
}

} // namespace redis
