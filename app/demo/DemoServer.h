// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LocalRedisServer.h"
#include "redis/ConnectionOptions.h"

#include <QString>
#include <QStringList>

namespace demo {

// The embedded demo's redis-server: a LocalRedisServer (loopback, temp dir, no persistence,
// killed with its parent by PDEATHSIG) plus a state file, so that if the console is killed
// before it can clean up, the next start still removes the server and its directory.
//
// Start it from the main thread: PDEATHSIG fires when the *thread* that forked the child
// exits, not the process.
class DemoServer
{
public:
    struct Options
    {
        QString stateDir; // empty: defaultStateDir()
        // Receipts have TTLs, so volatile-lru may evict them: the overview warns about it.
        QStringList serverArgs{QStringLiteral("--maxmemory"), QStringLiteral("256mb"),
                               QStringLiteral("--maxmemory-policy"),
                               QStringLiteral("volatile-lru")};
    };

    DemoServer() = default;
    ~DemoServer();
    DemoServer(const DemoServer &) = delete;
    DemoServer &operator=(const DemoServer &) = delete;

    // Removes stale demos first, then starts. On failure error() says what to do
    // (including how to install redis-server when it is missing).
    bool start(const Options &options);
    bool start() { return start(Options{}); }
    void stop();

    bool isRunning() const { return m_server.isRunning(); }
    qint64 pid() const { return m_server.pid(); }
    quint16 port() const { return m_server.port(); }
    QString directory() const { return m_server.directory(); }
    // Where the demo's SQLite order ledger goes (demo::plantDemoLedger): beside the server's
    // files, so that it is removed with them.
    QString ledgerPath() const { return m_server.directory() + QStringLiteral("/ledger.db"); }
    QString stateFile() const { return m_stateFile; }
    const core::Sentence &error() const { return m_error; }
    redis::ConnectionOptions connectionOptions() const;

    // Where state files live: QStandardPaths::RuntimeLocation/inventory-console, or a
    // per-user directory under the temp path.
    static QString defaultStateDir();
    // Kills demo servers whose console is gone (the owner pid is dead or reused) and whose
    // /proc/<pid>/cmdline still names redis-server on the recorded port, then removes their
    // directories and state files. Returns how many state files were cleaned up.
    static int removeStale(const QString &stateDir);

private:
    void writeState(const QString &stateDir);

    LocalRedisServer m_server;
    QString m_stateFile;
    core::Sentence m_error;
};

} // namespace demo
