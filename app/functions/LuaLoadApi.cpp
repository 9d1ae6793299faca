// SPDX-License-Identifier: GPL-3.0-or-later
// redis.register_function and redis.log as Redis 7.0's load run has them (function_lua.c,
// script_lua.c): same argument rules, same error texts, so an offline refusal means what the
// server would say. See LuaSandbox.cpp for why C++ work ends before raise() is called.
#include "LuaSandbox.h"

#include <cstring>
#include <lua.hpp>
#include <strings.h>

namespace functions::detail {

using Kind = InspectionProblem::Kind;

// Redis's luaLogCommand checks; false (and the problem recorded) when they fail.
static bool logArgumentsValid(lua_State *L)
{
    const int argc = lua_gettop(L);
    const char *error = nullptr;
    if (argc < 2)
        error = QT_TRANSLATE_NOOP("functions::Inspection",
                                  "redis.log() requires two arguments or more.");
    else if (!lua_isnumber(L, 1))
        error = QT_TRANSLATE_NOOP("functions::Inspection",
                                  "First argument must be a number (log level).");
    else if (const lua_Number level = lua_tonumber(L, 1); level < 0 || level > 3)
        error = QT_TRANSLATE_NOOP("functions::Inspection", "Invalid debug level.");
    if (!error)
        return true;
    setProblem(L, Kind::BadArguments, error, {}, lineAt(L, 1));
    return false;
}

static void appendLog(lua_State *L)
{
    QStringList parts;
    for (int i = 2; i <= lua_gettop(L); ++i) {
        size_t len = 0;
        lua_pushvalue(L, i); // tolstring converts in place: work on a copy
        const char *s = lua_tolstring(L, -1, &len);
        parts << (s ? QString::fromUtf8(s, qsizetype(len)) : QString());
        lua_pop(L, 1);
    }
    context(L).log << parts.join(QLatin1Char(' '));
}

int redisLog(lua_State *L)
{
    if (!logArgumentsValid(L))
        return raise(L);
    appendLog(L);
    return 0;
}

namespace {

const char *const KnownFlags[] = {"no-writes", "allow-oom", "allow-stale", "no-cluster",
                                  "allow-cross-slot-keys"};

// Reads the flags table at the top of the stack (array part, as Redis does).
bool readFlags(lua_State *L, QStringList *flags)
{
    for (int j = 1;; ++j) {
        lua_rawgeti(L, -1, j);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            return true;
        }
        const char *text = lua_isstring(L, -1) ? lua_tostring(L, -1) : nullptr;
        const char *known = nullptr;
        for (const char *f : KnownFlags)
            if (text && strcasecmp(f, text) == 0)
                known = f;
        lua_pop(L, 1);
        if (!known)
            return false;
        if (!flags->contains(QLatin1String(known)))
            *flags << QLatin1String(known);
    }
}

std::optional<QString> stringValue(lua_State *L, int index)
{
    if (!lua_isstring(L, index))
        return std::nullopt;
    size_t len = 0;
    lua_pushvalue(L, index);
    const char *s = lua_tolstring(L, -1, &len);
    QString out = QString::fromUtf8(s, qsizetype(len));
    lua_pop(L, 1);
    return out;
}

// A refusal, with the text Redis gives for it (marked QT_TRANSLATE_NOOP, see RunProblem).
struct Refusal
{
    Kind kind;
    const char *source;
    QStringList args = {};
};

Refusal badArgument(const char *source)
{
    return Refusal{Kind::BadArguments, source};
}

// What redis.register_function was given; a callback is referenced as soon as it is seen,
// as Redis does.
struct RegisterArguments
{
    std::optional<QString> name;
    std::optional<int> callbackRef;
};

// register_function(name, callback).
std::optional<Refusal> readPositional(lua_State *L, RegisterArguments *args)
{
    if (!(args->name = stringValue(L, 1)))
        return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "first argument to redis.register_function must be a "
                                             "string"));
    if (!lua_isfunction(L, 2))
        return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "second argument to redis.register_function must be a "
                                             "function"));
    lua_pushvalue(L, 2);
    args->callbackRef = luaL_ref(L, LUA_REGISTRYINDEX);
    return std::nullopt;
}

