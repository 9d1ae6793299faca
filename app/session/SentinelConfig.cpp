// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelConfig.h"

#include "TunnelRoute.h"
#include "sentinel/SentinelUrl.h"

namespace session {

core::Result<sentinel::ResolverConfig, QString>
sentinelConfig(const profiles::ConnectionProfile &profile, const QString &password,
               const QString &sentinelPassword)
{
    auto sentinels = sentinel::parseSentinelList(profile.sentinel.sentinels);
    if (!sentinels.ok())
        return core::err(QStringLiteral("Sentinel: %1").arg(sentinels.error()));
    sentinel::ResolverConfig config;
    config.sentinels = sentinels.value();
    config.masterName = profile.sentinel.masterName.trimmed();
    config.dataOptions = profile.toConnectionOptions(password);
    config.sentinelOptions = config.dataOptions;
    config.sentinelOptions.tls.serverName.clear();
    config.sentinelOptions.username = profile.sentinel.username;
    config.sentinelOptions.password = sentinelPassword;
    return config;
}

core::Result<sentinel::ResolverConfig, QString>
sentinelConfig(profiles::ConnectionProfile profile, const QString &password,
               const QString &sentinelPassword, const std::shared_ptr<ssh::SshTunnel> &tunnel)
{
    if (tunnel)
        profile.route = tunnelRoute(tunnel);
    return sentinelConfig(profile, password, sentinelPassword);
}

} // namespace session
