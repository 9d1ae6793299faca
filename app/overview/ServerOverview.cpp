// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerOverview.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>

namespace overview {

namespace {

// The read commands of overviewCommands(), by index, as a person names them.
const char *const ReadNames[] = {"INFO", "DBSIZE", "CONFIG GET", "FUNCTION LIST"};

bool isNoPerm(const redis::ReplyResult &r)
{
    return !r.ok() && r.error().isServer("NOPERM");
}

// The ACL rules that would allow these reads ("+info +dbsize +config|get").
QString deniedAclRules(const QStringList &reads)
{
    QStringList rules;
    for (const QString &read : reads)
        rules << QLatin1Char('+') + read.toLower().replace(QLatin1Char(' '), QLatin1Char('|'));
    return rules.join(QLatin1Char(' '));
}

} // namespace

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

QString ServerOverview::deniedSummary() const
{
    if (deniedReads.isEmpty())
        return {};
    return QStringLiteral("User '%1' may not run %2 (NOPERM): the overview reads as the "
                          "session's user, so what %3 would show is unknown here. Allow %4 "
                          "for this user, or connect as one that may read them.")
        .arg(user.isEmpty() ? QStringLiteral("default") : user,
             deniedReads.join(QStringLiteral(", ")),
             deniedReads.size() == 1 ? QStringLiteral("it") : QStringLiteral("they"),
             deniedAclRules(deniedReads));
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
        return redis::RedisError::notSent(core::Sentence::translated(
            "overview::ServerOverview",
            QT_TRANSLATE_NOOP("overview::ServerOverview", "overview: wrong number of replies")));
    ServerOverview o;
    for (int i = 0; i < 4; ++i)
        if (isNoPerm(r[i]))
            o.deniedReads << QLatin1String(ReadNames[i]);
    if (!r[0].ok() && !isNoPerm(r[0]))
        return r[0].error();
    QHash<QByteArray, QByteArray> info;
    if (r[0].ok()) {
        const auto infoText = r[0]->string();
        if (!infoText)
            return redis::RedisError::unexpected(
                core::Sentence::plain(QStringLiteral("INFO: %1")).arg(infoText.error().message));
        info = parseInfo(*infoText);
    }
    o.server = serverIdentity(info);
    o.role = QString::fromLatin1(info.value("role"));
    o.runId = QString::fromLatin1(info.value("run_id"));
    o.uptimeSeconds = info.value("uptime_in_seconds").toLongLong();
    if (info.contains("aof_enabled"))
        o.aofEnabled = info.value("aof_enabled") == "1";
    o.usedMemory = info.value("used_memory").toLongLong();
    o.maxMemory = info.value("maxmemory").toLongLong();
    if (info.contains("maxmemory_policy")) // INFO memory carries it since Redis 4
        o.evictionPolicy = QString::fromLatin1(info.value("maxmemory_policy"));
    if (const auto keys = redis::integerOf(r[1]))
        o.keyCount = *keys;
    if (const auto pair = redis::arrayOf(r[2]); pair && pair->size() == 2)
        if (const auto policy = pair->at(1).string())
            o.evictionPolicy = QString::fromLatin1(*policy);
    if (r[3].ok()) {
        auto libs = redis::decodeFunctionList(r[3].value());
        if (libs.ok())
            o.libraries = libs.value();
        else
            o.librariesError = libs.error().text;
    } else if (!isNoPerm(r[3])) {
        o.librariesError = r[3].error().message.text;
    }
    return o;
}

IdentityChange identityChange(const ServerOverview &previous, const ServerOverview &current)
{
    if (previous.runId.isEmpty() || current.runId.isEmpty() || previous.runId == current.runId)
        return IdentityChange::None;
    if (!previous.address.isEmpty() && !current.address.isEmpty()
        && previous.address != current.address)
        return IdentityChange::Moved;
    return IdentityChange::Restarted;
}

namespace {
// The overview's banner, in the window's language.
struct OverviewText
{
    Q_DECLARE_TR_FUNCTIONS(overview::ServerOverview)
};
} // namespace

QString identityChangeSentence(const ServerOverview &previous, const ServerOverview &current,
                               const QDateTime &now)
{
    const IdentityChange change = identityChange(previous, current);
    if (change == IdentityChange::None)
        return {};
    if (change == IdentityChange::Moved)
        return OverviewText::tr("The primary moved from %1 to %2, another server (run_id %3, not "
                                "%4). It holds what it had replicated from %1: writes %1 "
                                "acknowledged just before the move may be missing here, so "
                                "check a receipt before relying on it.")
            .arg(previous.address, current.address, current.runId.left(8), previous.runId.left(8));
    const QString started =
        now.addSecs(-current.uptimeSeconds).toString(QStringLiteral("HH:mm:ss"));
    const QString receipts =
        current.aofEnabled.value_or(false)
            ? OverviewText::tr("AOF is on, so receipts written before it should have been kept; "
                               "check a receipt before relying on it.")
        : current.aofEnabled ? OverviewText::tr("AOF is off: receipts written before it are gone "
                                                "unless its last snapshot held them, and a retry "
                                                "of those orders deducts again.")
                             : OverviewText::tr("Its persistence could not be read: receipts "
                                                "written before it may be gone.");
    return OverviewText::tr("The server behind this address restarted or was replaced: its "
                            "run_id changed from %1 to %2 (this one started at %3). %4")
        .arg(previous.runId.left(8), current.runId.left(8), started, receipts);
}

void fetchOverview(redis::CommandSender &sender, QObject *context,
                   std::function<void(const core::Result<ServerOverview, redis::RedisError> &)> cb,
                   const QString &user)
{
    const QString address = sender.address();
    sender.sendBatch(overviewCommands(), context,
                     [cb = std::move(cb), address, user](const QList<redis::ReplyResult> &r) {
                         auto o = decodeOverview(r);
                         if (o.ok()) {
                             ServerOverview v = o.value();
                             v.address = address;
                             v.user = user.isEmpty() ? QStringLiteral("default") : user;
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

QString formatDuration(qint64 seconds, core::Wording wording)
{
    const auto say = [wording](const char *source) {
        return core::word(wording, "overview::ServerOverview", source);
    };
    if (seconds < 0)
        return QStringLiteral("-");
    const qint64 d = seconds / 86400, h = (seconds % 86400) / 3600, m = (seconds % 3600) / 60,
                 s = seconds % 60;
    if (d > 0)
        return say(QT_TRANSLATE_NOOP("overview::ServerOverview", "%1 d %2 h")).arg(d).arg(h);
    if (h > 0)
        return say(QT_TRANSLATE_NOOP("overview::ServerOverview", "%1 h %2 min")).arg(h).arg(m);
    if (m > 0)
        return say(QT_TRANSLATE_NOOP("overview::ServerOverview", "%1 min %2 s")).arg(m).arg(s);
    return say(QT_TRANSLATE_NOOP("overview::ServerOverview", "%1 s")).arg(s);
}

} // namespace overview
