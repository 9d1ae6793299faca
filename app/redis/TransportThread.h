// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CommandSender.h"

#include <QPointer>
#include <memory>

namespace redis {

class ConnectionWorker;
struct Batch;

// The one I/O thread every connection shares, and the two hand-offs across it. A cluster's
// dozen sockets or a benchmark's fifty cost one thread, and a burst of work costs one wake-up
// in each direction however many connections take part:
// - batches sent from any thread queue up and the transport thread takes them in one go;
// - replies finished while the transport thread reads its sockets are handed to each
//   receiving thread together, once that pass over the sockets is over.
namespace transport {

QThread *thread();

// Any thread: the batch is submitted to the worker on the transport thread, in order.
void submit(ConnectionWorker *worker, std::shared_ptr<Batch> batch);

// Transport thread: submits whatever is still queued. A worker's owner calls it before
// deleting the worker, so nothing queued for it outlives it.
void submitQueued();

// Where replies for one receiving thread gather until that thread runs them.
struct ReceivingThread;
// Any thread: the queue of the calling thread, created on first use.
std::shared_ptr<ReceivingThread> receivingThread();

// Transport thread: the callback runs on the receiving thread after the current pass over the
// sockets, unless its context is gone by then (or on the context's own thread, if it moved).
void deliver(const std::shared_ptr<ReceivingThread> &to, QPointer<QObject> context,
             BatchCallback callback, QList<ReplyResult> results);

} // namespace transport
} // namespace redis
