// SPDX-License-Identifier: GPL-3.0-or-later
#include "Subscriber.h"

#include "Log.h"
#include "TlsConfiguration.h"

#include <QSslSocket>
#include <QTimer>

namespace redis {

Subscriber::Subscriber(ConnectionOptions options, QByteArrayList channels, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_channels(std::move(channels))
{
    const auto oneShot = [this](auto onTimeout) {
        auto *timer = new QTimer(this);
        timer->setSingleShot(true);
        connect(timer, &QTimer::timeout, this, onTimeout);
        return timer;
    };
    m_retry = oneShot([this] { connectNow(); });
    m_connectTimeout = oneShot([this] {
        drop(QStringLiteral("no answer from %1 within %2 ms")
                 .arg(address())
                 .arg(m_options.connectTimeoutMs),
             false);
    });
}

Subscriber::~Subscriber()
{
    m_closing = true;
    if (m_socket)
        m_socket->abort();
}

void Subscriber::open()
{
    m_closing = false;
    m_attempt = 0;
    connectNow();
}

void Subscriber::close()
{
    m_closing = true;
    m_retry->stop();
    releaseSocket();
}

void Subscriber::releaseSocket()
{
    m_connectTimeout->stop();
    m_confirmed = 0;
    if (!m_socket)
        return;
    m_socket->disconnect(this);
    m_socket->abort();
    m_socket->deleteLater();
    m_socket = nullptr;
}

void Subscriber::connectNow()
{
    if (m_closing)
        return;
    m_decoder.reset();
    m_confirmed = 0;
    // Through a tunnel, as every connection of a session: asked at each attempt, since a
    // tunnel started again may forward elsewhere. Never host:port directly instead.
    const Detour detour =
        m_options.route ? m_options.route(m_options.host, m_options.port) : Detour{};
    if (!detour.failure.isEmpty()) {
        drop(QStringLiteral("%1: %2").arg(address(), detour.failure), false);
        return;
    }
    const QString socketHost = detour.localHost.isEmpty() ? m_options.host : detour.localHost;
    const quint16 socketPort = detour.localHost.isEmpty() ? m_options.port : detour.localPort;
    QSslSocket *ssl = m_options.tls.enabled ? new QSslSocket(this) : nullptr;
    m_socket = ssl ? ssl : new QTcpSocket(this);
    connect(m_socket, &QTcpSocket::readyRead, this, &Subscriber::onReadyRead);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        drop(QStringLiteral("%1: %2").arg(address(), m_socket->errorString()), false);
    });
    m_connectTimeout->start(m_options.connectTimeoutMs);
    if (!ssl) {
        connect(m_socket, &QTcpSocket::connected, this, &Subscriber::onConnected);
        m_socket->connectToHost(socketHost, socketPort);
        return;
    }
    const auto conf = tlsConfiguration(m_options.tls);
    if (!conf.ok()) {
        drop(conf.error(), true);
        return;
    }
    ssl->setSslConfiguration(conf.value());
    connect(ssl, &QSslSocket::encrypted, this, &Subscriber::onConnected);
    ssl->connectToHostEncrypted(socketHost, socketPort,
                                m_options.tls.serverName.isEmpty() ? m_options.host
                                                                   : m_options.tls.serverName);
}

void Subscriber::onConnected()
{
    m_socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
    QByteArray out;
    m_awaitingAuth = !m_options.password.isEmpty() || !m_options.username.isEmpty();
    if (m_awaitingAuth) {
        Command auth{"AUTH"};
        if (!m_options.username.isEmpty())
            auth << m_options.username.toUtf8();
        auth << m_options.password.toUtf8();
        appendEncodedCommand(out, auth);
    }
    appendEncodedCommand(out, Command{"SUBSCRIBE"} + m_channels);
    m_socket->write(out);
}

void Subscriber::onReadyRead()
{
    m_decoder.feed(m_socket->readAll());
    Reply reply;
    auto status = RespDecoder::Status::NeedMore;
    while ((status = m_decoder.next(&reply)) == RespDecoder::Status::Complete) {
        take(reply);
        if (!m_socket)
            return; // dropped: the rest of the stream is not read
    }
    if (status == RespDecoder::Status::Failed)
        drop(QStringLiteral("protocol error from %1: %2").arg(address(), m_decoder.errorString()),
             false);
}

void Subscriber::take(const Reply &reply)
{
    if (m_awaitingAuth) {
        m_awaitingAuth = false;
        if (reply.isError()) {
            // The code only ("WRONGPASS"): never the password, which the server does not echo
            // anyway.
            drop(QStringLiteral("authentication failed on %1 (%2)")
                     .arg(address(), QString::fromUtf8(RedisError::fromServer(reply.bytes()).code)),
                 true);
        }
        return;
    }
    if (reply.isError()) {
        drop(QStringLiteral("%1 refused the subscription: %2")
                 .arg(address(), QString::fromUtf8(reply.bytes().left(200))),
             true);
        return;
    }
    const QByteArray kind = reply.at(0).bytes();
    if (reply.isArray() && reply.size() == 3 && kind == "subscribe") {
        if (++m_confirmed == m_channels.size()) {
            m_connectTimeout->stop();
            m_attempt = 0;
            emit subscribed();
        }
        return;
    }
    if (reply.isArray() && reply.size() == 3 && kind == "message") {
        emit message(reply.at(1).bytes(), reply.at(2).bytes());
        return;
    }
    drop(QStringLiteral("protocol error: %1 sent %2 on a subscribed connection")
             .arg(address(), reply.debugString(80)),
         false);
}

void Subscriber::drop(const QString &why, bool terminal)
{
    releaseSocket();
    if (m_closing)
        return;
    const bool retrying = !terminal && m_options.autoReconnect;
    if (retrying) {
        const int delay =
            std::min(m_options.reconnectMaxMs, m_options.reconnectMinMs << std::min(m_attempt, 16));
        ++m_attempt;
        m_retry->start(delay);
    }
    qCInfo(lcRedis) << "subscription to" << address() << "lost:" << why;
    emit lost(why, retrying);
}

} // namespace redis
