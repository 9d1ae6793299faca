// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataPaths.h"

#include <QDir>
#include <QFileDevice>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace core {

namespace {

// A private file or folder the console could not make: a backup, an export or the audit log's
// folder, which the window reports. The system's reason goes in as strerror says it.
Sentence pathSays(const char *source)
{
    return Sentence::translated("core::DataPaths", source);
}

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

Sentence cannotWrite(const QString &path, const QString &why)
{
    return pathSays(QT_TRANSLATE_NOOP("core::DataPaths", "cannot write %1: %2")).arg(path, why);
}

Sentence cannotMakePrivate(const QString &path, const QString &why)
{
    return pathSays(QT_TRANSLATE_NOOP("core::DataPaths", "cannot make %1 private: %2"))
        .arg(path, why);
}

Sentence notRegular(const QString &path)
{
    return pathSays(
               QT_TRANSLATE_NOOP("core::DataPaths", "cannot make %1 private: not a regular file"))
        .arg(path);
}

} // namespace

QString sharedDataDirectory()
{
    const QString overridden = qEnvironmentVariable("INVENTORY_DATA_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/inventory-console");
}

Result<bool, Sentence> makePrivateDirectory(const QString &path)
{
    // QDir::mkpath creates with 0777 minus the umask: each missing level is made here instead,
    // outermost first, with 0700 (mkdir's mode is also reduced by the umask, never widened).
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList missing;
    for (QString p = absolute; !QFileInfo::exists(p); p = QFileInfo(p).path()) {
        missing.prepend(p);
        if (QFileInfo(p).path() == p)
            break;
    }
    for (const QString &p : missing)
        if (::mkdir(QFile::encodeName(p).constData(), 0700) != 0 && errno != EEXIST)
            return pathSays(QT_TRANSLATE_NOOP("core::DataPaths", "cannot create %1: %2"))
                .arg(p, systemError(errno));
    if (!QFileInfo(absolute).isDir())
        return pathSays(QT_TRANSLATE_NOOP("core::DataPaths", "cannot create %1: not a directory"))
            .arg(absolute);
    return true;
}

Result<bool, Sentence> writePrivateFile(const QString &path, const QByteArray &bytes)
{
    if (auto dir = makePrivateDirectory(QFileInfo(path).path()); !dir)
        return dir;
    QSaveFile f(path);
    const auto failed = [&] {
        return cannotWrite(path, f.errorString());
    };
    if (!f.open(QIODevice::WriteOnly))
        return failed();
    // The temporary file becomes the target: it is made private before a byte is in it.
    if (::fchmod(f.handle(), 0600) != 0)
        return cannotWrite(path, systemError(errno));
    if (f.write(bytes) != bytes.size() || !f.flush() || ::fsync(f.handle()) != 0 || !f.commit())
        return failed();
    return true;
}

Result<bool, Sentence> makeFilePrivate(const QString &path)
{
    if (auto dir = makePrivateDirectory(QFileInfo(path).path()); !dir)
        return dir;
    const QByteArray name = QFile::encodeName(path);
    if (struct stat before = {}; ::stat(name.constData(), &before) == 0 && !S_ISREG(before.st_mode))
        return notRegular(path);
    // O_NONBLOCK: should a FIFO appear meanwhile, opening it must not wait for a reader.
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0)
        return cannotMakePrivate(path, systemError(errno));
    struct stat st = {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    const int changed = regular ? ::fchmod(fd, 0600) : 0;
    const int error = errno;
    ::close(fd);
    if (!regular)
        return notRegular(path);
    if (changed != 0)
        return cannotMakePrivate(path, systemError(error));
    return true;
}

Result<bool, Sentence> makeOpenFilePrivate(QFileDevice &file)
{
    if (file.handle() < 0 || ::fchmod(file.handle(), 0600) != 0)
        return file.handle() < 0
                   ? pathSays(QT_TRANSLATE_NOOP("core::DataPaths",
                                                "cannot make %1 private: it is not open"))
                         .arg(file.fileName())
                   : cannotMakePrivate(file.fileName(), systemError(errno));
    return true;
}

} // namespace core
