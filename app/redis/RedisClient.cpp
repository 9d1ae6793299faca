#include "RedisClient.h"

#include "ConnectionWorker.h"

#include <QEventLoop>
#include <QMutex>
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
    , m_mailbox(std::make_shared<Mailbox>())
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

// Batches cross threads through this mailbox rather than one queued call each: a burst of
// sends wakes the transport thread once, and a burst of replies wakes the caller's thread
// once. Under load that halves the thread hops per round trip (scripts/bench transport).
struct RedisClient::Mailbox
{
    struct Done
    {
        QPointer<QObject> context;
        BatchCallback callback;
        QList<ReplyResult> results;
    };
    QMutex mutex;
    std::vector<std::shared_ptr<Batch>> outgoing;
    std::vector<Done> done;
};

void RedisClient::sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                            int timeoutMs)
{
    auto batch = std::make_shared<Batch>();
    batch->commands = std::move(commands);
    batch->timeoutMs = timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs;
    // Runs on the transport thread once the batch has its results.
    batch->deliver = [this, mailbox = m_mailbox, guard = QPointer<QObject>(context),
                      cb = std::move(callback)](QList<ReplyResult> &&results) mutable {
        bool wake = false;
        {
            QMutexLocker lock(&mailbox->mutex);
            wake = mailbox->done.empty();
            mailbox->done.push_back({std::move(guard), std::move(cb), std::move(results)});
        }
        if (wake)
            QMetaObject::invokeMethod(this, &RedisClient::deliverDone, Qt::QueuedConnection);
    };
    bool wake = false;
    {
        QMutexLocker lock(&m_mailbox->mutex);
        wake = m_mailbox->outgoing.empty();
        m_mailbox->outgoing.push_back(std::move(batch));
    }
    if (wake)
        QMetaObject::invokeMethod(
            m_worker,
            [w = m_worker, mailbox = m_mailbox] {
                std::vector<std::shared_ptr<Batch>> batches;
                {
                    QMutexLocker lock(&mailbox->mutex);
                    batches.swap(mailbox->outgoing);
                }
                for (auto &b : batches)
                    w->submit(std::move(b));
            },
            Qt::QueuedConnection);
}

void RedisClient::deliverDone()
{
    std::vector<Mailbox::Done> done;
    {
        QMutexLocker lock(&m_mailbox->mutex);
        done.swap(m_mailbox->done);
    }
    for (Mailbox::Done &d : done) {
        if (!d.context)
            continue; // the caller is gone: nobody to tell
        if (d.context->thread() == QThread::currentThread())
            d.callback(d.results);
        else
            QMetaObject::invokeMethod(d.context.data(), [cb = std::move(d.callback),
                                                         r = std::move(d.results)] { cb(r); });
    }
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
