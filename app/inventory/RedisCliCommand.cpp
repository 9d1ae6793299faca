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
