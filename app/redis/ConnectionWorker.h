// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CommandSender.h"
#include "ConnectionOptions.h"
#include "QuickReplyWait.h"
#include "RespCodec.h"

#include "core/Wording.h"

#include <QAbstractSocket>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <deque>
#include <functional>
#include <memory>

class QTcpSocket;
class QTimer;

namespace redis {

// A group of commands written together and answered together (one round trip).
struct Batch
{
    QList<Command> commands;
    QByteArray encoded; // the commands in RESP, until written
    // Replies arrive in command order, so results grow by appending; a batch that ends early
    // gets its remaining entries from finish().
    QList<ReplyResult> results;
    qsizetype repliesRead = 0; // replies taken off the wire, also after an early end
    int timeoutMs = 5000;
    qint64 deadlineMs = 0;     // on the worker's monotonic clock, set on submit
    qint64 writtenMs = 0;      // when it went to the socket
    qint64 writtenNs = 0;      // the same, to the nanosecond, for the time on the wire
    core::Sentence timeoutWhy; // what a timeout says; a generic sentence when empty
    bool delivered = false;
    // Runs on the worker thread once every command has a result, with the time on the wire
    // when every reply was read.
    std::function<void(QList<ReplyResult> &&, WireTimeUs)> deliver;

    // Fills `encoded`. Done by the sender, so that the shared transport thread only writes.
    void encode();
    // Every command still without a result gets `unanswered`, and the batch is delivered.
    void finish(const RedisError &unanswered);
    RedisError timeoutError() const;
};

// Owns the socket and runs on the connection's thread. Only RedisClient talks to it, through
// queued calls; see RedisClient for the public contract.
class ConnectionWorker : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionWorker(ConnectionOptions options);
    ~ConnectionWorker() override;

    void open();
    void close();
    // RedisClient::retarget: `options` aimed at the new server.
    void retarget(const ConnectionOptions &options, const QString &why);
    void submit(std::shared_ptr<Batch> batch);

signals:
    void stateChanged(redis::ConnectionState state, const core::Sentence &detail,
                      redis::ConnectFailure failure);

private:
    void connectNow();
    void onConnected();
    void onReadyRead();
    void onSocketError(QAbstractSocket::SocketError error);
    void explainFailedLookup();
    void onDisconnected();
    void onTick();
    void closeIfSilent(qint64 t);
    void enableKeepAlive();
    void startHandshake();
    void write(const std::shared_ptr<Batch> &batch);
    bool onlyRoundTripOnThisThread() const;
    void take(ReplyResult result);
    void failAll(RedisError::Kind writtenKind, const core::Sentence &why);
    void dropConnection(const core::Sentence &why, ConnectFailure failure, bool terminal = false);
    void setState(ConnectionState s, const core::Sentence &detail);
    // Where the socket goes: the detour's local forward when there is one, else host:port.
    QString socketHost() const
    {
        return m_options.detour.localHost.isEmpty() ? m_options.host : m_options.detour.localHost;
    }
    quint16 socketPort() const
    {
        return m_options.detour.localHost.isEmpty() ? m_options.port : m_options.detour.localPort;
    }
    core::Sentence setupFailure(qsizetype i, const RedisError &e, bool withAuth,
                                const core::Sentence &setupTimeout, ConnectFailure *failure) const;
    core::Sentence describeSocketError(QAbstractSocket::SocketError error,
                                       ConnectFailure *failure) const;
    qint64 now() const { return m_clock.elapsed(); }

    ConnectionOptions m_options;
    QTcpSocket *m_socket = nullptr; // a QSslSocket with TLS
    QTimer *m_tick = nullptr;
    QTimer *m_reconnect = nullptr;
    QTimer *m_connectTimeout = nullptr;
    RespDecoder m_decoder;
    QuickReplyWait m_quickReply;
    std::deque<std::shared_ptr<Batch>> m_inFlight; // written, waiting for replies, in order
    std::deque<std::shared_ptr<Batch>> m_waiting;  // queued while the first connect runs
    ConnectionState m_state = ConnectionState::Idle;
    core::Sentence m_lastError;
    bool m_tlsVerificationFailed = false; // this attempt's sslErrors said why, better than Qt
    quint64 m_lookupGeneration = 0;       // drops a lookup that outlived its connect attempt
    ConnectFailure m_failure = ConnectFailure::None;
    bool m_everReady = false;
    // Connecting to the server retarget() named: commands wait for it, as for a first
    // connection, instead of being refused as during a reconnect's backoff.
    bool m_connectingAfresh = false;
    bool m_closing = false;
    int m_attempt = 0;
    QElapsedTimer m_clock;
    qint64 m_lastReadMs = 0;
    qint64 m_lastReadNs = 0; // when the bytes being decoded were read, on m_clock
};

} // namespace redis
