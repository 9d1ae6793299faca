// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerRead.h"

#include "overview/ServerOverview.h"
#include "session/ProbeReport.h"

#include <QCoreApplication>

namespace readiness {

QList<QByteArray> auditedParameters()
{
    return {"maxmemory-policy",
            "maxmemory",
            "appendonly",
            "appendfsync",
            "save",
            "min-replicas-to-write",
            "min-replicas-max-lag",
            "busy-reply-threshold"};
}

QList<redis::Command> serverCommands(const QString &user)
{
    redis::Command config{"CONFIG", "GET"};
    config << auditedParameters();
    // The dry run asks whether the user could load; "x" is never run, nor even compiled.
    return {config,
            {"INFO", "persistence"},
            {"INFO", "replication"},
            libraryCommand(),
            session::loadDryRun(user)};
}

redis::Command libraryCommand()
{
    return {"FUNCTION", "LIST", "WITHCODE"};
}

namespace {
// What could not be read, shown with the readiness findings (the window's language; the CLI
// prints the English).
struct ServerReadText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::ServerRead)
};
} // namespace

QString refusalSentence(const QString &command, const QString &permission,
                        const redis::RedisError &e)
{
    if (e.isServer("NOPERM"))
        return ServerReadText::tr("this user may not run %1 (NOPERM): grant it %2, or run the "
                                  "audit as a user who may")
            .arg(command, permission);
    if (e.kind == redis::RedisError::Kind::Server
        && e.message.english.contains(QLatin1String("unknown"), Qt::CaseInsensitive))
        return ServerReadText::tr("the server does not know %1 (renamed, disabled or too old: "
                                  "Redis 7 is needed): %2")
            .arg(command, e.message.text);
    return ServerReadText::tr("%1 failed: %2").arg(command, e.readFailure().text);
}

namespace {

QString unexpectedConfig(const redis::Reply &reply)
{
    return ServerReadText::tr("CONFIG GET: unexpected reply (%1)").arg(reply.shape().text);
}

Read<QHash<QString, QString>> decodeConfig(const redis::ReplyResult &r)
{
    if (!r.ok())
        return {{},
                refusalSentence(QStringLiteral("CONFIG GET"), QStringLiteral("+config|get"),
                                r.error())};
    const auto items = r->array();
    if (!items || items->size() % 2)
        return {{}, unexpectedConfig(*r)};
    QHash<QString, QString> out;
    for (qsizetype i = 0; i + 1 < items->size(); i += 2) {
        const auto name = items->at(i).string();
        const auto value = items->at(i + 1).string();
        if (!name || !value)
            return {{}, unexpectedConfig(*r)};
        out.insert(QString::fromUtf8(*name), QString::fromUtf8(*value));
    }
    return {out, {}};
}

Read<QHash<QByteArray, QByteArray>> decodeInfo(const QString &section, const redis::ReplyResult &r)
{
    const QString command = QStringLiteral("INFO %1").arg(section);
    if (!r.ok())
        return {{}, refusalSentence(command, QStringLiteral("+info"), r.error())};
    const auto text = r->string();
    if (!text)
        return {{}, QStringLiteral("%1: %2").arg(command, text.error().message.text)};
    return {overview::parseInfo(*text), {}};
}

} // namespace

NodeLibraries decodeLibraries(const QString &node, const redis::ReplyResult &reply)
{
    NodeLibraries out{node, {}};
    if (!reply.ok()) {
        out.libraries.missing = refusalSentence(QStringLiteral("FUNCTION LIST on %1").arg(node),
                                                QStringLiteral("+function|list"), reply.error());
        return out;
    }
    auto decoded = redis::decodeFunctionList(*reply);
    if (!decoded)
        out.libraries.missing =
            ServerReadText::tr("FUNCTION LIST on %1: %2").arg(node, decoded.error().text);
    else
        out.libraries.value = std::move(decoded).value();
    return out;
}

ServerRead decodeServer(const QString &node, const QString &user,
                        const QList<redis::ReplyResult> &replies, NodeLibraries *libraries)
{
    ServerRead s;
    s.node = node;
    s.user = user;
    if (replies.size() != 5) {
        const QString why =
            ServerReadText::tr("the server sent %1 replies to 5 commands").arg(replies.size());
        s.config.missing = s.persistence.missing = s.replication.missing = s.mayLoad.missing = why;
        *libraries = NodeLibraries{node, {{}, why}};
        return s;
    }
    s.config = decodeConfig(replies[0]);
    s.persistence = decodeInfo(QStringLiteral("persistence"), replies[1]);
    s.replication = decodeInfo(QStringLiteral("replication"), replies[2]);
    *libraries = decodeLibraries(node, replies[3]);
    const session::PermissionCheck load =
        session::decodeDryRun(user, session::loadAction(), replies[4]);
    switch (load.verdict) {
    case session::PermissionCheck::Verdict::Allowed:
        s.mayLoad.value = true;
        break;
    case session::PermissionCheck::Verdict::Denied:
        s.mayLoad.value = false;
        s.loadDenial = load.detail.text;
        break;
    case session::PermissionCheck::Verdict::Unknown:
        s.mayLoad.missing =
            replies[4].ok() || !replies[4].error().isServer("NOPERM")
                ? load.detail.text
                : refusalSentence(QStringLiteral("ACL DRYRUN"), QStringLiteral("+acl|dryrun"),
                                  replies[4].error());
        break;
    }
    return s;
}

} // namespace readiness
