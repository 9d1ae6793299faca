// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabWorker.h"

namespace lab {

LabWorker::LabWorker(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<lab::LabReport>();
}

LabWorker::~LabWorker()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

void LabWorker::start(const LabSettings &settings, const LabTarget &target)
{
    if (isRunning())
        return;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
    m_cancel = false;
    m_thread = QThread::create([this, settings, target] {
        LabRun run(settings, target);
        run.setCancelFlag(&m_cancel);
        run.setProgress([this](int index, qint64 done, const QString &node) {
            QMetaObject::invokeMethod(
                this, [this, index, done, node] { emit progress(index, done, node); },
                Qt::QueuedConnection);
        });
        const LabReport report = run.run();
        QMetaObject::invokeMethod(
            this, [this, report] { emit finished(report); }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("lab"));
    m_thread->start();
}

} // namespace lab
