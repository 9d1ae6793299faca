// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerEvidence.h"

#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QDateTime>

namespace browse {

namespace {

// Shown inside the order lookup's sentences: translated in the window, English in the CLI.
struct ServerEvidenceText
{
    Q_DECLARE_TR_FUNCTIONS(browse::ServerEvidence)
};

qint64 number(const QHash<QByteArray, QByteArray> &info, const char *field)
{
    bool ok = false;
    const qint64 v = info.value(field).toLongLong(&ok);
    return ok ? v : -1;
}

} // namespace

bool ServerEvidence::evictionPossible() const
{
    return maxMemory != 0 && evictionPolicy != QLatin1String("noeviction");
}

qint64 ServerEvidence::startedAtMs() const
{
    return uptimeSeconds < 0 ? -1 : readAtMs - uptimeSeconds * 1000;
}

QString ServerEvidence::memoryText() const
{
    if (maxMemory <= 0 || usedMemory < 0)
        return {};
    return ServerEvidenceText::tr("used %1 of %2 (%3 %)")
        .arg(overview::formatBytes(usedMemory), overview::formatBytes(maxMemory))
        .arg(usedMemory * 100 / maxMemory);
}

QString ServerEvidence::serverText() const
{
    const QString id = runId.left(8);
    return tcpPort > 0
               ? ServerEvidenceText::tr("the server on port %1 (run_id %2)").arg(tcpPort).arg(id)
               : ServerEvidenceText::tr("the server (run_id %1)").arg(id);
}

ServerEvidence evidenceFromInfo(const QHash<QByteArray, QByteArray> &info, qint64 nowMs)
{
    ServerEvidence e;
    e.readAtMs = nowMs;
    e.runId = QString::fromLatin1(info.value("run_id"));
    e.uptimeSeconds = number(info, "uptime_in_seconds");
    e.tcpPort = number(info, "tcp_port");
    e.evictionPolicy = QString::fromLatin1(info.value("maxmemory_policy"));
    e.maxMemory = number(info, "maxmemory");
    e.usedMemory = number(info, "used_memory");
    e.evictedKeys = number(info, "evicted_keys");
    if (info.contains("aof_enabled"))
        e.aofEnabled = info.value("aof_enabled") == "1";
    // rdb_last_save_time is the start time until a first save: rdb_saves (Redis 7+) tells a
    // snapshot from none.
    if (const qint64 save = number(info, "rdb_last_save_time");
        save > 0 && number(info, "rdb_saves") != 0)
        e.lastSaveMs = save * 1000;
    // Without these a sentence would rest on defaults: the read counts as failed.
    if (e.runId.isEmpty() || e.evictionPolicy.isEmpty() || e.maxMemory < 0 || e.uptimeSeconds < 0)
        e.readError = QStringLiteral("INFO did not say the server's run_id, uptime, maxmemory "
                                     "and maxmemory_policy");
    return e;
}

QList<redis::Command> evidenceCommands(const QByteArray &key)
{
    if (key.isEmpty())
        return {{"INFO"}};
    return {{"INFO"}, {"PTTL", key}};
}

ServerEvidence decodeEvidence(const QList<redis::ReplyResult> &replies, qint64 nowMs)
{
    ServerEvidence e;
    const auto text =
        replies.isEmpty()
            ? redis::Decoded<QByteArray>(redis::RedisError::notSent(redis::RedisError::noReply()))
            : redis::stringOf(replies.first());
    if (text)
        e = evidenceFromInfo(overview::parseInfo(*text), nowMs);
    else
        e.readError = QStringLiteral("INFO: %1").arg(text.error().readFailure().text);
    e.readAtMs = nowMs;
    return e;
}

ServerEvidence readEvidence(redis::CommandSender &sender, const QByteArray &key, int timeoutMs)
{
    const auto replies = sender.callBatch(evidenceCommands(key), timeoutMs);
    return decodeEvidence(replies, QDateTime::currentMSecsSinceEpoch());
}

} // namespace browse
