// SPDX-License-Identifier: GPL-3.0-or-later
#include "TcpRelay.h"

#include <QHostAddress>
#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <memory>

namespace testsupport {

namespace {

// Joins two sockets: what one reads, the other writes; when one closes, so does the other.
void pipe(QTcpSocket *from, QTcpSocket *to)
{
    QObject::connect(from, &QTcpSocket::readyRead, to, [from, to] { to->write(from->readAll()); });
    QObject::connect(from, &QTcpSocket::disconnected, to, [to] { to->disconnectFromHost(); });
}

// As pipe(), both ways, except that once the client has sent `marker` the server's bytes are
// dropped. The client's last bytes are kept to find a marker split between two reads.
void pipeLosingReplies(QTcpSocket *client, QTcpSocket *upstream, const QByteArray &marker)
{
    auto seen = std::make_shared<QByteArray>();
    auto lost = std::make_shared<bool>(false);
    QObject::connect(client, &QTcpSocket::readyRead, upstream, [=] {
        const QByteArray bytes = client->readAll();
        *seen = seen->right(marker.size()) + bytes;
        if (seen->contains(marker))
            *lost = true;
        upstream->write(bytes);
    });
    QObject::connect(upstream, &QTcpSocket::readyRead, client, [=] {
        const QByteArray bytes = upstream->readAll();
        if (!*lost)
            client->write(bytes);
    });
    QObject::connect(client, &QTcpSocket::disconnected, upstream,
                     [upstream] { upstream->disconnectFromHost(); });
    QObject::connect(upstream, &QTcpSocket::disconnected, client,
                     [client] { client->disconnectFromHost(); });
}

} // namespace

TcpRelay::TcpRelay() = default;

TcpRelay::~TcpRelay()
{
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
    }
}

QString TcpRelay::start(quint16 targetPort, const QByteArray &loseRepliesAfter)
{
    m_thread = std::make_unique<QThread>();
    QSemaphore ready;
    QString error;
    // The server and every socket live on the relay's thread, deleted with its event loop.
    QObject::connect(m_thread.get(), &QThread::started, [&, targetPort, loseRepliesAfter] {
        auto *server = new QTcpServer;
        QObject::connect(m_thread.get(), &QThread::finished, server, &QObject::deleteLater);
        if (!server->listen(QHostAddress::LocalHost, 0)) {
            error = server->errorString();
            ready.release();
            return;
        }
        m_port = server->serverPort();
        QObject::connect(server, &QTcpServer::newConnection, server, [=] {
            while (QTcpSocket *client = server->nextPendingConnection()) {
                auto *upstream = new QTcpSocket(client);
                if (loseRepliesAfter.isEmpty()) {
                    pipe(client, upstream);
                    pipe(upstream, client);
                } else {
                    pipeLosingReplies(client, upstream, loseRepliesAfter);
                }
                QObject::connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
                upstream->connectToHost(QHostAddress::LocalHost, targetPort);
            }
        });
        ready.release();
    });
    m_thread->start();
    ready.acquire();
    return error;
}

} // namespace testsupport
