#include "LibraryList.h"

#include <QHash>

#include <algorithm>

namespace redis {

namespace {

// FUNCTION LIST answers maps as flat [key, value, key, value ...] arrays in RESP2.
std::optional<QHash<QByteArray, Reply>> asMap(const Reply &r)
{
    if (!r.isArray() || r.size() % 2 != 0)
        return std::nullopt;
    QHash<QByteArray, Reply> out;
    for (qsizetype i = 0; i < r.size(); i += 2) {
        if (!r.at(i).isString())
            return std::nullopt;
        out.insert(r.at(i).bytes(), r.at(i + 1));
    }
    return out;
}

QString text(const Reply &r)
{
    return QString::fromUtf8(r.bytes());
}

} // namespace

core::Result<QList<LibraryInfo>, QString> decodeFunctionList(const Reply &reply)
{
    const QString bad = QStringLiteral("unexpected FUNCTION LIST reply: ");
    if (!reply.isArray())
        return bad + reply.debugString(80);
    QList<LibraryInfo> libs;
    for (const Reply &libReply : reply.elements()) {
        const auto lib = asMap(libReply);
        if (!lib || !lib->contains("library_name") || !lib->contains("functions"))
            return bad + libReply.debugString(80);
        LibraryInfo info;
        info.name = text(lib->value("library_name"));
        info.engine = text(lib->value("engine"));
        if (lib->contains("library_code")) {
            info.code = lib->value("library_code").bytes();
            info.hasCode = true;
        }
        const Reply fns = lib->value("functions");
        if (!fns.isArray())
            return bad + fns.debugString(80);
        for (const Reply &fnReply : fns.elements()) {
            const auto fn = asMap(fnReply);
            if (!fn || !fn->contains("name"))
                return bad + fnReply.debugString(80);
            FunctionInfo f;
            f.name = text(fn->value("name"));
            const Reply desc = fn->value("description");
            if (desc.isString())
                f.description = text(desc);
            const Reply flags = fn->value("flags");
            for (const Reply &flag : flags.elements())
                f.flags << text(flag);
            f.flags.sort();
            info.functions << f;
        }
        std::sort(info.functions.begin(), info.functions.end(),
                  [](const FunctionInfo &a, const FunctionInfo &b) { return a.name < b.name; });
        libs << info;
    }
    std::sort(libs.begin(), libs.end(),
              [](const LibraryInfo &a, const LibraryInfo &b) { return a.name < b.name; });
    return libs;
}

} // namespace redis
