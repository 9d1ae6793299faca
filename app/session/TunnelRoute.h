// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/ConnectionOptions.h"

#include <memory>

namespace ssh {
class SshTunnel;
}

namespace session {

// The way to every server behind an SSH bastion: a connection made with options carrying this
// route has its socket go to a local forward of the tunnel to host:port as the bastion sees it,
// while it still names host:port and TLS verifies against host. Options copied and aimed at
// another node (a cluster's node announced or promoted later, a replica) go the same way.
// When the tunnel cannot forward (not up, refused), the connection fails at once with the
// reason and never tries host:port directly.
redis::Route tunnelRoute(std::shared_ptr<ssh::SshTunnel> tunnel);

} // namespace session
