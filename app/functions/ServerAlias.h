// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

namespace functions {

// Where a library names the global `server`: Valkey's Lua alias of `redis` (server.call,
// server.register_function, ...), which Redis does not have. Read from the bytecode Lua 5.1
// compiles (GETGLOBAL and SETGLOBAL of that name), so a local, a field or a string called
// `server` never counts, and nothing of the library runs.
struct ServerAliasUse
{
    QList<int> topLevelLines; // run by FUNCTION LOAD: the library does not load on Redis
    QList<int> functionLines; // inside functions: they fail on Redis when they reach them
    bool any() const { return !topLevelLines.isEmpty() || !functionLines.isEmpty(); }
};

// `code` is the whole file; its first line (the shebang) is not Lua and is skipped, keeping
// the line numbers of the file. Empty when the code does not compile (the inspection says so).
ServerAliasUse findServerAlias(const QByteArray &code);

} // namespace functions
