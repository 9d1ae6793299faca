// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionOptions.h"

namespace redis {

QString ConnectionOptions::address() const
{
    const QString h =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return h + QLatin1Char(':') + QString::number(port);
}

QString ConnectionOptions::describe() const
{
    if (detour.through.isEmpty())
        return address();
    return QStringLiteral("%1 (through %2)").arg(address(), detour.through);
}

QString stateName(ConnectionState s)
{
    switch (s) {
    case ConnectionState::Idle:
        return QStringLiteral("idle");
    case ConnectionState::Connecting:
        return QStringLiteral("connecting");
    case ConnectionState::Ready:
        return QStringLiteral("connected");
    case ConnectionState::Reconnecting:
        return QStringLiteral("reconnecting");
    case ConnectionState::Failed:
        return QStringLiteral("failed");
    case ConnectionState::Closed:
        return QStringLiteral("closed");
    }
    return {};
}

} // namespace redis
