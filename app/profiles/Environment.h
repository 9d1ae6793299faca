// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

namespace profiles {

// Which kind of server a connection reaches. It decides how loudly the console marks the
// window (and, later, which actions need confirmation). The embedded demo is Local.
enum class Environment { Local, Test, Staging, Production };

QString environmentName(Environment env); // "local", "test", "staging", "production"
std::optional<Environment> parseEnvironment(const QString &name); // case-insensitive

// True only for a host *written* as loopback: "localhost", an IPv4 address in 127.0.0.0/8
// or "::1" (brackets allowed). A name that merely resolves to loopback is not: an SSH tunnel
// to production usually does.
bool isWrittenAsLoopback(const QString &host);
// The label a server gets when nobody said which environment it is: Local for a host written
// as loopback, Production (read-only until unlocked) for every other host. The one rule for
// the connection dialog, the console's command line and every inventory-cli verb.
Environment defaultEnvironmentForHost(const QString &host);

} // namespace profiles
