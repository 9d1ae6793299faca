// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFile>
#include <QString>

#include <sys/stat.h>

namespace testsupport {

// The permission bits of `path` (0600, 0644, ...), or -1 when it cannot be read: what the
// file system holds, whatever QFileDevice's owner/user flags make of it.
inline int fileMode(const QString &path)
{
    struct stat st = {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

} // namespace testsupport
