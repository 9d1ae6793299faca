#pragma once

#include "RespCodec.h"

#include <QObject>
#include <functional>

namespace redis {

using Callback = std::function<void(const ReplyResult &)>;
using BatchCallback = std::function<void(const QList<ReplyResult> &)>;

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
    virtual QString address() const = 0;
    // What a SCAN must visit to see every key: this sender itself, except on a cluster, where
    // each primary has its own cursor.
    virtual QList<ScanNode> scanNodes() { return {ScanNode{this, address()}}; }
    // Why scanNodes() cannot see every key (on a cluster, slots no primary serves), or empty.
    virtual QString coverageProblem() const { return {}; }

    void send(Command command, QObject *context, Callback callback, int timeoutMs = -1);

    // Blocking forms for the command line and tests: they run a local event loop.
    ReplyResult call(Command command, int timeoutMs = -1);
    QList<ReplyResult> callBatch(QList<Command> commands, int timeoutMs = -1);
};

} // namespace redis
