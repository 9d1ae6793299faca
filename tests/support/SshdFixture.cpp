// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshdFixture.h"

#include "demo/LocalRedisServer.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace testsupport {

QString runSshKeygen(const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("ssh-keygen"), args);
    if (!p.waitForFinished(20000))
        return QStringLiteral("ssh-keygen did not finish: %1").arg(p.errorString());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("ssh-keygen %1 failed: %2")
            .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll()));
    return {};
}

QString keygenFingerprint(const QString &publicKeyFile)
{
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"),
            {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"),
             QStringLiteral("-f"), publicKeyFile});
    if (!p.waitForFinished(10000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput()).section(QLatin1Char(' '), 1, 1);
}

QList<qint64> descendantProcesses(qint64 pid)
{
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 child = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(child));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        children[fields.value(1).toLongLong()] << child;
    }
    QList<qint64> out, todo{pid};
    while (!todo.isEmpty()) {
        for (const qint64 c : children.value(todo.takeFirst())) {
            out << c;
            todo << c;
        }
    }
    return out;
}

Sshd::Sshd()
    : m_dir(QDir::tempPath() + QStringLiteral("/inventory-sshd-XXXXXX"))
{}

Sshd::~Sshd()
{
    stop();
}

QString Sshd::user()
{
    const passwd *pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString();
}

QString Sshd::clientKey() const
{
    return m_dir.filePath(QStringLiteral("client_ed25519"));
}

QString Sshd::otherClientKey() const
{
    return m_dir.filePath(QStringLiteral("stranger_ed25519"));
}

QString Sshd::encryptedClientKey() const
{
    return m_dir.filePath(QStringLiteral("encrypted_ed25519"));
}

QString Sshd::hostPublicKeyFile() const
{
    return m_dir.filePath(QStringLiteral("host_ed25519.pub"));
}

QString Sshd::hostKeyFingerprint() const
{
    return keygenFingerprint(hostPublicKeyFile());
}

QString Sshd::log() const
{
    return fullLog().right(4000);
}

QString Sshd::fullLog() const
{
    QFile f(m_dir.filePath(QStringLiteral("sshd.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

static QString newKey(const QString &path, const QString &passphrase = {})
{
    QFile::remove(path);
    QFile::remove(path + QStringLiteral(".pub"));
    return runSshKeygen({QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                         QStringLiteral("-N"), passphrase, QStringLiteral("-C"),
                         QStringLiteral("inventory-test"), QStringLiteral("-f"), path});
}

bool Sshd::writeConfig()
{
    const QString authorized = m_dir.filePath(QStringLiteral("authorized_keys"));
    QFile::remove(authorized);
    if (!QFile::copy(clientKey() + QStringLiteral(".pub"), authorized)
        || !authorize(encryptedClientKey() + QStringLiteral(".pub"))) {
        m_error = QStringLiteral("could not write authorized_keys");
        return false;
    }
    const QString config =
        QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\n"
                       "AuthorizedKeysFile %3\nPidFile %4\nUsePAM no\nStrictModes no\n"
                       "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                       "PermitRootLogin prohibit-password\nAllowTcpForwarding yes\n"
                       "X11Forwarding no\nPrintMotd no\n"
                       // DEBUG names the target of every forwarded connection: tests read
                       // it to see what went through the tunnel.
                       "LogLevel DEBUG\n"
                       // No reverse lookup of the client: nothing leaves for a resolver.
                       "UseDNS no\n")
            .arg(m_port)
            .arg(m_dir.filePath(QStringLiteral("host_ed25519")), authorized,
                 m_dir.filePath(QStringLiteral("sshd.pid")));
    QFile f(m_dir.filePath(QStringLiteral("sshd_config")));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(config.toUtf8()) < 0) {
        m_error = QStringLiteral("could not write sshd_config");
        return false;
    }
    return true;
}

bool Sshd::start()
{
    m_error.clear();
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory: %1").arg(m_dir.errorString());
        return false;
    }
    if (!QFile::exists(QStringLiteral("/usr/sbin/sshd"))) {
        m_error =
            QStringLiteral("/usr/sbin/sshd is missing: install openssh-server (scripts/deps)");
        return false;
    }
    for (const QString &key :
         {m_dir.filePath(QStringLiteral("host_ed25519")), clientKey(), otherClientKey()})
        if (const QString why = newKey(key); !why.isEmpty()) {
            m_error = why;
            return false;
        }
    if (const QString why =
            newKey(encryptedClientKey(), QString::fromUtf8(encryptedKeyPassphrase()));
        !why.isEmpty()) {
        m_error = why;
        return false;
    }
    m_port = demo::LocalRedisServer::freePort();
    return m_port != 0 && writeConfig() && launch();
}

bool Sshd::restart(bool newHostKey)
{
    stop();
    if (newHostKey)
        if (const QString why = newKey(m_dir.filePath(QStringLiteral("host_ed25519")));
            !why.isEmpty()) {
            m_error = why;
            return false;
        }
    return launch();
}

static bool answersBanner(quint16 port)
{
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, port);
    if (!probe.waitForConnected(200) || probe.localPort() == port)
        return false;
    QByteArray got;
    while (!got.contains('\n') && probe.waitForReadyRead(500))
        got += probe.readAll();
    return got.startsWith("SSH-2.0-");
}

bool Sshd::launch()
{
    // Privilege separation needs this directory when sshd runs as root.
    if (::geteuid() == 0 && !QFile::exists(QStringLiteral("/run/sshd")))
        ::mkdir("/run/sshd", 0755);
    m_process = std::make_unique<QProcess>();
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setStandardErrorFile(m_dir.filePath(QStringLiteral("sshd.log")), QIODevice::Append);
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start(QStringLiteral("/usr/sbin/sshd"),
                     {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                      m_dir.filePath(QStringLiteral("sshd_config"))});
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("sshd could not start: %1").arg(m_process->errorString());
        return false;
    }
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        if (m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("sshd exited at start-up: %1").arg(log());
            return false;
        }
        if (answersBanner(m_port))
            return true;
        QThread::msleep(20);
    }
    m_error = QStringLiteral("sshd did not answer on port %1: %2").arg(m_port).arg(log());
    stop();
    return false;
}

void Sshd::kill()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return;
    const QList<qint64> sessions = descendantProcesses(m_process->processId());
    m_process->kill();
    for (const qint64 pid : sessions)
        ::kill(pid_t(pid), SIGKILL);
    m_process->waitForFinished(3000);
}

void Sshd::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        const QList<qint64> sessions = descendantProcesses(m_process->processId());
        m_process->terminate();
        for (const qint64 pid : sessions)
            ::kill(pid_t(pid), SIGTERM);
        if (!m_process->waitForFinished(3000))
            kill();
    }
    m_process.reset();
}

void Sshd::signalSessions(int signal)
{
    if (m_process && m_process->state() == QProcess::Running)
        for (const qint64 pid : descendantProcesses(m_process->processId()))
            ::kill(pid_t(pid), signal);
}

bool Sshd::authorize(const QString &publicKeyFile)
{
    QFile key(publicKeyFile);
    QFile authorized(m_dir.filePath(QStringLiteral("authorized_keys")));
    return key.open(QIODevice::ReadOnly) && authorized.open(QIODevice::Append)
           && authorized.write(key.readAll()) > 0;
}

bool Sshd::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

} // namespace testsupport
