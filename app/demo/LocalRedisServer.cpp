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

quint16 LocalRedisServer::freePort(bool withBusPort)
{
    for (int attempt = 0; attempt < 200; ++attempt) {
        // Below 55535 so that port + 10000 (the cluster bus) stays valid.
        const auto port = quint16(20000 + QRandomGenerator::global()->bounded(35000));
        if (portFree(port) && (!withBusPort || portFree(quint16(port + 10000))))
            return port;
    }
    return 0;
}

bool LocalRedisServer::start(const Options &options)
{
    stop();
    m_error.clear();
    const QString exe = findExecutable();
    if (exe.isEmpty()) {
        m_error = qEnvironmentVariableIsEmpty("INVENTORY_REDIS_SERVER")
                      ? QStringLiteral("redis-server was not found on PATH. Install it with "
                                       "'sudo apt-get install redis-server' (or run scripts/deps).")
                      : QStringLiteral("INVENTORY_REDIS_SERVER=%1 is not an executable file "
                                       "(scripts/servers prints the built ones)")
                            .arg(qEnvironmentVariable("INVENTORY_REDIS_SERVER"));
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath()
                                            + QStringLiteral("/inventory-redis-XXXXXX"));
    if (!m_dir->isValid()) {
        m_error =
            QStringLiteral("could not create a temporary directory: %1").arg(m_dir->errorString());
        return false;
    }
    m_port = options.port ? options.port : freePort(options.needsBusPort);
    if (m_port == 0) {
        m_error = QStringLiteral("no free loopback port was found");
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

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start(exe, args);
    if (!m_process->waitForStarted(options.startTimeoutMs)) {
        m_error =
            QStringLiteral("redis-server could not be started: %1").arg(m_process->errorString());
        return false;
    }
    const QDeadlineTimer deadline(options.startTimeoutMs);
    while (!deadline.hasExpired()) {
        if (m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("redis-server exited at start-up: %1").arg(logTail(5));
            return false;
        }
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, m_port);
        if (probe.waitForConnected(200))
            return true;
        QThread::msleep(20);
    }
    m_error = QStringLiteral("redis-server did not accept connections on port %1 within %2 ms")
                  .arg(m_port)
                  .arg(options.startTimeoutMs);
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
