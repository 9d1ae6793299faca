// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocalCatalog.h"

#include "FunctionsLog.h"
#include "LibraryVersion.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>

#include <algorithm>

// Resources of a static library must be registered by hand; Q_INIT_RESOURCE cannot sit
// inside a namespace.
static void registerFunctionResources()
{
    Q_INIT_RESOURCE(functions);
    Q_INIT_RESOURCE(previous_release);
}

namespace functions {

namespace {
// How a loaded library matches a local file is translated where the window shows it; the CLI
// prints the English. The file's label goes into audit records in English (displayPath's
// default).
struct LocalCatalogText
{
    Q_DECLARE_TR_FUNCTIONS(functions::LocalCatalog)
};
} // namespace

void initFunctionResources()
{
    static const bool once = [] {
        registerFunctionResources();
        return true;
    }();
    (void)once;
}

QString previousReleasePath()
{
    return QStringLiteral(":/releases/inventory_lib_v1-1.0.0.lua");
}

QString displayPath(const QString &path, core::Wording wording)
{
    if (path.startsWith(QLatin1String(":/functions/")))
        return core::word(wording, "functions::LocalCatalog",
                          QT_TRANSLATE_NOOP("functions::LocalCatalog", "shipped functions/%1"))
            .arg(path.mid(12));
    if (path.startsWith(QLatin1String(":/releases/")))
        return core::word(wording, "functions::LocalCatalog",
                          QT_TRANSLATE_NOOP("functions::LocalCatalog", "previous release %1"))
            .arg(path.mid(11));
    return QDir::toNativeSeparators(path);
}

QString LibraryMatch::text() const
{
    switch (kind) {
    case Kind::Identical:
        return LocalCatalogText::tr("identical to %1")
            .arg(displayPath(path, core::Wording::Translated));
    case Kind::Differs:
        return LocalCatalogText::tr("differs from %1 (%2)")
            .arg(displayPath(path, core::Wording::Translated), versionLabel(fileVersion));
    case Kind::Unknown:
        return LocalCatalogText::tr("unknown (no local file of this library)");
    }
    return {};
}

QString matchKindName(LibraryMatch::Kind kind)
{
    switch (kind) {
    case LibraryMatch::Kind::Identical:
        return QStringLiteral("identical");
    case LibraryMatch::Kind::Differs:
        return QStringLiteral("differs");
    case LibraryMatch::Kind::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QString LocalCatalog::shippedDirectory()
{
    return QStringLiteral(":/functions");
}

LocalCatalog::LocalCatalog(QStringList directories)
    : m_directories(std::move(directories))
{
    initFunctionResources();
}

void LocalCatalog::scan()
{
    m_files.clear();
    for (const QString &dir : m_directories) {
        const QDir d(dir);
        const QStringList names = d.entryList({QStringLiteral("*.lua")}, QDir::Files, QDir::Name);
        for (const QString &name : names) {
            const QString path = d.filePath(name);
            auto inspected = inspectFile(path);
            if (!inspected) {
                qCWarning(lcFunctions)
                    << "local library not readable:" << inspected.error().english;
                continue;
            }
            if (!inspected->code.startsWith("#!") && inspected->problem)
                continue; // an EVAL script, not a library
            m_files << LocalFile{path, *inspected};
        }
    }
}

QList<const LocalFile *> LocalCatalog::filesFor(const QString &library) const
{
    QList<const LocalFile *> out;
    for (const LocalFile &f : m_files)
        if (f.inspection.library == library)
            out << &f;
    std::stable_sort(out.begin(), out.end(), [](const LocalFile *a, const LocalFile *b) {
        return compareVersions(a->inspection.version, b->inspection.version) > 0;
    });
    return out;
}

LibraryMatch LocalCatalog::match(const redis::LibraryInfo &loaded) const
{
    const QList<const LocalFile *> candidates = filesFor(loaded.name);
    for (const LocalFile *f : candidates)
        if (loaded.hasCode && f->inspection.code == loaded.code)
            return {LibraryMatch::Kind::Identical, f->path, f->inspection.version};
    if (!candidates.isEmpty())
        return {LibraryMatch::Kind::Differs, candidates.first()->path,
                candidates.first()->inspection.version};
    return {};
}

QJsonObject LibraryStatus::toJson() const
{
    QJsonArray fns;
    for (const redis::FunctionInfo &f : library.functions)
        fns.append(
            QJsonObject{{QStringLiteral("name"), f.name},
                        {QStringLiteral("description"),
                         f.description ? QJsonValue(*f.description) : QJsonValue(QJsonValue::Null)},
                        {QStringLiteral("flags"), QJsonArray::fromStringList(f.flags)}});
    return {
        {QStringLiteral("library"), library.name},
        {QStringLiteral("engine"), library.engine},
        {QStringLiteral("version"),
         version.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(version)},
        {QStringLiteral("sha256"), QString::fromLatin1(fingerprint)},
        {QStringLiteral("match"), matchKindName(match.kind)},
        {QStringLiteral("match_file"), match.path.isEmpty() ? QString() : displayPath(match.path)},
        {QStringLiteral("match_file_version"), match.fileVersion},
        {QStringLiteral("functions"), fns}};
}

QList<LibraryStatus> libraryStatuses(const QList<redis::LibraryInfo> &loaded,
                                     const LocalCatalog &catalog)
{
    QList<LibraryStatus> out;
    for (const redis::LibraryInfo &lib : loaded)
        out << LibraryStatus{lib, libraryVersion(lib.code), codeFingerprint(lib.code),
                             catalog.match(lib)};
    return out;
}

} // namespace functions
