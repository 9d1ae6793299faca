#pragma once

#include <QString>
#include <optional>

namespace session {

// Which kind of server a connection reaches. It decides how loudly the console marks the
// window (and, later, which actions need confirmation). The embedded demo is Local.
enum class Environment { Local, Test, Staging, Production };

QString environmentName(Environment env); // "local", "test", "staging", "production"
std::optional<Environment> parseEnvironment(const QString &name); // case-insensitive

} // namespace session
