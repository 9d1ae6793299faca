// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshFiles.h"

#include "core/DataPaths.h"
#include "core/RegularFile.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace ssh {

PrivateRuntimeDirectory::~PrivateRuntimeDirectory()
{
    if (!m_path.isEmpty())
        QDir(m_path).removeRecursively();
}

QString privateDirectoryProblem(const QString &path)
{
    struct stat st = {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    if (!S_ISDIR(st.st_mode))
        return QStringLiteral("%1 is not a directory (or is a symbolic link)").arg(path);
    if (st.st_uid != ::geteuid())
        return QStringLiteral("%1 is owned by another user").arg(path);
    if ((st.st_mode & 077) != 0)
        return QStringLiteral("%1 can be entered by other users (mode %2)")
            .arg(path, QString::number(st.st_mode & 0777, 8));
    return {};
}

core::Result<bool, QString> PrivateRuntimeDirectory::create()
{
    if (!m_path.isEmpty())
        return true;
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (base.isEmpty() || !privateDirectoryProblem(base).isEmpty())
        base = QDir::tempPath();
    // The control socket's path must fit a sockaddr_un (108 bytes) with its temporary suffix.
    if (base.size() > 60)
        base = QStringLiteral("/tmp");
    QByteArray templ = QFile::encodeName(base + QStringLiteral("/inventory-ssh-XXXXXX"));
    if (::mkdtemp(templ.data()) == nullptr)
        return core::err(QStringLiteral("cannot create a private directory in %1: %2")
                             .arg(base, QString::fromLocal8Bit(std::strerror(errno))));
    const QString path = QFile::decodeName(templ);
    if (const QString why = privateDirectoryProblem(path); !why.isEmpty()) {
        QDir(path).removeRecursively();
        return core::err(QStringLiteral("the private directory is not private: %1").arg(why));
    }
    m_path = path;
    return true;
}

QString defaultKnownHostsFile()
{
    return core::sharedDataDirectory() + QStringLiteral("/ssh_known_hosts");
}

bool isSha256Fingerprint(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^SHA256:[A-Za-z0-9+/]{43}$"));
    return form.match(text).hasMatch();
}

KeyFingerprint fingerprintOf(const QByteArray &keyLine)
{
    KeyFingerprint out;
    QProcess keygen;
    keygen.setProcessChannelMode(QProcess::SeparateChannels);
    keygen.start(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"),
                  QStringLiteral("-f"), QStringLiteral("-")});
    if (!keygen.waitForStarted(5000)) {
        out.error = QStringLiteral("ssh-keygen could not be started (install openssh-client): %1")
                        .arg(keygen.errorString());
        return out;
    }
    keygen.write(keyLine.trimmed() + '\n');
    keygen.closeWriteChannel();
    if (!keygen.waitForFinished(5000) || keygen.exitCode() != 0) {
        out.error = QStringLiteral("ssh-keygen could not read the key: %1")
                        .arg(QString::fromUtf8(keygen.readAllStandardError()).trimmed());
        keygen.kill();
        return out;
    }
    // "256 SHA256:... comment (ED25519)"
    static const QRegularExpression form(QStringLiteral("^\\d+ (SHA256:\\S+) .*\\((\\S+)\\)\\s*$"));
    const QString text = QString::fromUtf8(keygen.readAllStandardOutput()).trimmed();
    const auto m = form.match(text.section(QLatin1Char('\n'), 0, 0));
    if (!m.hasMatch()) {
        out.error = QStringLiteral("unexpected ssh-keygen output: %1").arg(text);
        return out;
    }
    out.fingerprint = m.captured(1);
    out.type = m.captured(2);
    return out;
}

static bool namesHost(const QByteArray &line, const QString &host)
{
    const QByteArray names = line.trimmed().split(' ').value(0);
    for (const QByteArray &name : names.split(','))
        if (QString::fromUtf8(name) == host)
            return true;
    return false;
}

core::Result<bool, core::Sentence> appendKnownHost(const QString &file, const QByteArray &line,
                                                   const QString &replaceHost)
{
    QByteArray kept;
    if (QFile::exists(file)) {
        auto existing = core::readRegularFile(file, 16 * 1024 * 1024, core::Links::Refuse);
        if (!existing)
            return core::err(existing.error().message);
        for (const QByteArray &old : existing.value().split('\n')) {
            if (old.trimmed().isEmpty() || (!replaceHost.isEmpty() && namesHost(old, replaceHost)))
                continue;
            kept += old + '\n';
        }
    }
    return core::writePrivateFile(file, kept + line.trimmed() + '\n');
}

QByteArray fileLine(const QString &file, int number)
{
    auto text = core::readRegularFile(file, 16 * 1024 * 1024);
    if (!text || number < 1)
        return {};
    return text.value().split('\n').value(number - 1);
}

} // namespace ssh
