// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to the inspector: the Lua 5.1 state that imitates Redis's FUNCTION LOAD run.

#include "IsolatedLoad.h"

#include <ctime>

struct lua_State;

namespace functions::detail {

struct SandboxContext
{
    const InspectOptions *options = nullptr;
    QList<QByteArray> lines; // the file's lines, [0] is line 1 (the shebang)
    std::optional<RunProblem> problem;
    QList<InspectedFunction> functions; // in registration order
    QList<int> callbackRefs;            // registry references, parallel to functions
    QStringList log;
    QByteArray errorText;  // what lua_error raises; kept here so no C++ temporary is skipped
    qint64 cpuStartMs = 0; // this thread's CPU time when the top level started
    qint64 instructions = 0;
    size_t used = 0;  // bytes the Lua state holds
    size_t limit = 0; // what it may hold
};

// Compiles and runs `body` (the file after its shebang line, starting at that line's '\n' so
// that Lua's line numbers are file line numbers, as Redis does) and fills ctx. On a problem,
// ctx.problem is set and ctx.functions may be partial.
void runLoad(SandboxContext &ctx, const QByteArray &body);

// Milliseconds of CPU time on `clock` (a thread's, or a child process's from
// clock_getcpuclockid); 0 when it cannot be read. CPU time, not the wall clock: a busy machine
// slows a load run, it must not change its verdict.
qint64 cpuMs(clockid_t clock);

// Shared by the sandbox and its redis API (LuaLoadApi.cpp).
SandboxContext &context(lua_State *L);
// The line of the Lua code at `level` (1: the caller of the running C function); 0 if none.
int lineAt(lua_State *L, int level);
// Records the first problem and the text the next raise() throws (its English, as Redis
// raises it). `source` is marked QT_TRANSLATE_NOOP("functions::Inspection", ...).
void setProblem(lua_State *L, InspectionProblem::Kind kind, const char *source,
                const QStringList &args, int line);
// lua_error with the recorded text. Call it only once every C++ object of the frame is gone.
int raise(lua_State *L);
int registerFunction(lua_State *L); // redis.register_function
int redisLog(lua_State *L);         // redis.log

} // namespace functions::detail
