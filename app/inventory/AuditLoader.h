// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AuditIndex.h"

#include <QObject>
#include <atomic>
#include <memory>

class QThread;

namespace inventory {

// Reads a long stretch of the audit log (the first load of a big file) on a worker thread,
// so that the GUI thread never parses: the index moves to the worker, and comes back with
// finished(), on the thread that called start(). Progress comes at most every 50 ms.
class AuditLoader : public QObject
{
    Q_OBJECT
public:
    // Pending bytes a reader may still parse on its own thread (most reloads follow one write:
    // a few hundred bytes); past this, a read goes to an AuditLoader.
    static constexpr qint64 InlineReadBytes = 512 * 1024;
    // What `index` has yet to read is more than that (or unknown: a replaced file).
    static bool readsOnWorker(const AuditIndex &index)
    {
        const qint64 pending = index.tail().pendingBytes();
        return pending < 0 || pending > InlineReadBytes;
    }

    explicit AuditLoader(QObject *parent = nullptr);
    ~AuditLoader() override; // cancels a running load and waits for it

    void start(std::unique_ptr<AuditIndex> index);
    void cancel(); // finished(true) follows; the index keeps what was read
    bool isRunning() const { return m_thread != nullptr; }
    // After finished(): the index, with what was read.
    std::unique_ptr<AuditIndex> takeIndex() { return std::move(m_index); }

signals:
    void progress(qint64 done, qint64 total);
    void finished(bool cancelled);

private:
    QThread *m_thread = nullptr;
    std::unique_ptr<AuditIndex> m_index;
    std::atomic_bool m_cancel{false};
    bool m_cancelled = false;
};

} // namespace inventory
