// SPDX-License-Identifier: GPL-3.0-or-later
#include "RegularFile.h"

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace core {

namespace {

// Why a file was not read: a window may show it (a ledger on the Reconcile tab), the CLI keeps
// the English. The system's own reason (strerror, Qt's) goes in as it is.
Sentence fileReadSays(const char *source)
{
    return Sentence::translated("core::RegularFile", source);
}

Sentence cannotRead(const QString &path, const QString &why)
{
    return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "cannot read %1: %2"))
        .arg(path, why);
}

Sentence typeName(mode_t mode)
{
    if (S_ISDIR(mode))
        return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "a directory"));
    if (S_ISFIFO(mode))
        return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "a FIFO"));
    if (S_ISSOCK(mode))
        return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "a socket"));
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "a device"));
    return fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile", "not a plain file"));
}

FileReadError error(FileReadError::Kind kind, const Sentence &message, qint64 size = -1)
{
    return FileReadError{kind, message, size};
}

FileReadError tooLarge(const QString &path, qint64 size, qint64 maxBytes)
{
    return error(FileReadError::Kind::TooLarge,
                 fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile",
                                                "cannot read %1: it is %2 bytes, above the "
                                                "limit of %3 bytes"))
                     .arg(path, size, maxBytes),
                 size);
}

Result<QByteArray, FileReadError> readResource(const QString &path, qint64 maxBytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return error(FileReadError::Kind::CannotOpen, cannotRead(path, f.errorString()));
    if (f.size() > maxBytes)
        return tooLarge(path, f.size(), maxBytes);
    return f.readAll();
}

} // namespace

Result<int, FileReadError> openRegularFile(const QString &path, Links links)
{
    const auto sysError = [&path](FileReadError::Kind kind) {
        return error(kind, cannotRead(path, QString::fromLocal8Bit(std::strerror(errno))));
    };
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
    if (links == Links::Refuse)
        flags |= O_NOFOLLOW;
    const int fd = ::open(QFile::encodeName(path).constData(), flags);
    if (fd < 0) {
        if (errno == ELOOP && links == Links::Refuse)
            return error(FileReadError::Kind::NotRegular,
                         fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile",
                                                        "cannot read %1: it is a symbolic link, "
                                                        "and this file is only read as a "
                                                        "regular file"))
                             .arg(path));
        return sysError(FileReadError::Kind::CannotOpen);
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        const auto e = sysError(FileReadError::Kind::CannotOpen);
        ::close(fd);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return error(FileReadError::Kind::NotRegular,
                     fileReadSays(QT_TRANSLATE_NOOP("core::RegularFile",
                                                    "cannot read %1: not a regular file (%2)"))
                         .arg(path, typeName(st.st_mode)));
    }
    // A regular file never blocks; clearing O_NONBLOCK keeps reads plain for QFile.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

Result<QByteArray, FileReadError> readRegularFile(const QString &path, qint64 maxBytes, Links links)
{
    if (path.startsWith(QLatin1Char(':')))
        return readResource(path, maxBytes);
    const auto opened = openRegularFile(path, links);
    if (!opened)
        return opened.error();
    const int fd = opened.value();
    const auto sysError = [&path](FileReadError::Kind kind) {
        return error(kind, cannotRead(path, QString::fromLocal8Bit(std::strerror(errno))));
    };
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st;
    if (::fstat(fd, &st) != 0)
        return sysError(FileReadError::Kind::CannotOpen);
    if (st.st_size > maxBytes)
        return tooLarge(path, st.st_size, maxBytes);
    QByteArray out;
    out.resize(qsizetype(st.st_size) + 1); // one byte more: a file that grew is seen
    qsizetype filled = 0;
    for (;;) {
        if (filled == out.size()) {
            if (filled > maxBytes)
                return tooLarge(path, filled, maxBytes);
            out.resize(std::min<qint64>(maxBytes + 1, filled * 2 + 4096));
        }
        const ssize_t n = ::read(fd, out.data() + filled, size_t(out.size() - filled));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return sysError(FileReadError::Kind::ReadFailed);
        if (n == 0)
            break;
        filled += n;
    }
    if (filled > maxBytes)
        return tooLarge(path, filled, maxBytes);
    out.truncate(filled);
    return out;
}

} // namespace core
