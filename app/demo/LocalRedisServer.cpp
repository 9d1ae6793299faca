// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocalRedisServer.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>

namespace demo {

LocalRedisServer::LocalRedisServer() = default;

LocalRedisServer::~LocalRedisServer()
{
    stop();
}

QString LocalRedisServer::findExecutable()
{
    // The one place a server binary is chosen: the test matrix (scripts/servers) points this
    // at a Redis or Valkey build, and every fixture and the demo start that instead.
    const QString chosen = qEnvironmentVariable("INVENTORY_REDIS_SERVER");
    if (!chosen.isEmpty())
        return QFileInfo(chosen).isExecutable() ? QFileInfo(chosen).absoluteFilePath() : QString();
    QString path = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    if (path.isEmpty()) // Debian installs it in /usr/bin, but sbin-style PATHs exist
        path = QStandardPaths::findExecutable(
            QStringLiteral("redis-server"),
            {QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin")});
    return path;
}

static bool portFree(quint16 port)
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, port);
}

namespace {

core::Sentence said(const char *source)
{
    return core::Sentence::translated("demo::LocalRedisServer", source);
}
struct PortRange
{
    int low = 32768; // Linux's default ip_local_port_range
    int high = 60999;
    bool contains(int port) const { return port >= low && port <= high; }
};
PortRange ephemeralPorts()
{
    PortRange range;
    QFile file(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (file.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> f = file.readAll().simplified().split(' ');
        bool lowOk = false, highOk = false;
        const int low = f.value(0).toInt(&lowOk), high = f.value(1).toInt(&highOk);
        if (lowOk && highOk && low <= high)
            range = {low, high};
    }
    return range;
}
} // namespace

quint16 LocalRedisServer::freePort(bool withBusPort)
{
    constexpr int busOffset = 10000, lowest = 10000;
    const PortRange ephemeral = ephemeralPorts();
    const int highest = 65535 - (withBusPort ? busOffset : 0);
    for (int attempt = 0; attempt < 400; ++attempt) {
        const int port = lowest + int(QRandomGenerator::global()->bounded(highest - lowest + 1));
        if (ephemeral.contains(port) || (withBusPort && ephemeral.contains(port + busOffset)))
            continue;
        if (portFree(quint16(port)) && (!withBusPort || portFree(quint16(port + busOffset))))
            return quint16(port);
    }
    return 0;
}

bool LocalRedisServer::answers(bool plainPing) const
{
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, m_port);
    if (!probe.waitForConnected(200) || probe.localPort() == m_port) // a self-connect
        return false;
    if (!plainPing)
        return true;
    // Any RESP reply (+PONG, or -NOAUTH from a server with a password) means its event loop
    // runs; the kernel accepts connections before that, while the server may still fail.
    probe.write("PING\r\n");
    if (!probe.waitForBytesWritten(200))
        return false;
    while (probe.bytesAvailable() == 0)
        if (!probe.waitForReadyRead(200))
            return false;
    const QByteArray first = probe.peek(1);
    return first == "+" || first == "-";
}

bool LocalRedisServer::start(const Options &options)
{
    stop();
    m_error = {};
    const QString exe = findExecutable();
    if (exe.isEmpty()) {
        m_error = qEnvironmentVariableIsEmpty("INVENTORY_REDIS_SERVER")
                      ? said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                               "redis-server was not found on PATH. Install it "
                                               "with 'sudo apt-get install redis-server' (or run "
                                               "scripts/deps)."))
                      : said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                               "INVENTORY_REDIS_SERVER=%1 is not an executable "
                                               "file (scripts/servers prints the built ones)"))
                            .arg(qEnvironmentVariable("INVENTORY_REDIS_SERVER"));
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath()
                                            + QStringLiteral("/inventory-redis-XXXXXX"));
    if (!m_dir->isValid()) {
        m_error = said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                         "could not create a temporary directory: %1"))
                      .arg(m_dir->errorString());
        return false;
    }
    // Cluster mode binds port + 10000 as well, whoever asked for it: a port above 55535 has
    // no bus port, and such a node never answers.
    const bool busPort =
        options.needsBusPort || options.extraArgs.contains(QStringLiteral("--cluster-enabled"));
    m_port = options.port ? options.port : freePort(busPort);
    if (m_port == 0) {
        m_error =
            said(QT_TRANSLATE_NOOP("demo::LocalRedisServer", "no free loopback port was found"));
        return false;
    }
    QStringList args{QStringLiteral("--port"),       QString::number(m_port),
                     QStringLiteral("--bind"),       QStringLiteral("127.0.0.1"),
                     QStringLiteral("--dir"),        m_dir->path(),
                     QStringLiteral("--save"),       QString(),
                     QStringLiteral("--appendonly"), QStringLiteral("no"),
                     QStringLiteral("--daemonize"),  QStringLiteral("no"),
                     QStringLiteral("--logfile"),    m_dir->filePath(QStringLiteral("redis.log")),
                     QStringLiteral("--pidfile"),    m_dir->filePath(QStringLiteral("redis.pid"))};
    args += options.extraArgs;
    if (!options.configText.isEmpty()) {
        QFile conf(m_dir->filePath(QStringLiteral("redis.conf")));
        if (!conf.open(QIODevice::WriteOnly) || conf.write(options.configText) < 0) {
            m_error = said(QT_TRANSLATE_NOOP("demo::LocalRedisServer", "could not write %1: %2"))
                          .arg(conf.fileName(), conf.errorString());
            return false;
        }
        args.prepend(conf.fileName());
    }

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start(exe, args);
    if (!m_process->waitForStarted(options.startTimeoutMs)) {
        m_error = said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                         "redis-server could not be started: %1"))
                      .arg(m_process->errorString());
        return false;
    }
    const QDeadlineTimer deadline(options.startTimeoutMs);
    while (!deadline.hasExpired()) {
        if (m_process->state() != QProcess::Running) {
            m_error = said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                             "redis-server exited at start-up: %1"))
                          .arg(logTail(5));
            return false;
        }
        if (answers(options.answersPlainPing))
            return true;
        QThread::msleep(20);
    }
    m_error = said(QT_TRANSLATE_NOOP("demo::LocalRedisServer",
                                     "redis-server did not answer on port %1 within %2 ms"))
                  .arg(m_port, options.startTimeoutMs);
    stop();
    return false;
}

void LocalRedisServer::stop()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(3000)) {
            m_process->kill();
            m_process->waitForFinished(3000);
        }
    }
    m_process.reset();
}

void LocalRedisServer::kill()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(3000);
    }
}

bool LocalRedisServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QString LocalRedisServer::directory() const
{
    return m_dir ? m_dir->path() : QString();
}

qint64 LocalRedisServer::pid() const
{
    return m_process ? m_process->processId() : 0;
}

QString LocalRedisServer::logTail(int lines) const
{
    if (!m_dir)
        return {};
    QFile log(m_dir->filePath(QStringLiteral("redis.log")));
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> all = log.readAll().split('\n');
    return QString::fromUtf8(all.mid(qMax(0, int(all.size()) - lines - 1)).join('\n'));
}

} // namespace demo
