// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LabRun.h"

#include <QObject>
#include <QThread>
#include <atomic>

namespace lab {

// Runs a LabRun on a thread of its own, so that the window that asked stays responsive: the
// storm's sockets live on that thread and its replies never reach the GUI thread. Progress
// and the report arrive as signals on the thread that owns the worker.
class LabWorker : public QObject
{
    Q_OBJECT
public:
    explicit LabWorker(QObject *parent = nullptr);
    ~LabWorker() override; // cancels and waits for a running lab (its keys are removed)

    bool isRunning() const { return m_thread && m_thread->isRunning(); }
    // Ignored while a run is going on.
    void start(const LabSettings &settings, const LabTarget &target);
    void cancel() { m_cancel = true; }

signals:
    void progress(int strategyIndex, qint64 attemptsDone, const QString &node);
    void finished(const lab::LabReport &report);

private:
    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancel{false};
};

} // namespace lab

Q_DECLARE_METATYPE(lab::LabReport)
