// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerIdentity.h"

namespace overview {

QString ServerIdentity::label() const
{
    return version.isEmpty() ? QString() : product + QLatin1Char(' ') + version;
}

ServerIdentity serverIdentity(const QHash<QByteArray, QByteArray> &info)
{
    ServerIdentity s;
    s.redisVersion = QString::fromLatin1(info.value("redis_version"));
    const QByteArray name = info.value("server_name").trimmed().toLower();
    if (name == "valkey" || info.contains("valkey_version")) {
        s.product = QStringLiteral("Valkey");
        s.version = QString::fromLatin1(info.value("valkey_version"));
    } else {
        s.product = QStringLiteral("Redis");
        s.version = s.redisVersion;
    }
    // Valkey writes server_mode unless extended-redis-compatibility is on.
    s.mode = QString::fromLatin1(info.contains("redis_mode") ? info.value("redis_mode")
                                                             : info.value("server_mode"));
    return s;
}

} // namespace overview
