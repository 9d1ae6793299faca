// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisCliCommand.h"

#include "core/Bytes.h"

namespace inventory {

QStringList redisCliConnectionArgs(const redis::ConnectionOptions &o)
{
    QStringList args{QStringLiteral("-h"), o.host, QStringLiteral("-p"), QString::number(o.port)};
    if (o.database != 0)
        args << QStringLiteral("-n") << QString::number(o.database);
    if (!o.username.isEmpty())
        args << QStringLiteral("--user") << o.username;
    if (!o.password.isEmpty())
        args << QStringLiteral("--askpass");
    if (o.tls.enabled) {
        args << QStringLiteral("--tls");
        if (!o.tls.caFile.isEmpty())
            args << QStringLiteral("--cacert") << o.tls.caFile;
        if (!o.tls.certFile.isEmpty())
            args << QStringLiteral("--cert") << o.tls.certFile;
        if (!o.tls.keyFile.isEmpty())
            args << QStringLiteral("--key") << o.tls.keyFile;
        if (!o.tls.serverName.isEmpty())
            args << QStringLiteral("--sni") << o.tls.serverName;
        if (!o.tls.verifyPeer)
            args << QStringLiteral("--insecure");
    }
    return args;
}

QPair<QString, QString> splitHostPort(const QString &address)
{
    const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return {};
    QString host = address.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return {host, address.mid(colon + 1)};
}

QStringList redisCliClusterArgs(const QStringList &connectionArgs, const QString &nodeAddress)
{
    const auto [host, port] = splitHostPort(nodeAddress);
    QStringList args{QStringLiteral("-c")};
    bool aimed = false;
    for (qsizetype i = 0; i < connectionArgs.size(); ++i) {
        const QString &a = connectionArgs.at(i);
        const bool value = i + 1 < connectionArgs.size();
        if (!host.isEmpty() && value && (a == QLatin1String("-h") || a == QLatin1String("-p"))) {
            args << a << (a == QLatin1String("-h") ? host : port);
            aimed = true;
            ++i;
        } else if (a != QLatin1String("-c")) {
            args << a;
        }
    }
    if (!aimed && !host.isEmpty())
        return QStringList{QStringLiteral("-c"), QStringLiteral("-h"), host, QStringLiteral("-p"),
                           port}
               + args.mid(1);
    return args;
}

QString redisCliCommandLine(const QStringList &connectionArgs, const redis::Command &command)
{
    QStringList words{QStringLiteral("redis-cli")};
    for (const QString &a : connectionArgs)
        words << core::shellQuote(a.toUtf8());
    for (const QByteArray &a : command)
        words << core::shellQuote(a);
    return words.join(QLatin1Char(' '));
}

} // namespace inventory
