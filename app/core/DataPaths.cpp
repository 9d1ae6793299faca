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

QString sharedDataDirectory()
{
    const QString overridden = qEnvironmentVariable("INVENTORY_DATA_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/inventory-console");
}

Result<bool, QString> makePrivateDirectory(const QString &path)
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
            return QStringLiteral("cannot create %1: %2")
                .arg(p, QString::fromLocal8Bit(std::strerror(errno)));
    if (!QFileInfo(absolute).isDir())
        return QStringLiteral("cannot create %1: not a directory").arg(absolute);
    return true;
}

Result<bool, QString> writePrivateFile(const QString &path, const QByteArray &bytes)
{
    if (auto dir = makePrivateDirectory(QFileInfo(path).path()); !dir)
        return dir;
    QSaveFile f(path);
    const auto failed = [&] {
        return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    };
    if (!f.open(QIODevice::WriteOnly))
        return failed();
    // The temporary file becomes the target: it is made private before a byte is in it.
    if (::fchmod(f.handle(), 0600) != 0)
        return QStringLiteral("cannot write %1: %2")
            .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    if (f.write(bytes) != bytes.size() || !f.flush() || ::fsync(f.handle()) != 0 || !f.commit())
        return failed();
    return true;
}

Result<bool, QString> makeFilePrivate(const QString &path)
{
    if (auto dir = makePrivateDirectory(QFileInfo(path).path()); !dir)
        return dir;
    const QByteArray name = QFile::encodeName(path);
    const QString notRegular = QStringLiteral("cannot make %1 private: not a regular file");
    if (struct stat before = {}; ::stat(name.constData(), &before) == 0 && !S_ISREG(before.st_mode))
        return notRegular.arg(path);
    // O_NONBLOCK: should a FIFO appear meanwhile, opening it must not wait for a reader.
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0)
        return QStringLiteral("cannot make %1 private: %2")
            .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    struct stat st = {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    const int changed = regular ? ::fchmod(fd, 0600) : 0;
    const int error = errno;
    ::close(fd);
    if (!regular)
        return notRegular.arg(path);
    if (changed != 0)
        return QStringLiteral("cannot make %1 private: %2")
            .arg(path, QString::fromLocal8Bit(std::strerror(error)));
    return true;
}

Result<bool, QString> makeOpenFilePrivate(QFileDevice &file)
{
    if (file.handle() < 0 || ::fchmod(file.handle(), 0600) != 0)
        return QStringLiteral("cannot make %1 private: %2")
            .arg(file.fileName(), file.handle() < 0 ? QStringLiteral("it is not open")
                                                    : QString::fromLocal8Bit(std::strerror(errno)));
    return true;
}

} // namespace core
