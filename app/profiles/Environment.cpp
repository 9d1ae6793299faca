// SPDX-License-Identifier: GPL-3.0-or-later
#include "Environment.h"

#include <QHostAddress>

namespace profiles {

QString environmentName(Environment env)
{
    switch (env) {
    case Environment::Local:
        return QStringLiteral("local");
    case Environment::Test:
        return QStringLiteral("test");
    case Environment::Staging:
        return QStringLiteral("staging");
    case Environment::Production:
        return QStringLiteral("production");
    }
    return {};
}

std::optional<Environment> parseEnvironment(const QString &name)
{
    for (auto env :
         {Environment::Local, Environment::Test, Environment::Staging, Environment::Production}) {
        if (name.compare(environmentName(env), Qt::CaseInsensitive) == 0)
            return env;
    }
    return std::nullopt;
}

bool isWrittenAsLoopback(const QString &host)
{
    QString h = host.trimmed();
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    if (h.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    // Only a literal address counts; QHostAddress never resolves a name.
    QHostAddress address;
    if (!address.setAddress(h))
        return false;
    if (address.protocol() == QAbstractSocket::IPv4Protocol)
        return (address.toIPv4Address() >> 24) == 127;
    return address == QHostAddress(QHostAddress::LocalHostIPv6);
}

Environment defaultEnvironmentForHost(const QString &host)
{
    return isWrittenAsLoopback(host) ? Environment::Local : Environment::Production;
}

} // namespace profiles
