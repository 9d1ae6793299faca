// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Result.h"
#include "Wording.h"

#include <QByteArray>
#include <QString>

namespace core {

// Why a file was not read, with a message that names the file and the reason.
struct FileReadError
{
    enum class Kind { CannotOpen, NotRegular, TooLarge, ReadFailed };
    Kind kind = Kind::CannotOpen;
    Sentence message; // .english for the CLI and the log, .text for the window
    qint64 size = -1; // TooLarge: the file's size
};

enum class Links { Follow, Refuse };

// Reads a whole file that someone else chose (a library on the command line, a backup, a load
// journal in the data directory), refusing anything but a regular file of at most `maxBytes`.
// QFile::size() is 0 for a device and open() waits for a FIFO's writer, so the file is opened
// with O_NONBLOCK (and O_NOFOLLOW when links are refused) and judged by fstat of what was
// opened: /dev/zero, a FIFO, a directory or a 3 GB sparse file is refused before a byte is read,
// and the read stops one byte past the cap if the file grows meanwhile. Qt resource paths
// (":/...") are read through QFile, with the same cap.
Result<QByteArray, FileReadError> readRegularFile(const QString &path, qint64 maxBytes,
                                                  Links links = Links::Follow);

// The same checks for a file read as a stream (a ledger export of any size): opens `path`
// read-only and returns its descriptor once fstat shows a regular file, so a FIFO, a device
// or a directory is refused before a byte is read and a reader never waits for a writer. The
// caller owns the descriptor (QFile::open(fd, ..., AutoCloseHandle)).
Result<int, FileReadError> openRegularFile(const QString &path, Links links = Links::Follow);

} // namespace core
