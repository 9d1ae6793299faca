// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadOnlySender.h"

#include "CommandTraits.h"

#include <QTimer>
#include <algorithm>

namespace gate {

ReadOnlySender::ReadOnlySender(redis::CommandSender &inner, QObject *parent)
    : QObject(parent)
    , m_inner(inner)
{}

ReadOnlySender::~ReadOnlySender() = default;

QList<redis::ReplyResult> ReadOnlySender::refusals(const QList<redis::Command> &commands) const
{
    const auto offending = std::find_if(commands.cbegin(), commands.cend(), [](const auto &c) {
        return !CommandTraits::isKnownRead(c);
    });
    if (offending == commands.cend())
        return {};
    const QString name = offending->isEmpty()
                             ? QStringLiteral("an empty command")
                             : QString::fromUtf8(CommandTraits::commandName(*offending).toUpper())
                                   .replace(QLatin1Char('|'), QLatin1Char(' '));
    const redis::RedisError refused = redis::RedisError::notSent(
        core::Sentence::translated(
            "gate::ReadOnlySender",
            QT_TRANSLATE_NOOP("gate::ReadOnlySender",
                              "not sent: this view only reads, and %1 is not a command it knows "
                              "to be a read (nothing in the batch was sent)"))
            .arg(name),
        redis::RedisError::Refusal::ReadOnlyView);
    return QList<redis::ReplyResult>(commands.size(), redis::ReplyResult(refused));
}

void ReadOnlySender::sendBatch(QList<redis::Command> commands, QObject *context,
                               redis::BatchCallback callback, int timeoutMs)
{
    if (QList<redis::ReplyResult> refused = refusals(commands); !refused.isEmpty()) {
        // Posted, as a sender's replies always are: never inside the caller's own call.
        QTimer::singleShot(0, context ? context : this,
                           [cb = std::move(callback), refused] { cb(refused); });
        return;
    }
    m_inner.sendBatch(std::move(commands), context, std::move(callback), timeoutMs);
}

void ReadOnlySender::sendTimedBatch(QList<redis::Command> commands, QObject *context,
                                    redis::TimedBatchCallback callback, int timeoutMs)
{
    if (QList<redis::ReplyResult> refused = refusals(commands); !refused.isEmpty()) {
        QTimer::singleShot(0, context ? context : this,
                           [cb = std::move(callback), refused] { cb(refused, std::nullopt); });
        return;
    }
    m_inner.sendTimedBatch(std::move(commands), context, std::move(callback), timeoutMs);
}

QList<redis::ScanNode> ReadOnlySender::scanNodes()
{
    QList<redis::ScanNode> nodes = m_inner.scanNodes();
    for (redis::ScanNode &node : nodes) {
        if (node.sender == &m_inner) {
            node.sender = this;
            continue;
        }
        std::unique_ptr<ReadOnlySender> &wrapped = m_nodes[node.sender];
        if (!wrapped)
            wrapped = std::make_unique<ReadOnlySender>(*node.sender);
        node.sender = wrapped.get();
    }
    return nodes;
}

} // namespace gate
