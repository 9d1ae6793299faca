// SPDX-License-Identifier: GPL-3.0-or-later
#include "LuaSandbox.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QSet>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <lua.hpp>

// The load run Redis 7.0 performs (function_lua.c): globals are an empty read-only table whose
// lookups go to a "library API" holding only `redis` (register_function, log, LOG_*,
// REDIS_VERSION, REDIS_VERSION_NUM), and on Valkey `server`, the same table; reading anything else
// raises "Script attempted to access nonexistent global variable", writing raises "Attempt to
// modify a readonly table". The string, table and math libraries are opened (but not visible as
// globals) so that string methods behave as on the server. Lua errors unwind with longjmp: every C
// function below finishes its C++ work (and destroys its temporaries) before it calls raise().

namespace functions::detail {

using Kind = InspectionProblem::Kind;

SandboxContext &context(lua_State *L)
{
    void *ud = nullptr;
    lua_getallocf(L, &ud);
    return *static_cast<SandboxContext *>(ud);
}

// The line of the Lua code at `level` (1: the caller of the running C function).
qint64 cpuMs(clockid_t clock)
{
    timespec t{};
    if (::clock_gettime(clock, &t) != 0)
        return 0;
    return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

int lineAt(lua_State *L, int level)
{
    lua_Debug ar;
    if (lua_getstack(L, level, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0)
        return ar.currentline;
    return 0;
}

void setProblem(lua_State *L, Kind kind, const char *source, const QStringList &args, int line)
{
    SandboxContext &ctx = context(L);
    const RunProblem problem{kind, source, args, line};
    if (!ctx.problem)
        ctx.problem = problem;
    ctx.errorText = (line > 0 ? "user_function:" + QByteArray::number(line) + ": " : QByteArray())
                    + problem.message().english.toUtf8();
}

int raise(lua_State *L)
{
    lua_pushstring(L, context(L).errorText.constData());
    return lua_error(L);
}

namespace {

constexpr int HookEvery = 100000; // instructions between budget checks, as Redis's load hook

void *sandboxAlloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    auto *ctx = static_cast<SandboxContext *>(ud);
    if (nsize == 0) {
        ctx->used -= osize;
        std::free(ptr);
        return nullptr;
    }
    if (nsize > osize && ctx->used + (nsize - osize) > ctx->limit)
        return nullptr; // Lua turns this into a memory error
    void *p = std::realloc(ptr, nsize);
    if (p)
        ctx->used = ctx->used - osize + nsize;
    return p;
}

QString keyName(lua_State *L, int index)
{
    if (lua_type(L, index) == LUA_TSTRING)
        return QString::fromUtf8(lua_tostring(L, index));
    return QStringLiteral("(%1)").arg(QString::fromLatin1(luaL_typename(L, index)));
}

int globalIndex(lua_State *L) // __index(globals, key)
{
    const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (std::strcmp(name, "redis") == 0
        || (context(L).options->valkey && std::strcmp(name, "server") == 0)) {
        lua_pushvalue(L, lua_upvalueindex(1));
        return 1;
    }
    setProblem(L, Kind::NonexistentGlobal,
               QT_TRANSLATE_NOOP("functions::Inspection",
                                 "Script attempted to access nonexistent global variable '%1'"),
               {keyName(L, 2)}, lineAt(L, 1));
    return raise(L);
}

int redisIndex(lua_State *L) // __index(redis proxy, key); upvalue 1: the real API table
{
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    if (!lua_isnil(L, -1))
        return 1;
    setProblem(L, Kind::NonexistentGlobal,
               QT_TRANSLATE_NOOP("functions::Inspection",
                                 "Script attempted to access nonexistent global variable '%1' "
                                 "(redis.%1 is not available while a library loads)"),
               {keyName(L, 2)}, lineAt(L, 1));
    return raise(L);
}

int readOnlyNewIndex(lua_State *L) // __newindex(table, key, value); upvalue 1: "global"/"redis."
{
    const bool isRedis = std::strcmp(lua_tostring(L, lua_upvalueindex(1)), "redis") == 0;
    setProblem(L, Kind::ReadOnlyGlobal,
               isRedis ? QT_TRANSLATE_NOOP("functions::Inspection",
                                           "Attempt to modify a readonly table (redis.%1)")
                       : QT_TRANSLATE_NOOP("functions::Inspection",
                                           "Attempt to modify a readonly table (global '%1')"),
               {keyName(L, 2)}, lineAt(L, 1));
    return raise(L);
}

// Pushes an empty table whose reads go through `index` (its upvalue: the value on top of the
// stack) and whose writes fail with readOnlyNewIndex naming `what`; its metatable is hidden.
void pushReadOnlyProxy(lua_State *L, lua_CFunction index, const char *what)
{
    lua_newtable(L);
    lua_newtable(L);
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, what);
    lua_pushcclosure(L, readOnlyNewIndex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

void countHook(lua_State *L, lua_Debug *)
{
    SandboxContext &ctx = context(L);
    ctx.instructions += HookEvery;
    if (ctx.instructions <= ctx.options->instructionBudget
        && cpuMs(CLOCK_THREAD_CPUTIME_ID) - ctx.cpuStartMs <= ctx.options->timeBudgetMs)
        return;
    setProblem(L, Kind::TimeBudget,
               QT_TRANSLATE_NOOP("functions::Inspection",
                                 "FUNCTION LOAD timeout: the top level ran past the load budget "
                                 "(%1 ms or %2 instructions)"),
               {QString::number(ctx.options->timeBudgetMs),
                QString::number(ctx.options->instructionBudget)},
               lineAt(L, 0));
    raise(L);
}

// Sets up libraries, the API and the read-only globals. Runs under lua_cpcall so that a
// memory error here is an error code, not a panic.
int setUp(lua_State *L)
{
    SandboxContext &ctx = context(L);
    for (lua_CFunction open : {luaopen_base, luaopen_string, luaopen_table, luaopen_math}) {
        lua_pushcfunction(L, open);
        lua_call(L, 0, 0);
    }
    lua_newtable(L); // the real redis API
    lua_pushcfunction(L, registerFunction);
    lua_setfield(L, -2, "register_function");
    lua_pushcfunction(L, redisLog);
    lua_setfield(L, -2, "log");
    const char *const levels[] = {"LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING"};
    for (int i = 0; i < 4; ++i) {
        lua_pushinteger(L, i);
        lua_setfield(L, -2, levels[i]);
    }
    const QByteArray version = ctx.options->redisVersion.toUtf8();
    lua_pushstring(L, version.constData());
    lua_setfield(L, -2, "REDIS_VERSION");
    const QList<QByteArray> parts = version.split('.');
    const int num =
        (parts.value(0).toInt() << 16) | (parts.value(1).toInt() << 8) | parts.value(2).toInt();
    lua_pushinteger(L, num);
    lua_setfield(L, -2, "REDIS_VERSION_NUM");

    pushReadOnlyProxy(L, redisIndex, "redis"); // the redis proxy: lookups into the API

    pushReadOnlyProxy(L, globalIndex, "global"); // the globals the library sees
    lua_replace(L, LUA_GLOBALSINDEX);
    return 0;
}

// Lua 5.1 knows a function's first and last line only. A definition sharing its lines with
// other text (`register_function{..., callback = function(k, a) ... end, flags = {...}}`) is
// cut at its own `function` and final `end`, when those are unambiguous on their line, so that
// a change of the surrounding flags or description is not taken for a change of the code.
QByteArray functionText(const QList<QByteArray> &lines, int first, int last)
{
    static const QRegularExpression start(QStringLiteral("\\bfunction\\b"));
    static const QRegularExpression end(QStringLiteral("\\bend\\b"));
    QStringList text;
    for (int l = first; l <= last && l <= lines.size(); ++l)
        text << QString::fromUtf8(lines.at(l - 1));
    if (text.isEmpty())
        return {};
    QList<QRegularExpressionMatch> starts;
    for (auto it = start.globalMatch(text.first()); it.hasNext();)
        starts << it.next();
    if (starts.size() == 1)
        text.first().remove(0, starts.first().capturedStart());
    QRegularExpressionMatch lastEnd;
    for (auto it = end.globalMatch(text.last()); it.hasNext();)
        lastEnd = it.next();
    if (lastEnd.hasMatch())
        text.last().truncate(lastEnd.capturedEnd());
    return text.join(QLatin1Char('\n')).toUtf8() + '\n';
}

// A function's text and, recursively, what it closes over: helpers by their text, constants
// by their values. Expects the function on top of the stack; leaves the stack as it was.
void closureText(lua_State *L, const QList<QByteArray> &lines, QSet<const void *> &seen, int depth,
                 QByteArray &out)
{
    const int fn = lua_gettop(L);
    if (seen.contains(lua_topointer(L, fn)) || depth > 16) {
        out += "[seen]\n";
        return;
    }
    seen.insert(lua_topointer(L, fn));
    lua_Debug ar;
    lua_pushvalue(L, fn);
    lua_getinfo(L, ">S", &ar);
    if (std::strcmp(ar.what, "Lua") != 0 || ar.linedefined <= 0) {
        out += "[C function]\n";
        return;
    }
    out += functionText(lines, ar.linedefined, ar.lastlinedefined);
    for (int i = 1;; ++i) {
        const char *name = lua_getupvalue(L, fn, i);
        if (!name)
            break;
        out += "upvalue " + QByteArray(name) + " = ";
        switch (lua_type(L, -1)) {
        case LUA_TFUNCTION:
            out += "function\n";
            closureText(L, lines, seen, depth + 1, out);
            break;
        case LUA_TNUMBER:
        case LUA_TSTRING:
            out += QByteArray(luaL_typename(L, -1)) + ' ' + lua_tostring(L, -1) + '\n';
            break;
        case LUA_TBOOLEAN:
            out += lua_toboolean(L, -1) ? "true\n" : "false\n";
            break;
        default:
            out += QByteArray(luaL_typename(L, -1)) + '\n';
        }
        lua_pop(L, 1);
    }
}

struct StateCloser
{
    void operator()(lua_State *L) const { lua_close(L); }
};

std::optional<int> lineOf(const QByteArray &message, QByteArray *rest)
{
    // "user_function:12: message"
    static const QByteArray prefix = "user_function:";
    if (!message.startsWith(prefix))
        return std::nullopt;
    const qsizetype colon = message.indexOf(':', prefix.size());
    bool ok = false;
    const int line = message.mid(prefix.size(), colon - prefix.size()).toInt(&ok);
    if (colon < 0 || !ok)
        return std::nullopt;
    *rest = message.mid(colon + 1).trimmed();
    return line;
}

} // namespace

void runLoad(SandboxContext &ctx, const QByteArray &body)
{
    ctx.limit = size_t(ctx.options->memoryBudget);
    std::unique_ptr<lua_State, StateCloser> state(lua_newstate(sandboxAlloc, &ctx));
    lua_State *L = state.get();
    if (!L || lua_cpcall(L, setUp, nullptr) != 0) {
        ctx.problem = RunProblem{
            Kind::MemoryBudget,
            QT_TRANSLATE_NOOP("functions::Inspection", "could not set up the Lua sandbox"),
            {},
            0};
        return;
    }
    if (const int rc = luaL_loadbuffer(L, body.constData(), size_t(body.size()), "@user_function");
        rc != 0) {
        const QByteArray message = lua_tostring(L, -1);
        QByteArray rest = message;
        const int line = lineOf(message, &rest).value_or(0);
        // Lua's own words after Redis's prefix: the same in both copies.
        ctx.problem = rc == LUA_ERRMEM
                          ? RunProblem{Kind::MemoryBudget,
                                       QT_TRANSLATE_NOOP("functions::Inspection",
                                                         "not enough memory to compile"),
                                       {},
                                       0}
                          : RunProblem{Kind::CompileError,
                                       QT_TRANSLATE_NOOP("functions::Inspection",
                                                         "Error compiling function: %1"),
                                       {QString::fromUtf8(rest)},
                                       line};
        return;
    }
    ctx.cpuStartMs = cpuMs(CLOCK_THREAD_CPUTIME_ID);
    lua_sethook(L, countHook, LUA_MASKCOUNT, HookEvery);
    const int rc = lua_pcall(L, 0, 0, 0);
    lua_sethook(L, nullptr, 0, 0);
    if (rc != 0) {
        if (ctx.problem)
            return;
        if (rc == LUA_ERRMEM) {
            ctx.problem = RunProblem{Kind::MemoryBudget,
                                     QT_TRANSLATE_NOOP("functions::Inspection",
                                                       "the top level allocated more than %1 MiB"),
                                     {QString::number(ctx.options->memoryBudget / (1024 * 1024))},
                                     0};
            return;
        }
        const QByteArray message =
            lua_isstring(L, -1) ? QByteArray(lua_tostring(L, -1)) : QByteArray("(error object)");
        QByteArray rest = message;
        const int line = lineOf(message, &rest).value_or(0);
        // The error the library raised, as it raised it.
        ctx.problem = RunProblem{Kind::RuntimeError, {}, {QString::fromUtf8(rest)}, line};
        return;
    }
    // What follows runs outside any protected call, with C++ objects alive: give it room so
    // that Lua never has to raise a memory error here.
    ctx.limit += 16 * 1024 * 1024;
    for (qsizetype i = 0; i < ctx.functions.size(); ++i) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ctx.callbackRefs.at(i));
        lua_Debug ar;
        lua_pushvalue(L, -1);
        lua_getinfo(L, ">S", &ar);
        if (std::strcmp(ar.what, "Lua") == 0) {
            ctx.functions[i].firstLine = ar.linedefined;
            ctx.functions[i].lastLine = ar.lastlinedefined;
        }
        QSet<const void *> seen;
        QByteArray text;
        closureText(L, ctx.lines, seen, 0, text);
        ctx.functions[i].behaviour =
            QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex();
        lua_pop(L, 1);
    }
}

} // namespace functions::detail
