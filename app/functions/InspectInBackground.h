// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Inspection.h"

#include <QObject>
#include <functional>

namespace functions {

// inspectFile() on a worker thread: a file whose top level runs into the wall-clock limit
// takes seconds, and the window must keep painting and answering meanwhile. `done` runs on
// `context`'s thread, and not at all if `context` is destroyed first.
void inspectFileInBackground(const QString &path, QObject *context,
                             std::function<void(const InspectedFile &)> done,
                             const InspectOptions &options = {});

} // namespace functions
