// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditLoader.h"

#include <QElapsedTimer>
#include <QThread>

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

namespace inventory {

AuditLoader::AuditLoader(QObject *parent)
    : QObject(parent)
{}

AuditLoader::~AuditLoader()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

void AuditLoader::start(std::unique_ptr<AuditIndex> index)
{
    Q_ASSERT(!m_thread);
    m_index = std::move(index);
    m_cancel = false;
    AuditIndex *work = m_index.get();
    m_thread = QThread::create([this, work] {
        // Nicer than the GUI thread: a thread's own nice value (Linux) lets the GUI thread, when
        // it wakes for an event, preempt this one at once. Both share the process's scheduling
        // group, and at equal weight the GUI thread waited tens of ms behind the parser.
        ::setpriority(PRIO_PROCESS, ::gettid(),
                      std::min(19, ::getpriority(PRIO_PROCESS, ::gettid()) + 10));
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        const auto stats = work->readAppended(-1, &m_cancel, [&](qint64 done, qint64 total) {
            if (sinceProgress.elapsed() < 50)
                return;
            sinceProgress.restart();
            QMetaObject::invokeMethod(
                this, [this, done, total] { emit progress(done, total); }, Qt::QueuedConnection);
        });
        m_cancelled = stats.read.cancelled;
        // Parsing a million lines leaves this thread's malloc arena full of freed blocks:
        // hand them back, or the process keeps the whole file's worth of them.
        ::malloc_trim(0);
    });
    m_thread->setObjectName(QStringLiteral("audit-loader"));
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->deleteLater();
        m_thread = nullptr;
        emit finished(m_cancelled);
    });
    m_thread->start();
}

void AuditLoader::cancel()
{
    m_cancel = true;
}

} // namespace inventory
