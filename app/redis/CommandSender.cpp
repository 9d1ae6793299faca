// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandSender.h"

#include "Blocking.h"

namespace redis {

void CommandSender::send(Command command, QObject *context, Callback callback, int timeoutMs)
{
    sendBatch(
        {std::move(command)}, context,
        [cb = std::move(callback)](const QList<ReplyResult> &results) { cb(results.first()); },
        timeoutMs);
}

void CommandSender::sendTimedBatch(QList<Command> commands, QObject *context,
                                   TimedBatchCallback callback, int timeoutMs)
{
    sendBatch(
        std::move(commands), context,
        [cb = std::move(callback)](const QList<ReplyResult> &results) { cb(results, {}); },
        timeoutMs);
}

QList<ReplyResult> CommandSender::callBatch(QList<Command> commands, int timeoutMs)
{
    return blockUntilReply<QList<ReplyResult>>([&](QObject *context, auto done) {
        sendBatch(std::move(commands), context, done, timeoutMs);
    });
}

ReplyResult CommandSender::call(Command command, int timeoutMs)
{
    return callBatch({std::move(command)}, timeoutMs).first();
}

} // namespace redis