// One key of register_function{...}: key at -2, value at -1.
std::optional<Refusal> readNamedArgument(lua_State *L, RegisterArguments *args,
                                         InspectedFunction *fn)
{
    const std::optional<QString> key =
        lua_type(L, -2) == LUA_TSTRING ? stringValue(L, -2) : std::nullopt;
    const QString k = key.value_or(QString()).toLower();
    if (k == QLatin1String("function_name")) {
        if (!(args->name = stringValue(L, -1)))
            return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                                 "function_name argument given to "
                                                 "redis.register_function must be a string"));
    } else if (k == QLatin1String("description")) {
        if (!(fn->info.description = stringValue(L, -1)))
            return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                                 "description argument given to "
                                                 "redis.register_function must be a string"));
    } else if (k == QLatin1String("callback")) {
        if (!lua_isfunction(L, -1))
            return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                                 "callback argument given to "
                                                 "redis.register_function must be a function"));
        lua_pushvalue(L, -1);
        args->callbackRef = luaL_ref(L, LUA_REGISTRYINDEX);
    } else if (k == QLatin1String("flags")) {
        if (!lua_istable(L, -1))
            return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                                 "flags argument to redis.register_function must "
                                                 "be a table representing function flags"));
        if (!readFlags(L, &fn->info.flags))
            return Refusal{Kind::UnknownFlag,
                           QT_TRANSLATE_NOOP("functions::Inspection", "unknown flag given")};
    } else {
        return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "unknown argument given to redis.register_function"));
    }
    return std::nullopt;
}

// register_function{function_name=..., callback=..., description=..., flags={...}}.
std::optional<Refusal> readNamed(lua_State *L, RegisterArguments *args, InspectedFunction *fn)
{
    if (!lua_istable(L, 1))
        return badArgument(QT_TRANSLATE_NOOP(
            "functions::Inspection", "calling redis.register_function with a single argument "
                                     "is only applicable to Lua table (representing named "
                                     "arguments)."));
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (auto refusal = readNamedArgument(L, args, fn))
            return refusal;
        lua_pop(L, 1);
    }
    if (!args->name)
        return badArgument(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "redis.register_function must get a function name "
                                             "argument"));
    if (!args->callbackRef)
        return badArgument(QT_TRANSLATE_NOOP(
            "functions::Inspection", "redis.register_function must get a callback argument"));
    return std::nullopt;
}

// The name's own rules, then against the library's functions so far.
std::optional<Refusal> nameRefusal(const SandboxContext &ctx, const QString &name)
{
    if (!isValidName(name))
        return Refusal{Kind::BadFunctionName,
                       QT_TRANSLATE_NOOP("functions::Inspection",
                                         "Function names can only contain letters, numbers, or "
                                         "underscores(_) and must be at least one character "
                                         "long")};
    // Redis 7.0 keeps a library's own functions case-sensitively but every library's
    // functions case-insensitively: it accepts "f" and "F" in one library and then fails
    // (crashes, in 7.0.15) when that library is replaced. Refuse what the server mishandles.
    for (const InspectedFunction &other : ctx.functions)
        if (other.info.name.compare(name, Qt::CaseInsensitive) == 0)
            return Refusal{Kind::DuplicateFunction,
                           QT_TRANSLATE_NOOP("functions::Inspection",
                                             "Function already exists in the library: '%1' "
                                             "(line %2) and '%3' compare equal, ignoring case"),
                           {other.info.name, QString::number(other.line), name}};
    return std::nullopt;
}

// Redis's luaRegisterFunctionReadArgs and functionLibCreateFunction, same checks and texts.
// On success the callback has been referenced in the registry.
bool registerImpl(lua_State *L)
{
    SandboxContext &ctx = context(L);
    const int line = lineAt(L, 1);
    const auto fail = [&](const Refusal &refusal) {
        setProblem(L, refusal.kind, refusal.source, refusal.args, line);
        return false;
    };
    const int argc = lua_gettop(L);
    if (argc < 1 || argc > 2)
        return fail(badArgument(QT_TRANSLATE_NOOP(
            "functions::Inspection", "wrong number of arguments to redis.register_function")));
    InspectedFunction fn;
    fn.line = line;
    RegisterArguments args;
    if (auto refusal = argc == 2 ? readPositional(L, &args) : readNamed(L, &args, &fn))
        return fail(*refusal);
    fn.info.name = *args.name;
    if (auto refusal = nameRefusal(ctx, fn.info.name))
        return fail(*refusal);
    fn.info.flags.sort();
    ctx.callbackRefs << *args.callbackRef;
    ctx.functions << fn;
    return true;
}

} // namespace

int registerFunction(lua_State *L)
{
    if (!registerImpl(L))
        return raise(L);
    return 0;
}

} // namespace functions::detail
