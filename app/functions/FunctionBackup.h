// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"
#include "redis/LibraryList.h"

#include <QDateTime>

namespace functions {

// What one node held before a change: enough to put every library back exactly (the code of
// each, as FUNCTION LIST WITHCODE gave it) or wholesale (the FUNCTION DUMP payload).
struct NodeBackup
{
    QString address;
    QString runId;                       // the server process at backup time
    QString redisVersion;                // a dump restores only on this version or newer
    QList<redis::LibraryInfo> libraries; // every library, with code (functions not kept)
    QByteArray dump;                     // FUNCTION DUMP payload (binary)

    const redis::LibraryInfo *library(const QString &name) const;
};

// A backup file: JSON with the code as text and the dump as base64, written before every
// load, delete and rollback. The file is fsynced and renamed into place, so a backup that
// exists is complete.
struct FunctionBackup
{
    static constexpr const char *Format = "inventory-console/function-backup/1";
    // What read() accepts and write() produces at most: dumps and code of every library with
    // room to spare (a library file is capped at 1 MiB), never a device read without end.
    static constexpr qint64 MaxFileBytes = 64 * 1024 * 1024;

    QString path; // where it was written or read; not stored in the file
    QDateTime created;
    QString library; // the library the change is about
    QString action;  // "load", "delete", "rollback", "restore"
    QString profile;
    QString environment;
    QList<NodeBackup> nodes;

    const NodeBackup *node(const QString &address) const;
    QByteArray toJson() const;
    // Why not, in both copies: the rollback dialog shows the text, the CLI the English.
    static core::Result<FunctionBackup, core::Sentence> fromJson(const QByteArray &json);
    // A regular file of at most MaxFileBytes (links followed), or why not ("<path>: ...").
    static core::Result<FunctionBackup, core::Sentence> read(const QString &path);
    // Writes <directory>/<library>-<yyyyMMdd-HHmmss-zzz>-<action>-<random>.json, mode 0600
    // (the directory is created 0700 if missing), and sets `path`.
    core::Result<bool, core::Sentence> write(const QString &directory);
};

// <app data>/function-backups
QString defaultBackupDirectory();

} // namespace functions
