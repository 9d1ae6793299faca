// SPDX-License-Identifier: GPL-3.0-or-later
#include "InspectInBackground.h"

#include <QThread>

#include <memory>

namespace functions {

void inspectFileInBackground(const QString &path, QObject *context,
                             std::function<void(const InspectedFile &)> done,
                             const InspectOptions &options)
{
    using Outcome = InspectedFile;
    auto result = std::make_shared<std::optional<Outcome>>();
    QThread *worker =
        QThread::create([path, options, result] { result->emplace(inspectFile(path, options)); });
    // Queued to the context's thread; dropped by Qt if the context is gone by then.
    QObject::connect(worker, &QThread::finished, context,
                     [result, done = std::move(done)] { done(**result); });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

} // namespace functions
