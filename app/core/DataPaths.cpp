// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataPaths.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
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

} // namespace core
