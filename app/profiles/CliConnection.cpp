// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliConnection.h"

#include "AnnouncedMapField.h"
#include "RedisUrl.h"
#include "sentinel/SentinelUrl.h"

namespace profiles {

namespace {
// Behind Sentinel the server is whatever the sentinels name: the command names them, never
// the primary the console happens to be on.
QString targetUrl(const ConnectionProfile &p)
{
    if (!p.sentinel.enabled())
        return toRedisUrl(p);
    sentinel::SentinelUrl url;
    if (const auto sentinels = sentinel::parseSentinelList(p.sentinel.sentinels); sentinels.ok())
        url.sentinels = sentinels.value();
    url.masterName = p.sentinel.masterName.trimmed();
    url.database = p.database;
    url.username = p.username;
    url.tls = p.tls.enabled;
    return url.toString();
}
} // namespace

QStringList cliConnectionArgs(const CliConnectionSource &source)
{
    const ConnectionProfile &p = source.profile;
    if (source.saved && !p.name.isEmpty())
        return {QStringLiteral("--profile"), p.name};
    QStringList args{QStringLiteral("--url"), targetUrl(p)};
    if (p.sentinel.enabled() && !p.sentinel.username.isEmpty())
        args << QStringLiteral("--sentinel-user") << p.sentinel.username;
    // Without a label the CLI treats a non-loopback host as production: say what the console
    // was told, so the command acts as the console would.
    if (p.isLabelled())
        args << QStringLiteral("--environment") << p.environment;
    if (p.tls.enabled) {
        if (!p.tls.caFile.isEmpty())
            args << QStringLiteral("--tls-ca") << p.tls.caFile;
        if (!p.tls.certFile.isEmpty())
            args << QStringLiteral("--tls-cert") << p.tls.certFile;
        if (!p.tls.keyFile.isEmpty())
            args << QStringLiteral("--tls-key") << p.tls.keyFile;
        if (!p.tls.serverName.isEmpty())
            args << QStringLiteral("--tls-server-name") << p.tls.serverName;
    }
    if (!p.releaseUsername.isEmpty())
        args << QStringLiteral("--release-user") << p.releaseUsername;
    if (!p.announcedMap.isEmpty())
        args << QStringLiteral("--announced-map") << announcedEntriesArgument(p.announcedMap);
    if (source.hasPassword)
        args << QStringLiteral("--password-stdin");
    if (source.hasReleasePassword && !p.releaseUsername.isEmpty())
        args << QStringLiteral("--release-password-stdin");
    return args;
}

} // namespace profiles
