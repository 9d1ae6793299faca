// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeReport.h"

#include "core/Wording.h"
#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace session {

namespace {
const char *const DeductFunction = "inventory_deduct_v1";
const char *const Context = "session::ProbeReport";

// Why a probe failed: the connection test shows it, ping prints the English.
core::Sentence probeSays(const char *source)
{
    return core::Sentence::translated("session::ProbeFailure", source);
}

// The connection test's rows are translated in the window; the CLI (ping) prints the English.
// toJson() and the fields it writes (detail, failure, verdict) stay English.
struct ProbeText
{
    Q_DECLARE_TR_FUNCTIONS(session::ProbeReport)
};

// What a permission check asks, in the window's language. The action itself is compared in
// code and written to --json, so it stays English.
QString mayText(const PermissionCheck &c)
{
    if (c.action == callAction())
        return ProbeText::tr("'%1' may call %2").arg(c.user, QLatin1String(DeductFunction));
    static const char *const actions[][2] = {
        {"load function libraries",
         QT_TRANSLATE_NOOP("session::ProbeReport", "'%1' may load function libraries")},
        {"read function libraries (FUNCTION LIST)",
         QT_TRANSLATE_NOOP("session::ProbeReport",
                           "'%1' may read function libraries (FUNCTION LIST)")},
        {"back up function libraries (FUNCTION DUMP)",
         QT_TRANSLATE_NOOP("session::ProbeReport",
                           "'%1' may back up function libraries (FUNCTION DUMP)")},
        {"roll back a dump (FUNCTION RESTORE)",
         QT_TRANSLATE_NOOP("session::ProbeReport", "'%1' may roll back a dump (FUNCTION RESTORE)")},
    };
    for (const auto &a : actions)
        if (c.action == QLatin1String(a[0]))
            return QCoreApplication::translate(Context, a[1]).arg(c.user);
    return ProbeText::tr("'%1' may %2").arg(c.user, c.action);
}

QString verdictText(PermissionCheck::Verdict v)
{
    switch (v) {
    case PermissionCheck::Verdict::Allowed:
        return ProbeText::tr("allowed");
    case PermissionCheck::Verdict::Denied:
        return ProbeText::tr("denied");
    case PermissionCheck::Verdict::Unknown:
        return ProbeText::tr("unknown");
    }
    return {};
}

QString headline(ProbeFailure::Kind k, core::Wording wording)
{
    const auto say = [wording](const char *source) {
        return core::word(wording, Context, source);
    };
    switch (k) {
    case ProbeFailure::Kind::HostNotFound:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "host not found"));
    case ProbeFailure::Kind::ResolverUnreachable:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "could not look up the host name"));
    case ProbeFailure::Kind::Refused:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "connection refused"));
    case ProbeFailure::Kind::Timeout:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "no answer in time"));
    case ProbeFailure::Kind::Authentication:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "wrong user name or password"));
    case ProbeFailure::Kind::PasswordRequired:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "a password is required"));
    case ProbeFailure::Kind::Tls:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "TLS failed"));
    case ProbeFailure::Kind::Protocol:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "not a Redis answer"));
    case ProbeFailure::Kind::Server:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "refused by the server"));
    case ProbeFailure::Kind::Other:
        return say(QT_TRANSLATE_NOOP("session::ProbeReport", "failed"));
    }
    return {};
}

QStringList dryRunUsers(const profiles::ConnectionProfile &p)
{
    QStringList users{p.effectiveUsername()};
    if (!p.releaseUsername.isEmpty() && p.releaseUsername != users.first())
        users << p.releaseUsername;
    return users;
}
} // namespace

QString callAction()
{
    return QStringLiteral("call %1").arg(QLatin1String(DeductFunction));
}

redis::Command callDryRun(const profiles::ConnectionProfile &profile, const QString &user)
{
    // Key shapes from the profile, so that key patterns in the ACL are checked too.
    return redis::Command{"ACL",
                          "DRYRUN",
                          user.toUtf8(),
                          "FCALL",
                          DeductFunction,
                          "2",
                          profile.stockKey("probe"),
                          profile.receiptKey("probe", "probe"),
                          "1",
                          "1"};
}

