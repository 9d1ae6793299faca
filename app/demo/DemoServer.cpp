// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoServer.h"

#include "DemoLog.h"
#include "core/DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <csignal>
#include <unistd.h>

namespace demo {

namespace {

QByteArray readProc(qint64 pid, const char *entry)
{
    QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(entry)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Field 22 of /proc/<pid>/stat: the start time in clock ticks since boot. Together with the
// pid it names one process, even after the pid is reused.
QByteArray startTime(qint64 pid)
{
    const QByteArray stat = readProc(pid, "stat");
    const qsizetype close = stat.lastIndexOf(')'); // the command name may contain spaces
    if (close < 0)
        return {};
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    return fields.size() > 19 ? fields.at(19) : QByteArray(); // field 3 is fields[0]
}

// redis-server retitles itself "<argv[0]> 127.0.0.1:<port>", argv[0] being the path it was
// started with (LocalRedisServer uses the absolute one); valkey-server does the same, and the
// demo runs it when INVENTORY_REDIS_SERVER names one.
bool isOurRedis(qint64 pid, int port)
{
    const QList<QByteArray> words = readProc(pid, "cmdline").replace('\0', ' ').split(' ');
    const QString program = QFileInfo(QString::fromLocal8Bit(words.value(0))).fileName();
    return words.size() >= 2
           && (program == QLatin1String("redis-server")
               || program == QLatin1String("valkey-server"))
           && words[1].endsWith(":" + QByteArray::number(port));
}

bool isDemoDirectory(const QString &dir)
{
    const QFileInfo info(dir);
    return info.isDir() && info.fileName().startsWith(QLatin1String("inventory-redis-"))
           && QDir(info.absolutePath()) == QDir(QDir::tempPath());
}

} // namespace

DemoServer::~DemoServer()
{
    stop();
}

QString DemoServer::defaultStateDir()
{
    const QString runtime = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (!runtime.isEmpty())
        return runtime + QStringLiteral("/inventory-console");
    return QDir::tempPath() + QStringLiteral("/inventory-console-%1").arg(::getuid());
}

int DemoServer::removeStale(const QString &stateDir)
{
    int cleaned = 0;
    const QDir dir(stateDir);
    const auto files = dir.entryList({QStringLiteral("demo-*.json")}, QDir::Files);
    for (const QString &name : files) {
        const QString path = dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject state = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        const qint64 owner = state.value(QLatin1String("owner_pid")).toInteger();
        const QByteArray ownerStart =
            state.value(QLatin1String("owner_start")).toString().toLatin1();
        if (owner > 0 && !ownerStart.isEmpty() && startTime(owner) == ownerStart)
            continue; // its console is still running
        const qint64 pid = state.value(QLatin1String("redis_pid")).toInteger();
        const int port = state.value(QLatin1String("port")).toInt();
        if (pid > 0 && isOurRedis(pid, port)) {
            qCInfo(lcDemo) << "killing the stale demo redis-server" << pid << "on port" << port;
            ::kill(pid_t(pid), SIGKILL);
        }
        const QString redisDir = state.value(QLatin1String("dir")).toString();
        if (isDemoDirectory(redisDir))
            QDir(redisDir).removeRecursively();
        QFile::remove(path);
        ++cleaned;
    }
    return cleaned;
}

bool DemoServer::start(const Options &options)
{
    stop();
    m_error = {};
    const QString stateDir = options.stateDir.isEmpty() ? defaultStateDir() : options.stateDir;
    if (const int n = removeStale(stateDir))
        qCInfo(lcDemo) << "cleaned up" << n << "demo server(s) left behind by a killed console";

    LocalRedisServer::Options o;
    o.extraArgs = options.serverArgs;
    if (!m_server.start(o)) {
        m_error = m_server.error();
        qCWarning(lcDemo) << "the demo server did not start:" << m_error.english;
        return false;
    }
    writeState(stateDir);
    qCInfo(lcDemo) << "demo redis-server" << m_server.pid() << "on port" << m_server.port() << "in"
                   << m_server.directory();
    return true;
}

void DemoServer::writeState(const QString &stateDir)
{
    if (!QDir().mkpath(stateDir)) {
        qCWarning(lcDemo) << "cannot create" << stateDir << "; no state file written";
        return;
    }
    const qint64 self = QCoreApplication::applicationPid();
    const QJsonObject state{
        {QStringLiteral("owner_pid"), self},
        {QStringLiteral("owner_start"), QString::fromLatin1(startTime(self))},
        {QStringLiteral("redis_pid"), m_server.pid()},
        {QStringLiteral("port"), int(m_server.port())},
        {QStringLiteral("dir"), m_server.directory()},
    };
    const QString path =
        QDir(stateDir).filePath(QStringLiteral("demo-%1-%2.json").arg(self).arg(m_server.port()));
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && core::makeOpenFilePrivate(f)
        && f.write(QJsonDocument(state).toJson()) > 0 && f.commit())
        m_stateFile = path;
    else
        qCWarning(lcDemo) << "cannot write" << path << ":" << f.errorString();
}

void DemoServer::stop()
{
    if (m_server.isRunning())
        qCInfo(lcDemo) << "stopping the demo redis-server" << m_server.pid();
    m_server.stop();
    if (!m_stateFile.isEmpty()) {
        QFile::remove(m_stateFile);
        m_stateFile.clear();
    }
}

redis::ConnectionOptions DemoServer::connectionOptions() const
{
    redis::ConnectionOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = m_server.port();
    o.connectTimeoutMs = 3000;
    o.clientName = "inventory-console-demo";
    return o;
}

} // namespace demo
