#include "TcpRelay.h"

#include <QHostAddress>
#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace testsupport {

namespace {

// Joins two sockets: what one reads, the other writes; when one closes, so does the other.
void pipe(QTcpSocket *from, QTcpSocket *to)
{
    QObject::connect(from, &QTcpSocket::readyRead, to, [from, to] { to->write(from->readAll()); });
    QObject::connect(from, &QTcpSocket::disconnected, to, [to] { to->disconnectFromHost(); });
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

QString TcpRelay::start(quint16 targetPort)
{
    m_thread = std::make_unique<QThread>();
    QSemaphore ready;
    QString error;
    // The server and every socket live on the relay's thread, deleted with its event loop.
    QObject::connect(m_thread.get(), &QThread::started, [&, targetPort] {
        auto *server = new QTcpServer;
        QObject::connect(m_thread.get(), &QThread::finished, server, &QObject::deleteLater);
        if (!server->listen(QHostAddress::LocalHost, 0)) {
            error = server->errorString();
            ready.release();
            return;
        }
        m_port = server->serverPort();
        QObject::connect(server, &QTcpServer::newConnection, server, [server, targetPort] {
            while (QTcpSocket *client = server->nextPendingConnection()) {
                auto *upstream = new QTcpSocket(client);
                pipe(client, upstream);
                pipe(upstream, client);
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
