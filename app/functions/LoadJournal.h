// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"
#include "redis/LibraryList.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace functions {

// A change that was sent to a node and not yet verified. It is written (fsynced) next to the
// backups just before the command goes out, and removed once the verification has been read.
// One that is left behind means the process died (SIGKILL, crash, power) or the node could not
// be read afterwards: the next `functions` command, or the wizard, reads the node and says
// what state it is in. The audit log has the same attempt without an outcome.
struct LoadJournalEntry
{
    QString address; // host:port of the node
    QString library;
    QString action;      // "load", "delete", "rollback", "restore"
    QString fromVersion; // the version label before ("1.0.0", "unversioned", "absent")
    QString toVersion;   // the version label the change would leave
    QString backupPath;
    QDateTime started; // UTC
    QString path;      // the journal file; not stored in it
    qint64 pid = 0;    // the process that wrote it (0: this one, when written)

    // "a load of inventory_lib_v1 1.2.0 was interrupted at 2026-11-30 23:10:05 UTC (backup
    // <path>); 127.0.0.1:6379 now has 1.0.0": what a node holds now, `now` from FUNCTION LIST
    // (nullptr: the library is not loaded), or `readError` when that could not be read.
    core::Sentence notice(const redis::LibraryInfo *now, const QString &readError = {}) const;
};

// <backup directory>/load-journal/: one file per node, library and run (mode 0600).
QString loadJournalDirectory(const QString &backupDirectory);
// Writes the entry (fsynced, renamed into place) and sets its path.
core::Result<bool, core::Sentence> writeLoadJournal(const QString &backupDirectory,
                                                    LoadJournalEntry &entry);
void clearLoadJournal(const LoadJournalEntry &entry);
// The interrupted changes recorded for this node, oldest first: those whose process no longer
// runs. Unreadable files, and anything not a regular file of at most 64 KiB, are skipped (a
// journal is written whole or not at all).
QList<LoadJournalEntry> pendingLoadJournals(const QString &backupDirectory, const QString &address);

} // namespace functions
