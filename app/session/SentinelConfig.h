// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "profiles/ConnectionProfile.h"
#include "sentinel/SentinelResolver.h"

#include <memory>

namespace ssh {
class SshTunnel;
}

namespace session {

// How to ask a profile's sentinels and the primary they name: the profile's TLS for both (each
// sentinel's certificate checked against its own name, the data node's against the profile's
// server name), the data node's credentials for ROLE, the sentinels' own for the sentinels,
// and the profile's route, so that behind a bastion the sentinels and every primary they name
// are reached through the tunnel. Fails with the profile's own sentence when the sentinel list
// does not parse.
core::Result<sentinel::ResolverConfig, QString>
sentinelConfig(const profiles::ConnectionProfile &profile, const QString &password,
               const QString &sentinelPassword);
// The same through `tunnel` when there is one (tunnelRoute): the sentinels and every primary
// they name.
core::Result<sentinel::ResolverConfig, QString>
sentinelConfig(profiles::ConnectionProfile profile, const QString &password,
               const QString &sentinelPassword, const std::shared_ptr<ssh::SshTunnel> &tunnel);

} // namespace session
