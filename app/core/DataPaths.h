// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"
#include "Wording.h"

#include <QByteArray>
#include <QString>

class QFileDevice;

namespace core {

// The folder the console and inventory-cli share for what they write: the audit log and
// library backups. One folder for both front ends, so that a deduction made from the command
// line shows up in the GUI's audit viewer. INVENTORY_DATA_DIR overrides it (tests, kiosks).
QString sharedDataDirectory();

// What the console writes there holds library code, dumps, node, profile and OS user names:
// only its owner may read it. Every directory the console creates for it is 0700 and every
// file 0600, whatever the umask; directories that already exist are left as they are (one
// may be the user's own, named by INVENTORY_DATA_DIR or --backup-dir). A failure names the path
// and the system's reason, for the CLI (.english) and the window (.text).
Result<bool, Sentence> makePrivateDirectory(const QString &path);
// Writes `bytes` to `path` whole or not at all (fsynced, renamed into place), mode 0600,
// creating its folder as makePrivateDirectory() does.
Result<bool, Sentence> writePrivateFile(const QString &path, const QByteArray &bytes);
// Makes a file just opened for writing 0600 whatever the umask, before a byte is in it (for a
// QSaveFile: its temporary, which becomes the file): an export the user names is as private as
// the console's own files.
Result<bool, Sentence> makeOpenFilePrivate(QFileDevice &file);
// Makes the file at `path` 0600, creating it empty (and its folder as makePrivateDirectory()
// does) when missing, for a file another writer fills: QSettings rewrites its file through a
// QSaveFile, which keeps the mode of the file it replaces, so a settings file made private
// before its first write stays private. Refuses anything but a regular file (a FIFO or a
// device in its place is reported, not waited on).
Result<bool, Sentence> makeFilePrivate(const QString &path);

} // namespace core
