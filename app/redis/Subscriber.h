// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionOptions.h"
#include "RespCodec.h"

#include <QByteArrayList>
#include <QObject>

class QTcpSocket;
class QTimer;

namespace redis {

// A RESP2 publish/subscribe connection: SUBSCRIBE to some channels and hear their messages,
// again after every reconnect. Kept apart from RedisClient on purpose: a RedisClient matches
// every reply to a command in flight and drops a stream that sends one unasked (a protocol
// error), and a subscribed RESP2 connection may send nothing but (UN)SUBSCRIBE and PING;
// mixing both in ConnectionWorker would loosen that check on every connection of the console.
// The socket lives on the thread that creates this object (its event loop must run), and
// nothing is ever sent on it but AUTH and SUBSCRIBE, so nothing is ever resent by mistake.
class Subscriber : public QObject
{
    Q_OBJECT
public:
    Subscriber(ConnectionOptions options, QByteArrayList channels, QObject *parent = nullptr);
    ~Subscriber() override;

    void open();
    void close();
    bool isSubscribed() const { return m_confirmed == m_channels.size() && m_socket; }
    QString address() const { return m_options.address(); }

signals:
    // Every channel is confirmed, after each connect.
    void subscribed();
    void message(const QByteArray &channel, const QByteArray &payload);
    // The connection failed or was lost. `retrying`: it reconnects by itself (with backoff);
    // false when retrying cannot help (the server refused the password or the subscription).
    void lost(const QString &why, bool retrying);

private:
    void connectNow();
    void onConnected();
    void onReadyRead();
    void take(const Reply &reply);
    void drop(const QString &why, bool terminal);
    void releaseSocket();

    ConnectionOptions m_options;
    QByteArrayList m_channels;
    QTcpSocket *m_socket = nullptr;
    QTimer *m_retry = nullptr;
    QTimer *m_connectTimeout = nullptr;
    RespDecoder m_decoder;
    bool m_awaitingAuth = false;
    qsizetype m_confirmed = 0;
    int m_attempt = 0;
    bool m_closing = true;
};

} // namespace redis
