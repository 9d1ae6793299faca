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

// "redis-cli <connection args> <command>" with every word shell-quoted (core::shellQuote), so
// that pasted into a POSIX shell, redis-cli sends exactly these argument bytes.
QString redisCliCommandLine(const QStringList &connectionArgs, const redis::Command &command);

} // namespace inventory
