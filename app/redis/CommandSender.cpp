#include "CommandSender.h"

#include <QEventLoop>

namespace redis {

void CommandSender::send(Command command, QObject *context, Callback callback, int timeoutMs)
{
    sendBatch(
        {std::move(command)}, context,
        [cb = std::move(callback)](const QList<ReplyResult> &results) { cb(results.first()); },
        timeoutMs);
}

QList<ReplyResult> CommandSender::callBatch(QList<Command> commands, int timeoutMs)
{
    QEventLoop loop;
    QList<ReplyResult> out;
    bool done = false;
    sendBatch(
        std::move(commands), &loop,
        [&](const QList<ReplyResult> &results) {
            out = results;
            done = true;
            loop.quit();
        },
        timeoutMs);
    if (!done)
        loop.exec();
    return out;
}

ReplyResult CommandSender::call(Command command, int timeoutMs)
{
    return callBatch({std::move(command)}, timeoutMs).first();
}

} // namespace redis
