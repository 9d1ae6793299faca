#include "RedisClient.h"

#include "ConnectionWorker.h"

#include <QEventLoop>
#include <QPointer>
#include <QThread>
#include <QTimer>

namespace redis {

namespace {
// All connections share one I/O thread: a cluster's dozen sockets or a benchmark's fifty cost
// one thread and one wake-up per burst of replies, not one thread each.
class TransportThread
{
public:
    TransportThread()
    {
        m_thread.setObjectName(QStringLiteral("redis transport"));
        m_thread.start();
    }
    ~TransportThread()
    {
        m_thread.quit();
        m_thread.wait();
    }
    QThread *thread() { return &m_thread; }

private:
    QThread m_thread;
};

QThread *transportThread()
{
    static TransportThread instance;
    return instance.thread();
}
} // namespace

RedisClient::RedisClient(ConnectionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    qRegisterMetaType<redis::ConnectionState>();
    qRegisterMetaType<redis::ConnectFailure>();
    m_worker = new ConnectionWorker(m_options);
    m_worker->moveToThread(transportThread());
    connect(m_worker, &ConnectionWorker::stateChanged, this,
            [this](ConnectionState s, const QString &detail, ConnectFailure failure) {
                m_state = s;
                m_stateDetail = detail;
                m_failure = failure;
                emit stateChanged(s, detail);
            });
}

RedisClient::~RedisClient()
{
    // The worker fails whatever is pending; those deliveries target this object and are
    // discarded with it.
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker] {
            w->close();
            delete w;
        },
        Qt::BlockingQueuedConnection);
}

void RedisClient::open()
{
    QMetaObject::invokeMethod(m_worker, &ConnectionWorker::open, Qt::QueuedConnection);
}

void RedisClient::close()
{
    QMetaObject::invokeMethod(m_worker, &ConnectionWorker::close, Qt::QueuedConnection);
}

void RedisClient::sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                            int timeoutMs)
{
    auto batch = std::make_shared<Batch>();
    batch->commands = std::move(commands);
    batch->timeoutMs = timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs;
    QPointer<QObject> guard(context);
    // Runs on the worker thread; hops to this object's thread, then to the context's.
    batch->deliver = [this, guard, cb = std::move(callback)](QList<ReplyResult> &&results) {
        QMetaObject::invokeMethod(
            this,
            [guard, cb, results = std::move(results)] {
                if (!guard)
                    return; // the caller is gone: nobody to tell
                if (guard->thread() == QThread::currentThread())
                    cb(results);
                else
                    QMetaObject::invokeMethod(guard.data(), [cb, results] { cb(results); });
            },
            Qt::QueuedConnection);
    };
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, batch] { w->submit(batch); }, Qt::QueuedConnection);
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
