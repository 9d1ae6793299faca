// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

namespace overview {

// Which server answered, read from INFO server in one place so that every view names it alike
// (ping, the connection probe, the overview panel, the status bar). Valkey answers
// redis_version:7.2.4 for compatibility and names itself in server_name and valkey_version;
// Valkey 8 also renamed redis_mode to server_mode.
struct ServerIdentity
{
    QString product;      // "Redis" or "Valkey"
    QString version;      // the product's own version ("8.0.1"); empty when INFO gave none
    QString redisVersion; // redis_version as answered: what Redis compatibility is judged by
    QString mode;         // standalone | cluster | sentinel

    bool isValkey() const { return product == QLatin1String("Valkey"); }
    // "Valkey 8.0.1", "Redis 7.0.15"; empty when INFO gave no version (not read, or denied).
    QString label() const;
};

// From INFO's fields (overview::parseInfo). A server that names no product is Redis.
ServerIdentity serverIdentity(const QHash<QByteArray, QByteArray> &info);

} // namespace overview
