#include "ServerOverview.h"

namespace session {

QString ServerOverview::roleLabel() const
{
    if (role == QLatin1String("master"))
        return QStringLiteral("primary");
    if (role == QLatin1String("slave"))
        return QStringLiteral("replica");
    return role;
}

bool ServerOverview::evictionCanDropReceipts() const
{
    return evictionPolicy.startsWith(QLatin1String("allkeys-"))
           || evictionPolicy.startsWith(QLatin1String("volatile-"));
}

QHash<QByteArray, QByteArray> parseInfo(const QByteArray &info)
{
    QHash<QByteArray, QByteArray> out;
    for (const QByteArray &rawLine : info.split('\n')) {
        const QByteArray line = rawLine.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            out.insert(line.left(colon), line.mid(colon + 1));
    }
    return out;
}

QList<redis::Command> overviewCommands()
{
    return {{"INFO", "everything"},
            {"DBSIZE"},
            {"CONFIG", "GET", "maxmemory-policy"},
            {"FUNCTION", "LIST"}};
}

core::Result<ServerOverview, redis::RedisError> decodeOverview(const QList<redis::ReplyResult> &r)
{
    if (r.size() != 4)
        return redis::RedisError::notSent(QStringLiteral("overview: wrong number of replies"));
    if (!r[0].ok())
        return r[0].error();
    if (!r[0]->isString())
        return redis::RedisError{redis::RedisError::Kind::Protocol,
                                 {},
                                 QStringLiteral("INFO did not return text"),
                                 true};
    const auto info = parseInfo(r[0]->bytes());
    ServerOverview o;
    o.version = QString::fromLatin1(info.value("redis_version"));
    o.mode = QString::fromLatin1(info.value("redis_mode"));
    o.role = QString::fromLatin1(info.value("role"));
    o.runId = QString::fromLatin1(info.value("run_id"));
    o.uptimeSeconds = info.value("uptime_in_seconds").toLongLong();
    o.usedMemory = info.value("used_memory").toLongLong();
    o.maxMemory = info.value("maxmemory").toLongLong();
    if (info.contains("maxmemory_policy")) // INFO memory carries it since Redis 4
        o.evictionPolicy = QString::fromLatin1(info.value("maxmemory_policy"));
    if (r[1].ok() && r[1]->isInteger())
        o.keyCount = r[1]->toInteger();
    if (r[2].ok() && r[2]->isArray() && r[2]->size() == 2)
        o.evictionPolicy = QString::fromLatin1(r[2]->at(1).bytes());
    if (r[3].ok()) {
        auto libs = redis::decodeFunctionList(r[3].value());
        if (libs.ok())
            o.libraries = libs.value();
        else
            o.librariesError = libs.error();
    } else {
        o.librariesError = r[3].error().message;
    }
    return o;
}

void fetchOverview(redis::CommandSender &sender, QObject *context,
                   std::function<void(const core::Result<ServerOverview, redis::RedisError> &)> cb)
{
    const QString address = sender.address();
    sender.sendBatch(overviewCommands(), context,
                     [cb = std::move(cb), address](const QList<redis::ReplyResult> &r) {
                         auto o = decodeOverview(r);
                         if (o.ok()) {
                             ServerOverview v = o.value();
                             v.address = address;
                             cb(v);
                         } else {
                             cb(o);
                         }
                     });
}

QString formatBytes(qint64 bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes)
                  : QStringLiteral("%1 %2").arg(v, 0, 'f', 1).arg(QLatin1String(units[u]));
}

QString formatDuration(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("-");
    const qint64 d = seconds / 86400, h = (seconds % 86400) / 3600, m = (seconds % 3600) / 60,
                 s = seconds % 60;
    if (d > 0)
        return QStringLiteral("%1 d %2 h").arg(d).arg(h);
    if (h > 0)
        return QStringLiteral("%1 h %2 min").arg(h).arg(m);
    if (m > 0)
        return QStringLiteral("%1 min %2 s").arg(m).arg(s);
    return QStringLiteral("%1 s").arg(s);
}

} // namespace session
