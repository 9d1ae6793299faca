// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/ConnectionOptions.h"
#include "redis/RespCodec.h"

#include <QString>
#include <QStringList>

namespace inventory {

// redis-cli options that reach the same server as these connection options: -h, -p, -n,
// --user, --tls with its files, and --askpass when a password is needed (the password itself
// never appears on a command line).
QStringList redisCliConnectionArgs(const redis::ConnectionOptions &options);

// The same options aimed at one cluster node ("host:port" or "[v6]:port"): -h/-p become the
// node's, every other option is kept, and -c comes first so that redis-cli follows a MOVED
// (the slot can move between the line being shown and being pasted).
QStringList redisCliClusterArgs(const QStringList &connectionArgs, const QString &nodeAddress);

// "host:port" or "[v6]:port" as {host, port}; an empty host when there is no port.
QPair<QString, QString> splitHostPort(const QString &address);

// "redis-cli <connection args> <command>" with every word shell-quoted (core::shellQuote), so
// that pasted into a POSIX shell, redis-cli sends exactly these argument bytes.
QString redisCliCommandLine(const QStringList &connectionArgs, const redis::Command &command);

} // namespace inventory
