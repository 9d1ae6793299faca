// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibraryList.h"

#include <QHash>

#include <algorithm>

namespace redis {

namespace {

using Map = QHash<QByteArray, Reply>;

core::Sentence listSays(const char *source)
{
    return core::Sentence::translated("redis::LibraryList", source);
}

// FUNCTION LIST answers maps as flat [key, value, key, value ...] arrays in RESP2.
Decoded<Map> asMap(const Reply &r)
{
    const auto items = r.array();
    if (!items)
        return items.error();
    if (items->size() % 2 != 0)
        return r.unexpected(listSays(
            QT_TRANSLATE_NOOP("redis::LibraryList", "a map (an even number of elements)")));
    Map out;
    for (qsizetype i = 0; i < items->size(); i += 2) {
        const auto key = items->at(i).string();
        if (!key)
            return key.error();
        out.insert(*key, items->at(i + 1));
    }
    return out;
}

// A field that is required to be text; a missing one reads as nil and so is refused too.
Decoded<QString> text(const Map &m, const char *field)
{
    const auto s = m.value(field).string();
    if (!s)
        return s.error();
    return QString::fromUtf8(*s);
}

Decoded<FunctionInfo> decodeFunction(const Reply &r)
{
    const auto fn = asMap(r);
    if (!fn)
        return fn.error();
    FunctionInfo f;
    const auto name = text(*fn, "name");
    if (!name)
        return name.error();
    f.name = *name;
    if (const auto desc = fn->value("description").string())
        f.description = QString::fromUtf8(*desc); // nil when the library gave none
    // An absent flags field is no flags; one of another shape is a broken reply.
    if (fn->contains("flags")) {
        const auto flags = fn->value("flags").array();
        if (!flags)
            return flags.error();
        for (const Reply &flag : *flags) {
            const auto s = flag.string();
            if (!s)
                return s.error();
            f.flags << QString::fromUtf8(*s);
        }
    }
    f.flags.sort();
    return f;
}

Decoded<LibraryInfo> decodeLibrary(const Reply &r)
{
    const auto lib = asMap(r);
    if (!lib)
        return lib.error();
    LibraryInfo info;
    const auto name = text(*lib, "library_name");
    if (!name)
        return name.error();
    info.name = *name;
    if (lib->contains("engine")) {
        const auto engine = text(*lib, "engine");
        if (!engine)
            return engine.error();
        info.engine = *engine;
    }
    if (lib->contains("library_code")) {
        const auto code = lib->value("library_code").string();
        if (!code)
            return code.error();
        info.code = *code;
        info.hasCode = true;
    }
    const auto fns = lib->value("functions").array();
    if (!fns)
        return fns.error();
    for (const Reply &fnReply : *fns) {
        const auto f = decodeFunction(fnReply);
        if (!f)
            return f.error();
        info.functions << *f;
    }
    std::sort(info.functions.begin(), info.functions.end(),
              [](const FunctionInfo &a, const FunctionInfo &b) { return a.name < b.name; });
    return info;
}

} // namespace

core::Result<QList<LibraryInfo>, core::Sentence> decodeFunctionList(const Reply &reply)
{
    const auto bad = [](const RedisError &e) {
        return listSays(
                   QT_TRANSLATE_NOOP("redis::LibraryList", "unexpected FUNCTION LIST reply: %1"))
            .arg(e.message);
    };
    const auto items = reply.array();
    if (!items)
        return bad(items.error());
    QList<LibraryInfo> libs;
    for (const Reply &libReply : *items) {
        const auto lib = decodeLibrary(libReply);
        if (!lib)
            return bad(lib.error());
        libs << *lib;
    }
    std::sort(libs.begin(), libs.end(),
              [](const LibraryInfo &a, const LibraryInfo &b) { return a.name < b.name; });
    return libs;
}

} // namespace redis
