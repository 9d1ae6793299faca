// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RespCodec.h"
#include "core/Wording.h"

#include <QObject>
#include <functional>
#include <optional>

namespace redis {

using Callback = std::function<void(const ReplyResult &)>;
using BatchCallback = std::function<void(const QList<ReplyResult> &)>;
// How long a batch was out, timed where its socket is read: from its write to the read of its
// last reply. A receiving thread that is busy (a modal dialog on the GUI thread) adds nothing,
// so this is the network and the server, not the console. Absent when not every reply came or
// the sender cannot time it: the console then shows no round trip rather than a wrong one.
using WireTimeUs = std::optional<qint64>;
using TimedBatchCallback = std::function<void(const QList<ReplyResult> &, WireTimeUs)>;

// What every feature talks to: a standalone connection, later a cluster router, and the
// write gate that wraps either. Callbacks run on the context object's thread, never after
// the context is destroyed.
class CommandSender;

// One node a keyspace walk visits, with a name for progress and errors.
struct ScanNode
{
    CommandSender *sender = nullptr;
    QString name;
};

class CommandSender
{
public:
    virtual ~CommandSender() = default;

    // All commands go out together and the callback gets one result per command, in order.
    virtual void sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                           int timeoutMs = -1) = 0;
    // sendBatch, with the batch's time on the wire. This default cannot time it (a wrapper or a
    // fake does not own a socket) and says so; a connection overrides it.
    virtual void sendTimedBatch(QList<Command> commands, QObject *context,
                                TimedBatchCallback callback, int timeoutMs = -1);
    virtual QString address() const = 0;
    // What a SCAN must visit to see every key: this sender itself, except on a cluster, where
    // each primary has its own cursor.
    virtual QList<ScanNode> scanNodes() { return {ScanNode{this, address()}}; }
    // Why scanNodes() cannot see every key (on a cluster, slots no primary serves), or empty.
    virtual core::Sentence coverageProblem() const { return {}; }

    void send(Command command, QObject *context, Callback callback, int timeoutMs = -1);

    // Blocking forms for the command line and tests: they run a local event loop.
    ReplyResult call(Command command, int timeoutMs = -1);
    QList<ReplyResult> callBatch(QList<Command> commands, int timeoutMs = -1);
};

} // namespace redis
