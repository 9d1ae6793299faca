// SPDX-License-Identifier: GPL-3.0-or-later
#include "TunnelRoute.h"

#include "ssh/SshTunnel.h"

namespace session {

redis::Route tunnelRoute(std::shared_ptr<ssh::SshTunnel> tunnel)
{
    return [tunnel = std::move(tunnel)](const QString &host, quint16 port) {
        redis::Detour detour;
        detour.through = QStringLiteral("the SSH tunnel via %1").arg(tunnel->bastionDisplay());
        const auto local = tunnel->forward(host, port);
        if (!local) {
            detour.failure = QStringLiteral("cannot reach %1:%2 through %3: %4")
                                 .arg(host)
                                 .arg(port)
                                 .arg(detour.through, local.error().message.english);
            return detour;
        }
        detour.localHost = QStringLiteral("127.0.0.1");
        detour.localPort = local.value();
        return detour;
    };
}

} // namespace session
