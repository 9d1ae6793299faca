// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeReport.h"

#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

#include <QJsonArray>

namespace session {

namespace {
const char *const DeductFunction = "inventory_deduct_v1";

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
    out << ProbeRow{QStringLiteral("Server"),
                    QStringLiteral("%1 at %2%3")
                        .arg(server.label(), address, tls ? QStringLiteral(" (TLS)") : QString())};
    out << ProbeRow{QStringLiteral("Latency"), QStringLiteral("%1 ms").arg(latencyMs, 0, 'f', 2)};
    out << ProbeRow{QStringLiteral("Mode"), server.mode};
    out << ProbeRow{QStringLiteral("Role"), roleLabel()};
    if (user.isEmpty())
        out << ProbeRow{QStringLiteral("User"), QStringLiteral("unknown (%1)").arg(userError),
                        true};
    else if (!expectedUser.isEmpty() && user != expectedUser)
        out << ProbeRow{QStringLiteral("User"),
                        QStringLiteral("%1, not '%2': without a password the console does not "
                                       "authenticate")
                            .arg(user, expectedUser),
                        true};
    else
        out << ProbeRow{QStringLiteral("User"), user};
    if (release.tried)
        out << ProbeRow{QStringLiteral("Release user"),
                        release.ok ? QStringLiteral("%1: logged in").arg(release.user)
                                   : QStringLiteral("%1: %2").arg(release.user, release.failure),
                        !release.ok};
    if (evictionPolicy.isEmpty())
        out << ProbeRow{QStringLiteral("Eviction"), QStringLiteral("unknown")};
    else if (evictionCanDropReceipts())
        out << ProbeRow{
            QStringLiteral("Eviction"),
            QStringLiteral("%1: receipts can be evicted before their TTL ends").arg(evictionPolicy),
            true};
    else
        out << ProbeRow{QStringLiteral("Eviction"), evictionPolicy};
    for (const PermissionCheck &c : permissions) {
        // With a release user that logged in, loads never run as another user: that user
        // being unable to load is as it should be, not a warning.
        const bool loadsElsewhere =
            release.ok && c.user != release.user && c.action == loadAction();
        QString value = verdictName(c.verdict);
        if (loadsElsewhere)
            value = QStringLiteral("%1 (loads run as '%2')").arg(value, release.user);
        else if (!c.detail.isEmpty())
            value += QStringLiteral(": ") + c.detail;
        out << ProbeRow{QStringLiteral("'%1' may %2").arg(c.user, c.action), value,
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
                                 {QStringLiteral("detail"), c.detail}});
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
        {QStringLiteral("release_login"),
         release.tried ? QJsonValue(QJsonObject{{QStringLiteral("user"), release.user},
                                                {QStringLiteral("ok"), release.ok},
                                                {QStringLiteral("failure"), release.failure}})
                       : QJsonValue()},
    };
}

QString failureHeadline(ProbeFailure::Kind k)
{
    switch (k) {
    case ProbeFailure::Kind::HostNotFound:
        return QStringLiteral("host not found");
    case ProbeFailure::Kind::ResolverUnreachable:
        return QStringLiteral("could not look up the host name");
    case ProbeFailure::Kind::Refused:
        return QStringLiteral("connection refused");
    case ProbeFailure::Kind::Timeout:
        return QStringLiteral("no answer in time");
    case ProbeFailure::Kind::Authentication:
        return QStringLiteral("wrong user name or password");
    case ProbeFailure::Kind::PasswordRequired:
        return QStringLiteral("a password is required");
    case ProbeFailure::Kind::Tls:
        return QStringLiteral("TLS failed");
    case ProbeFailure::Kind::Protocol:
        return QStringLiteral("not a Redis answer");
    case ProbeFailure::Kind::Server:
        return QStringLiteral("refused by the server");
    case ProbeFailure::Kind::Other:
        return QStringLiteral("failed");
    }
    return {};
}

ProbeFailure classifyConnectionFailure(redis::ConnectFailure failure, const QString &detail,
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
    ProbeFailure f{kind, detail.isEmpty() ? QStringLiteral("the connection failed") : detail};
    if (tls && (kind == K::Timeout || kind == K::Protocol))
        f.message += QStringLiteral("; TLS is on: check that the server speaks TLS on this "
                                    "port (redis:// for plain text)");
    return f;
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
    PermissionCheck c{user, action, V::Unknown, {}};
    if (reply.ok()) {
        const auto text = reply->string();
        if (text && reply->isStatus() && *text == "OK") {
            c.verdict = V::Allowed;
        } else if (text) {
            c.verdict = V::Denied; // Redis 7.0 answers a bulk string with the reason
            c.detail = QString::fromUtf8(*text);
        } else {
            c.detail = QStringLiteral("unexpected ACL DRYRUN reply");
        }
        return c;
    }
    const redis::RedisError &e = reply.error();
    if (e.isServer("NOPERM")) {
        c.detail = QStringLiteral("this connection's user may not run ACL DRYRUN");
    } else if (e.kind == redis::RedisError::Kind::Server
               && e.message.contains(QLatin1String("not found"), Qt::CaseInsensitive)
               && e.message.contains(QLatin1String("user"), Qt::CaseInsensitive)) {
        c.verdict = V::Denied;
        c.detail = QStringLiteral("there is no ACL user '%1' on this server").arg(user);
    } else if (e.kind == redis::RedisError::Kind::Server
               && e.message.contains(QLatin1String("unknown subcommand"), Qt::CaseInsensitive)) {
        c.detail = QStringLiteral("this server has no ACL DRYRUN (Redis 7.0 or later)");
    } else {
        c.detail = QStringLiteral("ACL DRYRUN failed: %1").arg(e.message);
    }
    return c;
}

core::Result<ProbeReport, ProbeFailure> decodeProbe(const profiles::ConnectionProfile &profile,
                                                    const QList<redis::ReplyResult> &r)
{
    const QStringList users = dryRunUsers(profile);
    if (r.size() != 4 + 2 * users.size())
        return ProbeFailure{ProbeFailure::Kind::Other,
                            QStringLiteral("probe: wrong number of replies")};
    QHash<QByteArray, QByteArray> info;
    for (int i = 0; i < 3; ++i) {
        if (!r[i].ok()) {
            const auto &e = r[i].error();
            return ProbeFailure{e.kind == redis::RedisError::Kind::Server
                                    ? ProbeFailure::Kind::Server
                                    : ProbeFailure::Kind::Timeout,
                                QStringLiteral("INFO failed: %1").arg(e.readFailure())};
        }
        const auto text = r[i]->string();
        if (!text)
            return ProbeFailure{ProbeFailure::Kind::Other,
                                QStringLiteral("INFO: %1").arg(text.error().message)};
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
        report.userError = r[3].ok() ? QStringLiteral("unexpected reply") : r[3].error().message;
    for (qsizetype i = 0; i < users.size(); ++i) {
        report.permissions << decodeDryRun(users[i], callAction(), r[4 + 2 * i]);
        report.permissions << decodeDryRun(users[i], loadAction(), r[5 + 2 * i]);
    }
    return report;
}

} // namespace session
