// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A loopback TCP relay: it listens on 127.0.0.1 and forwards every connection, both ways, to
// a server the test started. It stands for `ssh -L`, `kubectl port-forward` or a container's
// port map: the address is loopback and the server answers, but the process that owns the
// listening socket is not the server's. It runs on a thread of its own, so that it keeps
// relaying while the test blocks (waiting for inventory-cli, say).
#include <QString>
#include <QtGlobal>

#include <memory>

class QThread;

namespace testsupport {

class TcpRelay
{
public:
    TcpRelay();
    ~TcpRelay();
    TcpRelay(const TcpRelay &) = delete;
    TcpRelay &operator=(const TcpRelay &) = delete;

    // Listens on a free loopback port and relays to 127.0.0.1:targetPort. Empty on success,
    // else why not. With `loseRepliesAfter`, a connection whose client has sent those bytes
    // gets nothing more from the server: the command still runs, its reply is lost on the way
    // back (what a dropped network path does), and the client times out. Other connections
    // relay as usual.
    QString start(quint16 targetPort, const QByteArray &loseRepliesAfter = {});
    quint16 port() const { return m_port; }

private:
    std::unique_ptr<QThread> m_thread;
    quint16 m_port = 0;
};

} // namespace testsupport
