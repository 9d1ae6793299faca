// SPDX-License-Identifier: GPL-3.0-or-later
#include "TransportThread.h"

#include "ConnectionWorker.h"

#include <QMutex>
#include <QThread>
#include <QTimer>
#include <vector>

namespace redis::transport {

struct ReceivingThread
{
    struct Done
    {
        QPointer<QObject> context;
        BatchCallback callback;
        QList<ReplyResult> results;
    };
    QMutex mutex;
    QObject *point = nullptr; // on the receiving thread; null once that thread has ended
    bool posted = false;      // a run is queued on the receiving thread
    std::vector<Done> done;
    bool scheduled = false; // transport thread only: listed for the next flush

    void run();
};

namespace {

// Lives on the receiving thread, so that the transport thread has something to post to.
class DeliveryPoint : public QObject
{
public:
    explicit DeliveryPoint(ReceivingThread *queue)
        : m_queue(queue)
    {
        m_queue->point = this;
    }
    ~DeliveryPoint() override
    {
        QMutexLocker lock(&m_queue->mutex);
        m_queue->point = nullptr;
    }

private:
    ReceivingThread *m_queue;
};

class Hub : public QObject
{
public:
    // Any thread.
    void submit(ConnectionWorker *worker, std::shared_ptr<Batch> batch)
    {
        bool wake = false;
        {
            QMutexLocker lock(&m_mutex);
            m_outgoing.push_back({worker, std::move(batch)});
            wake = !std::exchange(m_drainPosted, true);
        }
        if (wake)
            QMetaObject::invokeMethod(
                this, [this] { drain(); }, Qt::QueuedConnection);
    }

    // Transport thread.
    void drain()
    {
        std::vector<Outgoing> outgoing;
        {
            QMutexLocker lock(&m_mutex);
            outgoing.swap(m_outgoing);
            m_drainPosted = false;
        }
        for (Outgoing &o : outgoing)
            o.worker->submit(std::move(o.batch));
    }

    // Transport thread. The zero timer fires once every socket that was ready in this pass of
    // the event loop has been read, so one wake-up carries all of their replies.
    void schedule(const std::shared_ptr<ReceivingThread> &to)
    {
        if (!to->scheduled) {
            to->scheduled = true;
            m_toFlush.push_back(to);
        }
        if (!m_flushTimer) {
            m_flushTimer = new QTimer(this);
            m_flushTimer->setSingleShot(true);
            m_flushTimer->setInterval(0);
            connect(m_flushTimer, &QTimer::timeout, this, [this] { flush(); });
        }
        if (!m_flushTimer->isActive())
            m_flushTimer->start();
    }

private:
    struct Outgoing
    {
        ConnectionWorker *worker;
        std::shared_ptr<Batch> batch;
    };

    void flush()
    {
        auto toFlush = std::move(m_toFlush);
        m_toFlush.clear();
        for (const auto &to : toFlush) {
            to->scheduled = false;
            QMutexLocker lock(&to->mutex);
            if (!to->point) {
                to->done.clear(); // the thread has ended: nobody to tell
                continue;
            }
            if (to->posted || to->done.empty())
                continue;
            to->posted = true;
            QMetaObject::invokeMethod(
                to->point, [to] { to->run(); }, Qt::QueuedConnection);
        }
    }

    QMutex m_mutex;
    std::vector<Outgoing> m_outgoing;
    bool m_drainPosted = false;
    std::vector<std::shared_ptr<ReceivingThread>> m_toFlush;
    QTimer *m_flushTimer = nullptr;
};

class Transport
{
public:
    Transport()
    {
        m_thread.setObjectName(QStringLiteral("redis transport"));
        m_hub.moveToThread(&m_thread);
        m_thread.start();
    }
    ~Transport()
    {
        m_thread.quit();
        m_thread.wait();
    }
    QThread *thread() { return &m_thread; }
    Hub &hub() { return m_hub; }

private:
    QThread m_thread;
    Hub m_hub;
};

Transport &instance()
{
    static Transport transport;
    return transport;
}

} // namespace

void ReceivingThread::run()
{
    std::vector<Done> ready;
    {
        QMutexLocker lock(&mutex);
        ready.swap(done);
        posted = false;
    }
    for (Done &d : ready) {
        if (!d.context)
            continue; // the caller is gone: nobody to tell
        if (d.context->thread() == QThread::currentThread())
            d.callback(d.results);
        else // the context moved to another thread after sending
            QMetaObject::invokeMethod(d.context.data(), [cb = std::move(d.callback),
                                                         r = std::move(d.results)] { cb(r); });
    }
}

QThread *thread()
{
    return instance().thread();
}

void submit(ConnectionWorker *worker, std::shared_ptr<Batch> batch)
{
    instance().hub().submit(worker, std::move(batch));
}

void submitQueued()
{
    Q_ASSERT(QThread::currentThread() == thread());
    instance().hub().drain();
}

std::shared_ptr<ReceivingThread> receivingThread()
{
    // Destroyed when the thread ends; the queue outlives it for as long as a delivery refers
    // to it, and then drops what it holds.
    struct Holder
    {
        std::shared_ptr<ReceivingThread> queue = std::make_shared<ReceivingThread>();
        DeliveryPoint point{queue.get()};
    };
    thread_local Holder holder;
    return holder.queue;
}

void deliver(const std::shared_ptr<ReceivingThread> &to, QPointer<QObject> context,
             BatchCallback callback, QList<ReplyResult> results)
{
    {
        QMutexLocker lock(&to->mutex);
        to->done.push_back({std::move(context), std::move(callback), std::move(results)});
    }
    instance().hub().schedule(to);
}

} // namespace redis::transport