QString loadAction()
{
    return QStringLiteral("load function libraries");
}

redis::Command loadDryRun(const QString &user)
{
    return {"ACL", "DRYRUN", user.toUtf8(), "FUNCTION", "LOAD", "REPLACE", "x"};
}

QString verdictName(PermissionCheck::Verdict v)
{
    switch (v) {
    case PermissionCheck::Verdict::Allowed:
        return QStringLiteral("allowed");
    case PermissionCheck::Verdict::Denied:
        return QStringLiteral("denied");
    case PermissionCheck::Verdict::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QString failureKindName(ProbeFailure::Kind k)
{
    switch (k) {
    case ProbeFailure::Kind::HostNotFound:
        return QStringLiteral("host-not-found");
    case ProbeFailure::Kind::ResolverUnreachable:
        return QStringLiteral("resolver-unreachable");
    case ProbeFailure::Kind::Refused:
        return QStringLiteral("refused");
    case ProbeFailure::Kind::Timeout:
        return QStringLiteral("timeout");
    case ProbeFailure::Kind::Authentication:
        return QStringLiteral("authentication");
    case ProbeFailure::Kind::PasswordRequired:
        return QStringLiteral("password-required");
    case ProbeFailure::Kind::Tls:
        return QStringLiteral("tls");
    case ProbeFailure::Kind::Protocol:
        return QStringLiteral("protocol");
    case ProbeFailure::Kind::Server:
        return QStringLiteral("server");
    case ProbeFailure::Kind::Other:
        return QStringLiteral("other");
    }
    return {};
}

QString ProbeReport::roleLabel() const
{
    overview::ServerOverview o;
    o.role = role;
    return o.roleLabel();
}

bool ProbeReport::evictionCanDropReceipts() const
{
    overview::ServerOverview o;
    o.evictionPolicy = evictionPolicy;
    return o.evictionCanDropReceipts();
}

QList<ProbeRow> ProbeReport::rows() const
{
    QList<ProbeRow> out;
    out << ProbeRow{ProbeText::tr("Server"),
                    tls ? ProbeText::tr("%1 at %2 (TLS)").arg(server.label(), address)
                        : ProbeText::tr("%1 at %2").arg(server.label(), address)};
    out << ProbeRow{ProbeText::tr("Latency"), ProbeText::tr("%1 ms").arg(latencyMs, 0, 'f', 2)};
    out << ProbeRow{ProbeText::tr("Mode"), server.mode};
    const QString role = roleLabel();
    out << ProbeRow{ProbeText::tr("Role"),
                    role == QLatin1String("primary")   ? ProbeText::tr("primary")
                    : role == QLatin1String("replica") ? ProbeText::tr("replica")
                                                       : role};
    if (user.isEmpty())
        out << ProbeRow{ProbeText::tr("User"), ProbeText::tr("unknown (%1)").arg(userError), true};
    else if (!expectedUser.isEmpty() && user != expectedUser)
        out << ProbeRow{ProbeText::tr("User"),
                        ProbeText::tr("%1, not '%2': without a password the console does not "
                                      "authenticate")
                            .arg(user, expectedUser),
                        true};
    else
        out << ProbeRow{ProbeText::tr("User"), user};
    if (release.tried)
        out << ProbeRow{ProbeText::tr("Release user"),
                        release.ok
                            ? ProbeText::tr("%1: logged in").arg(release.user)
                            : QStringLiteral("%1: %2").arg(release.user, release.failure.text),
                        !release.ok};
    if (evictionPolicy.isEmpty())
        out << ProbeRow{ProbeText::tr("Eviction"), ProbeText::tr("unknown")};
    else if (evictionCanDropReceipts())
        out << ProbeRow{
            ProbeText::tr("Eviction"),
            ProbeText::tr("%1: receipts can be evicted before their TTL ends").arg(evictionPolicy),
            true};
    else
        out << ProbeRow{ProbeText::tr("Eviction"), evictionPolicy};
    for (const PermissionCheck &c : permissions) {
        // With a release user that logged in, loads never run as another user: that user
        // being unable to load is as it should be, not a warning.
        const bool loadsElsewhere =
            release.ok && c.user != release.user && c.action == loadAction();
        QString value = verdictText(c.verdict);
        if (loadsElsewhere)
            value = ProbeText::tr("%1 (loads run as '%2')").arg(value, release.user);
        else if (!c.detail.isEmpty())
            value = ProbeText::tr("%1: %2").arg(value, c.detail.text);
        out << ProbeRow{mayText(c), value,
                        c.verdict != PermissionCheck::Verdict::Allowed && !loadsElsewhere};
    }
    return out;
}

QJsonObject ProbeReport::toJson() const
{
    QJsonArray perms;
    for (const PermissionCheck &c : permissions)
        perms.append(QJsonObject{{QStringLiteral("user"), c.user},
                                 {QStringLiteral("action"), c.action},
                                 {QStringLiteral("verdict"), verdictName(c.verdict)},
                                 {QStringLiteral("detail"), c.detail.english}});
    return QJsonObject{
        {QStringLiteral("address"), address},
        {QStringLiteral("tls"), tls},
        {QStringLiteral("latency_ms"), latencyMs},
        {QStringLiteral("server"), server.product},
        {QStringLiteral("version"), server.version},
        {QStringLiteral("redis_version"), server.redisVersion},
        {QStringLiteral("mode"), server.mode},
        {QStringLiteral("role"), roleLabel()},
        {QStringLiteral("user"), user.isEmpty() ? QJsonValue() : QJsonValue(user)},
        {QStringLiteral("expected_user"), expectedUser},
        {QStringLiteral("eviction_policy"),
         evictionPolicy.isEmpty() ? QJsonValue() : QJsonValue(evictionPolicy)},
        {QStringLiteral("eviction_can_drop_receipts"), evictionCanDropReceipts()},
        {QStringLiteral("permissions"), perms},
        {QStringLiteral("release_login"), release.tried ? QJsonValue(QJsonObject{
                                              {QStringLiteral("user"), release.user},
                                              {QStringLiteral("ok"), release.ok},
                                              {QStringLiteral("failure"), release.failure.english}})
                                                        : QJsonValue()},
    };
}

QString failureHeadline(ProbeFailure::Kind k)
{
    return headline(k, core::Wording::Translated);
}

QString englishFailureHeadline(ProbeFailure::Kind k)
{
    return headline(k, core::Wording::English);
}

ProbeFailure probeCommandFailed(const QString &command, const redis::RedisError &error)
{
    return ProbeFailure{error.kind == redis::RedisError::Kind::Server ? ProbeFailure::Kind::Server
                                                                      : ProbeFailure::Kind::Timeout,
                        probeSays(QT_TRANSLATE_NOOP("session::ProbeFailure", "%1 failed: %2"))
                            .arg(command, error.readFailure())};
}

ProbeFailure classifyConnectionFailure(redis::ConnectFailure failure, const core::Sentence &detail,
                                       bool tls)
{
    using K = ProbeFailure::Kind;
    using F = redis::ConnectFailure;
    K kind = K::Other;
    switch (failure) {
    case F::HostNotFound:
        kind = K::HostNotFound;
        break;
    case F::ResolverUnreachable:
        kind = K::ResolverUnreachable;
        break;
    case F::Refused:
        kind = K::Refused;
        break;
    case F::Timeout:
        kind = K::Timeout;
        break;
    case F::Authentication:
        kind = K::Authentication;
        break;
    case F::PasswordRequired:
        kind = K::PasswordRequired;
        break;
    case F::Tls:
        kind = K::Tls;
        break;
    case F::Protocol:
        kind = K::Protocol;
        break;
    case F::Server:
        kind = K::Server;
        break;
    case F::None:
    case F::ConnectionLost:
    case F::Other:
        break;
    }
    core::Sentence why =
        detail.isEmpty()
            ? probeSays(QT_TRANSLATE_NOOP("session::ProbeFailure", "the connection failed"))
            : detail;
    if (tls && (kind == K::Timeout || kind == K::Protocol))
        why = probeSays(QT_TRANSLATE_NOOP("session::ProbeFailure",
                                          "%1; TLS is on: check that the server speaks TLS on "
                                          "this port (redis:// for plain text)"))
                  .arg(why);
    return ProbeFailure{kind, why};
}

QList<redis::Command> probeCommands(const profiles::ConnectionProfile &profile)
{
    QList<redis::Command> out{
        {"INFO", "server"}, {"INFO", "replication"}, {"INFO", "memory"}, {"ACL", "WHOAMI"}};
    for (const QString &user : dryRunUsers(profile)) {
        out << callDryRun(profile, user);
        out << loadDryRun(user);
    }
    return out;
}

PermissionCheck decodeDryRun(const QString &user, const QString &action,
                             const redis::ReplyResult &reply)
{
    using V = PermissionCheck::Verdict;
    const auto said = [](const char *source) {
        return core::Sentence::translated(Context, source);
    };
    PermissionCheck c{user, action, V::Unknown, {}};
    if (reply.ok()) {
        const auto text = reply->string();
        if (text && reply->isStatus() && *text == "OK") {
            c.verdict = V::Allowed;
        } else if (text) {
            c.verdict = V::Denied; // Redis 7.0 answers a bulk string with the reason
            c.detail = core::Sentence::plain(QString::fromUtf8(*text));
        } else {
            c.detail =
                said(QT_TRANSLATE_NOOP("session::ProbeReport", "unexpected ACL DRYRUN reply"));
        }
        return c;
    }
    const redis::RedisError &e = reply.error();
    if (e.isServer("NOPERM")) {
        c.detail = said(QT_TRANSLATE_NOOP("session::ProbeReport",
                                          "this connection's user may not run ACL DRYRUN"));
    } else if (e.kind == redis::RedisError::Kind::Server
               && e.message.english.contains(QLatin1String("not found"), Qt::CaseInsensitive)
               && e.message.english.contains(QLatin1String("user"), Qt::CaseInsensitive)) {
        c.verdict = V::Denied;
        c.detail = said(QT_TRANSLATE_NOOP("session::ProbeReport",
                                          "there is no ACL user '%1' on this server"))
                       .arg(user);
    } else if (e.kind == redis::RedisError::Kind::Server
               && e.message.english.contains(QLatin1String("unknown subcommand"),
                                             Qt::CaseInsensitive)) {
        c.detail = said(QT_TRANSLATE_NOOP("session::ProbeReport",
                                          "this server has no ACL DRYRUN (Redis 7.0 or later)"));
    } else {
        c.detail =
            said(QT_TRANSLATE_NOOP("session::ProbeReport", "ACL DRYRUN failed: %1")).arg(e.message);
    }
    return c;
}

core::Result<ProbeReport, ProbeFailure> decodeProbe(const profiles::ConnectionProfile &profile,
                                                    const QList<redis::ReplyResult> &r)
{
    const QStringList users = dryRunUsers(profile);
    if (r.size() != 4 + 2 * users.size())
        return ProbeFailure{ProbeFailure::Kind::Other,
                            probeSays(QT_TRANSLATE_NOOP("session::ProbeFailure",
                                                        "probe: wrong number of replies"))};
    QHash<QByteArray, QByteArray> info;
    for (int i = 0; i < 3; ++i) {
        if (!r[i].ok()) {
            return probeCommandFailed(QStringLiteral("INFO"), r[i].error());
        }
        const auto text = r[i]->string();
        if (!text)
            return ProbeFailure{
                ProbeFailure::Kind::Other,
                core::Sentence::plain(QStringLiteral("INFO: %1")).arg(text.error().message)};
        info.insert(overview::parseInfo(*text));
    }
    ProbeReport report;
    report.expectedUser = profile.effectiveUsername();
    report.server = overview::serverIdentity(info);
    report.role = QString::fromLatin1(info.value("role"));
    report.evictionPolicy = QString::fromLatin1(info.value("maxmemory_policy"));
    if (const auto user = redis::stringOf(r[3]))
        report.user = QString::fromUtf8(*user);
    else
        report.userError =
            r[3].ok() ? QStringLiteral("unexpected reply") : r[3].error().message.english;
    for (qsizetype i = 0; i < users.size(); ++i) {
        report.permissions << decodeDryRun(users[i], callAction(), r[4 + 2 * i]);
        report.permissions << decodeDryRun(users[i], loadAction(), r[5 + 2 * i]);
    }
    return report;
}

} // namespace session
