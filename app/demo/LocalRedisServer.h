// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

namespace demo {

// A private redis-server child: loopback only, a fresh temp dir, no persistence, and it dies
// with its parent (PR_SET_PDEATHSIG) so a killed console or test never leaves one behind.
// Used by the embedded demo and by the test fixture.
class LocalRedisServer
{
public:
    struct Options
    {
        quint16 port = 0;      // 0: pick a free loopback port
        QStringList extraArgs; // appended to the command line (e.g. cluster or TLS settings)
        // Cluster mode also binds port + 10000 (implied by --cluster-enabled in extraArgs).
        bool needsBusPort = false;
        int startTimeoutMs = 10000;
        // Ready means it answered a plain PING; a TLS-only server cannot, so for it ready
        // means its port accepted a connection from another port.
        bool answersPlainPing = true;
        // Written to redis.conf in the server's directory and passed first, when not empty:
        // a sentinel (--sentinel in extraArgs) needs a config file it can rewrite.
        QByteArray configText;
    };

    LocalRedisServer();
    ~LocalRedisServer();
    LocalRedisServer(const LocalRedisServer &) = delete;
    LocalRedisServer &operator=(const LocalRedisServer &) = delete;

    // Path of the server binary: $INVENTORY_REDIS_SERVER when set (a redis-server or
    // valkey-server build; empty if that is not executable), else redis-server on PATH, or empty.
    static QString findExecutable();
    // A port free on 127.0.0.1 (and, if asked, its cluster bus port too), outside the
    // kernel's ephemeral range: there a client's source port can take it before the server
    // binds, and a connect to it can meet itself (a TCP self-connect) and look like a server.
    static quint16 freePort(bool withBusPort = false);

    // Starts and waits until the server answers (see Options::answersPlainPing). On failure returns
    // false and error() says what to do.
    bool start(const Options &options);
    void stop(); // SIGTERM, then SIGKILL after a grace period
    void kill(); // SIGKILL at once (tests of a dying server)
    bool isRunning() const;
    quint16 port() const { return m_port; }
    QString directory() const;
    qint64 pid() const;
    const core::Sentence &error() const { return m_error; }
    QString logTail(int lines = 20) const;

private:
    bool answers(bool plainPing) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    core::Sentence m_error;
};

} // namespace demo
