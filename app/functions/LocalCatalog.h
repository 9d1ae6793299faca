// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Inspection.h"
#include "core/Wording.h"

#include <QJsonObject>

namespace functions {

// Registers the Qt resources of the core that hold libraries: the shipped functions/
// (":/functions/") and the previous release (":/releases/"). Safe to call more than once.
void initFunctionResources();
// The 1.0.0 release of inventory_lib_v1, kept for the demo: it loads this one so that the
// console shows the shipped 1.1.0 as an upgrade.
QString previousReleasePath(); // ":/releases/inventory_lib_v1-1.0.0.lua"
// A path as people should read it: ":/functions/x.lua" is "shipped functions/x.lua",
// ":/releases/x.lua" is "previous release x.lua", a file path stays as it is. English for
// records, JSON and the CLI; the window asks for its own language.
QString displayPath(const QString &path, core::Wording wording = core::Wording::English);

// One local library file, inspected offline.
struct LocalFile
{
    QString path; // as read: a file path or a ":/" resource (displayPath() labels it)
    Inspection inspection;
};

// How a loaded library relates to the local files.
struct LibraryMatch
{
    enum class Kind { Identical, Differs, Unknown };
    Kind kind = Kind::Unknown;
    QString path;         // Identical: the identical file; Differs: the newest file of that name
    QString fileVersion;  // that file's version ("" when unversioned)
    QString text() const; // "identical to …", "differs from … (1.1.0)", "unknown"
};
QString matchKindName(LibraryMatch::Kind kind); // identical | differs | unknown

// The local library files the console compares loaded libraries with: the shipped functions/
// directory by default, others added by the user. Files that are not libraries (no "#!"
// line, such as the EVAL script stock_decrement.lua) are left out.
class LocalCatalog
{
public:
    static QString shippedDirectory(); // ":/functions"
    explicit LocalCatalog(QStringList directories = {shippedDirectory()});

    QStringList directories() const { return m_directories; }
    void scan(); // reads every *.lua of every directory (again)
    const QList<LocalFile> &files() const { return m_files; }
    // Every local file of this library, newest version first.
    QList<const LocalFile *> filesFor(const QString &library) const;
    LibraryMatch match(const redis::LibraryInfo &loaded) const;

private:
    QStringList m_directories;
    QList<LocalFile> m_files;
};

// What the libraries view and `functions status` show for one loaded library.
struct LibraryStatus
{
    redis::LibraryInfo library; // with code
    QString version;            // empty: unversioned
    QByteArray fingerprint;
    LibraryMatch match;
    QJsonObject toJson() const; // full fingerprint, functions with flags and descriptions
};
QList<LibraryStatus> libraryStatuses(const QList<redis::LibraryInfo> &loaded,
                                     const LocalCatalog &catalog);

} // namespace functions
