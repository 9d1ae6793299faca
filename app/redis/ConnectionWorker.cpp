// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionWorker.h"

#include "Log.h"
#include "TlsConfiguration.h"

#include <QHostInfo>
#include <QRandomGenerator>
#include <QSslSocket>
#include <QTimer>
#include <algorithm>
#include <vector>

#ifdef Q_OS_LINUX
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#endif

namespace redis {

namespace {
constexpr int TickMs = 20;

// Workers whose socket is read on this thread (ConnectionOptions::onCallerThread): a worker
// waiting for its reply would hold up the others' replies.
thread_local std::vector<const ConnectionWorker *> t_workersOnThisThread;

QString sslErrorsText(const QList<QSslError> &errors)
{
    QStringList parts;
    for (const QSslError &e : errors)
        parts << e.errorString();
    parts.removeDuplicates();
    return parts.join(QStringLiteral("; "));
}

// Why a connection failed, in both copies: the window shows it (the connection test, the
// status bar), the CLI and the log keep the English. The address and the words of Qt, the
// resolver and OpenSSL go in as they are.
core::Sentence workerSays(const char *source)
{
    return core::Sentence::translated("redis::ConnectionWorker", source);
}
} // namespace

void Batch::finish(const RedisError &unanswered)
{
    if (delivered)
        return;
    results.reserve(commands.size());
    while (results.size() < commands.size())
        results.append(unanswered);
    delivered = true;
    deliver(std::move(results), std::nullopt);
}

void Batch::encode()
{
    qsizetype bound = 0;
    for (const Command &c : commands)
        bound += encodedSizeBound(c);
    encoded.reserve(bound);
    for (const Command &c : commands)
        appendEncodedCommand(encoded, c);
}

RedisError Batch::timeoutError() const
{
    return RedisError::unanswered(RedisError::Kind::Timeout,
                                  timeoutWhy.isEmpty() ? workerSays(QT_TRANSLATE_NOOP(
                                      "redis::ConnectionWorker", "no reply within the timeout"))
                                                       : timeoutWhy);
}

ConnectionWorker::ConnectionWorker(ConnectionOptions options)
    : m_options(std::move(options))
    , m_quickReply(m_options.quickReplyWaitUs)
{
    m_clock.start();
    if (m_options.onCallerThread)
        t_workersOnThisThread.push_back(this);
}

ConnectionWorker::~ConnectionWorker()
{
    std::erase(t_workersOnThisThread, this);
    m_closing = true;
    failAll(RedisError::Kind::ConnectionLost,
            workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "the connection was closed")));
}

void ConnectionWorker::open()
{
    if (!m_tick) {
        m_tick = new QTimer(this);
        m_tick->setInterval(TickMs);
        connect(m_tick, &QTimer::timeout, this, &ConnectionWorker::onTick);
        m_reconnect = new QTimer(this);
        m_reconnect->setSingleShot(true);
        connect(m_reconnect, &QTimer::timeout, this, &ConnectionWorker::connectNow);
        m_connectTimeout = new QTimer(this);
        m_connectTimeout->setSingleShot(true);
        connect(m_connectTimeout, &QTimer::timeout, this, [this] {
            if (m_state == ConnectionState::Connecting)
                dropConnection(
                    workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                                 "no answer from %1 within %2 ms: check the host, "
                                                 "the port and any firewall in between"))
                        .arg(m_options.describe(), m_options.connectTimeoutMs),
                    ConnectFailure::Timeout);
        });
    }
    m_closing = false;
    connectNow();
}

void ConnectionWorker::close()
{
    m_closing = true;
    if (m_reconnect)
        m_reconnect->stop();
    dropConnection(workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                                "the connection was closed by the console")),
                   ConnectFailure::None);
}

void ConnectionWorker::retarget(const ConnectionOptions &options, const QString &why)
{
    const bool opened = m_tick && !m_closing;
    const bool connected = m_state != ConnectionState::Idle && m_state != ConnectionState::Closed
                           && m_state != ConnectionState::Failed;
    if (opened && connected)
        dropConnection(workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                                    "the connection to %1 was closed: %2"))
                           .arg(m_options.describe(), core::Sentence::plain(why)),
                       ConnectFailure::ConnectionLost);
    m_options = options;
    m_attempt = 0;
    if (opened) {
        m_connectingAfresh = true;
        connectNow();
    }
}

void ConnectionWorker::connectNow()
{
    if (m_closing)
        return;
    // Asked to connect now (open() on a connection waiting out its backoff): the pending retry
    // must not fire later and tear down the connection this makes.
    if (m_reconnect)
        m_reconnect->stop();
    if (!m_options.detour.failure.isEmpty()) {
        dropConnection(core::Sentence::plain(m_options.detour.failure), ConnectFailure::Other,
                       true);
        return;
    }
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
    }
    m_decoder.reset();
    m_tlsVerificationFailed = false;
    ++m_lookupGeneration;
    const TlsOptions &tls = m_options.tls;
    // A plain QTcpSocket without TLS: QSslSocket would add a layer to every read and write.
    QSslSocket *ssl = tls.enabled ? new QSslSocket(this) : nullptr;
    m_socket = ssl ? ssl : new QTcpSocket(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &ConnectionWorker::onReadyRead);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &ConnectionWorker::onSocketError);
    connect(m_socket, &QTcpSocket::disconnected, this, &ConnectionWorker::onDisconnected);
    setState(ConnectionState::Connecting,
             m_attempt > 0 ? workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "attempt %1"))
                                 .arg(m_attempt + 1)
                           : core::Sentence{});
    m_connectTimeout->start(m_options.connectTimeoutMs);
    m_tick->start();

    if (!ssl) {
        connect(m_socket, &QTcpSocket::connected, this, &ConnectionWorker::onConnected);
        m_socket->connectToHost(socketHost(), socketPort());
        return;
    }
    const auto conf = tlsConfiguration(tls);
    if (!conf.ok()) {
        dropConnection(core::Sentence::plain(conf.error()), ConnectFailure::Tls, true);
        return;
    }
    ssl->setSslConfiguration(conf.value());
    connect(ssl, &QSslSocket::encrypted, this, &ConnectionWorker::onConnected);
    connect(ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
        m_tlsVerificationFailed = true;
        m_lastError = workerSays(QT_TRANSLATE_NOOP(
                                     "redis::ConnectionWorker",
                                     "TLS verification failed for %1: %2. Check the CA file and "
                                     "the server name, or the server's certificate"))
                          .arg(m_options.describe(), sslErrorsText(errors));
    });
    ssl->connectToHostEncrypted(socketHost(), socketPort(),
                                tls.serverName.isEmpty() ? m_options.host : tls.serverName);
}

void ConnectionWorker::onConnected()
{
    m_lastReadMs = now();
    enableKeepAlive();
    startHandshake();
}

void ConnectionWorker::enableKeepAlive()
{
    m_socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
#ifdef Q_OS_LINUX
    // Probe after keepAliveIdleS of quiet, then every third of it, three times: a vanished
    // peer is noticed in about twice keepAliveIdleS instead of the kernel's two hours.
    const int fd = int(m_socket->socketDescriptor());
    const int idle = std::max(1, m_options.keepAliveIdleS);
    const int interval = std::max(1, idle / 3);
    const int count = 3;
    if (fd >= 0) {
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    }
#endif
}

// Why the reply `e` to the setup's command `i` fails the connection (*failure: how).
core::Sentence ConnectionWorker::setupFailure(qsizetype i, const RedisError &e, bool withAuth,
                                              const core::Sentence &setupTimeout,
                                              ConnectFailure *failure) const
{
    core::Sentence why;
    if (i == 0 && withAuth && e.kind == RedisError::Kind::Server && m_options.password.isEmpty()) {
        // redis://NAME@host: NAME may well be a password typed without its colon
        // (redis-cli reads it so): never echo it.
        why =
            workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                         "authentication failed on %1 (%2) for the user name given "
                                         "without a password; if it was a password, write "
                                         "redis://:PASSWORD@host"))
                .arg(m_options.describe(), QString::fromLatin1(e.code));
        *failure = ConnectFailure::Authentication;
    } else if (i == 0 && withAuth && e.kind == RedisError::Kind::Server) {
        why =
            workerSays(
                QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                  "authentication failed for user '%1' on %2 (%3): check the "
                                  "user name and password"))
                .arg(m_options.username.isEmpty() ? QStringLiteral("default") : m_options.username,
                     m_options.describe(), QString::fromLatin1(e.code));
        *failure = ConnectFailure::Authentication;
    } else if (e.isServer("NOAUTH")) {
        why = workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                           "%1 requires a password: set one in the connection"))
                  .arg(m_options.describe());
        *failure = ConnectFailure::PasswordRequired;
    } else if (e.kind == RedisError::Kind::Server) {
        why = workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                           "the server refused the connection setup: %1"))
                  .arg(e.message);
    } else if (e.kind == RedisError::Kind::Timeout) {
        why = setupTimeout;
        *failure = ConnectFailure::Timeout;
    } else {
        why = e.message;
        *failure = ConnectFailure::Timeout;
    }
    return why;
}

void ConnectionWorker::startHandshake()
{
    auto batch = std::make_shared<Batch>();
    // A user name without a password still authenticates as that user ("nopass" users accept
    // any password); without AUTH the session would silently be the default user.
    const bool withAuth = !m_options.password.isEmpty() || !m_options.username.isEmpty();
    if (withAuth) {
        Command auth{"AUTH"};
        if (!m_options.username.isEmpty())
            auth << m_options.username.toUtf8();
        auth << m_options.password.toUtf8();
        batch->commands << auth;
    }
    if (m_options.database != 0)
        batch->commands << Command{"SELECT", QByteArray::number(m_options.database)};
    const qsizetype required = batch->commands.size();
    // Naming the connection is a courtesy: a business user whose ACL forbids CLIENT still
    // connects.
    batch->commands << Command{"CLIENT", "SETNAME", m_options.clientName};
    batch->encode();
    batch->timeoutMs = m_options.connectTimeoutMs;
    batch->deadlineMs = now() + batch->timeoutMs;
    const core::Sentence setupTimeout =
        workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                     "no answer to the connection setup from %1"))
            .arg(m_options.describe());
    batch->timeoutWhy = setupTimeout;
    batch->deliver = [this, withAuth, required, setupTimeout](QList<ReplyResult> &&results,
                                                              WireTimeUs) {
        for (qsizetype i = 0; i < results.size(); ++i) {
            if (results[i].ok())
                continue;
            const RedisError &e = results[i].error();
            if (i >= required && e.kind == RedisError::Kind::Server && !e.isServer("NOAUTH"))
                continue; // e.g. NOPERM for CLIENT SETNAME
            ConnectFailure failure = ConnectFailure::Server;
            const core::Sentence why = setupFailure(i, e, withAuth, setupTimeout, &failure);
            // Retrying cannot fix a refused password; a lost connection may come back.
            dropConnection(why, failure, e.kind == RedisError::Kind::Server);
            return;
        }
        m_connectTimeout->stop();
        m_everReady = true;
        m_connectingAfresh = false;
        m_attempt = 0;
        m_lastError = {};
        m_failure = ConnectFailure::None;
        setState(ConnectionState::Ready, core::Sentence::plain(m_options.describe()));
        while (!m_waiting.empty()) {
            auto next = m_waiting.front();
            m_waiting.pop_front();
            if (!next->delivered)
                write(next);
        }
    };
    write(batch);
}

namespace {
// A failure a later attempt with the same settings may not meet: the node was down, slow or
// not yet in the resolver.
bool worthRetryingOnUse(ConnectFailure failure)
{
    switch (failure) {
    case ConnectFailure::HostNotFound:
    case ConnectFailure::ResolverUnreachable:
    case ConnectFailure::Refused:
    case ConnectFailure::Timeout:
    case ConnectFailure::ConnectionLost:
        return true;
    case ConnectFailure::None:
    case ConnectFailure::Authentication:
    case ConnectFailure::PasswordRequired:
    case ConnectFailure::Tls:
    case ConnectFailure::Protocol:
    case ConnectFailure::Server:
    case ConnectFailure::Other:
        return false;
    }
    return false;
}
} // namespace

void ConnectionWorker::submit(std::shared_ptr<Batch> batch)
{
    batch->deadlineMs = now() + batch->timeoutMs;
    if (batch->commands.isEmpty()) {
        batch->finish(RedisError::notSent({}));
        return;
    }
    if (m_state == ConnectionState::Ready) {
        write(batch);
        return;
    }
    const bool stillFirstConnect =
        (!m_everReady || m_connectingAfresh) && !m_closing
        && (m_state == ConnectionState::Idle || m_state == ConnectionState::Connecting);
    if (stillFirstConnect) {
        m_waiting.push_back(batch);
        return;
    }
    // Failed is not forever for a connection that reconnects: a node that was down when a
    // connection to it was first made (a replica, a cluster node, the release user's) is
    // tried again when it is next used, and this batch hears how that attempt went, not the
    // reason of one long past. Refused credentials, TLS or protocol are the settings' fault:
    // the same settings again would only repeat them (and resend a wrong password).
    if (m_state == ConnectionState::Failed && m_options.autoReconnect && m_tick && !m_closing
        && worthRetryingOnUse(m_failure)) {
        m_waiting.push_back(batch);
        m_connectingAfresh = true;
        connectNow();
        return;
    }
    core::Sentence why =
        workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "disconnected from %1"))
            .arg(m_options.describe());
    if (!m_lastError.isEmpty())
        why = workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "%1 (%2)"))
                  .arg(why, m_lastError);
    if (m_state == ConnectionState::Reconnecting || m_state == ConnectionState::Connecting)
        why = workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                           "%1; reconnecting, try again shortly"))
                  .arg(why);
    batch->finish(RedisError::notSent(why));
}

void ConnectionWorker::write(const std::shared_ptr<Batch> &batch)
{
    batch->results.reserve(batch->commands.size());
    batch->writtenNs = m_clock.nsecsElapsed();
    batch->writtenMs = batch->writtenNs / 1'000'000;
    m_inFlight.push_back(batch);
    m_socket->write(std::exchange(batch->encoded, {}));
    // Straight to the kernel rather than on the next pass of the event loop: one poll less
    // per round trip.
    m_socket->flush();
    if (onlyRoundTripOnThisThread())
        m_quickReply.wait(int(m_socket->socketDescriptor()));
}

bool ConnectionWorker::onlyRoundTripOnThisThread() const
{
    if (!m_options.onCallerThread || m_inFlight.size() != 1)
        return false;
    return std::ranges::all_of(t_workersOnThisThread, [this](const ConnectionWorker *w) {
        return w == this || w->m_inFlight.empty();
    });
}

void ConnectionWorker::take(ReplyResult result)
{
    Batch *batch = m_inFlight.front().get();
    std::shared_ptr<Batch> last;
    if (++batch->repliesRead == batch->commands.size()) {
        last = std::move(m_inFlight.front());
        m_inFlight.pop_front();
    }
    if (batch->delivered)
        return; // timed out earlier: its caller already heard "outcome unknown"
    batch->results.append(std::move(result));
    if (last) {
        batch->delivered = true;
        batch->deliver(std::move(batch->results), (m_lastReadNs - batch->writtenNs) / 1000);
    }
}

void ConnectionWorker::onReadyRead()
{
    // Timed here, before anything is delivered: the time on the wire ends when the bytes are read.
    m_lastReadNs = m_clock.nsecsElapsed();
    m_lastReadMs = m_lastReadNs / 1'000'000;
    const QByteArray chunk = m_socket->readAll();
    m_decoder.feed(chunk);
    Reply reply;
    for (;;) {
        const auto status = m_decoder.next(&reply);
        if (status == RespDecoder::Status::NeedMore)
            return;
        if (status == RespDecoder::Status::Failed) {
            dropConnection(workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                                        "protocol error from %1: %2 (is this a "
                                                        "Redis server, and does it expect TLS?)"))
                               .arg(m_options.describe(), m_decoder.errorString()),
                           ConnectFailure::Protocol);
            return;
        }
        if (m_inFlight.empty()) {
            dropConnection(workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                                        "protocol error: unexpected reply from %1"))
                               .arg(m_options.describe()),
                           ConnectFailure::Protocol);
            return;
        }
        if (reply.isError())
            take(RedisError::fromServer(reply.bytes()));
        else
            take(std::move(reply));
        if (!m_socket)
            return; // a callback closed the connection
    }
}

void ConnectionWorker::onSocketError(QAbstractSocket::SocketError error)
{
    if (error == QAbstractSocket::RemoteHostClosedError && m_state == ConnectionState::Ready)
        return; // onDisconnected reports it
    if (error == QAbstractSocket::HostNotFoundError) {
        explainFailedLookup();
        return;
    }
    ConnectFailure failure = ConnectFailure::Other;
    const core::Sentence why = describeSocketError(error, &failure);
    if (m_tlsVerificationFailed)
        failure = ConnectFailure::Tls; // the sslErrors handler said it better
    else
        m_lastError = why;
    dropConnection(m_lastError, failure);
}

// Qt reports "host not found" both when the resolver said there is no such name and when no
// resolver could be asked (EAI_AGAIN: no network, no name server). Only the first is a verdict
// on the name, so a lookup of our own tells them apart before the connection is dropped.
void ConnectionWorker::explainFailedLookup()
{
    const quint64 lookup = ++m_lookupGeneration;
    QHostInfo::lookupHost(m_options.host, this, [this, lookup](const QHostInfo &info) {
        if (lookup != m_lookupGeneration || m_state != ConnectionState::Connecting)
            return; // the connect timed out, or the connection was closed, meanwhile
        if (info.error() == QHostInfo::UnknownError) {
            m_lastError =
                workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                             "could not look up host '%1' (%2): the name server "
                                             "could not be reached, so the name is neither found "
                                             "nor refused. Check this machine's network and DNS "
                                             "settings, or give an IP address"))
                    .arg(m_options.host, info.errorString());
            dropConnection(m_lastError, ConnectFailure::ResolverUnreachable);
            return;
        }
        ConnectFailure failure = ConnectFailure::HostNotFound;
        m_lastError = describeSocketError(QAbstractSocket::HostNotFoundError, &failure);
        dropConnection(m_lastError, failure);
    });
}

void ConnectionWorker::onDisconnected()
{
    dropConnection(
        workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "%1 closed the connection"))
            .arg(m_options.describe()),
        ConnectFailure::ConnectionLost);
}

core::Sentence ConnectionWorker::describeSocketError(QAbstractSocket::SocketError error,
                                                     ConnectFailure *failure) const
{
    const QString where = m_options.describe();
    *failure = ConnectFailure::Other;
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        *failure = ConnectFailure::Refused;
        return workerSays(QT_TRANSLATE_NOOP(
                              "redis::ConnectionWorker",
                              "connection refused by %1: is Redis running there, on that port?"))
            .arg(where);
    case QAbstractSocket::HostNotFoundError:
        *failure = ConnectFailure::HostNotFound;
        return workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                            "host '%1' not found: check the host name"))
            .arg(m_options.host);
    case QAbstractSocket::SocketTimeoutError:
        *failure = ConnectFailure::Timeout;
        return workerSays(QT_TRANSLATE_NOOP(
                              "redis::ConnectionWorker",
                              "no answer from %1: check the host, the port and any firewall"))
            .arg(where);
    case QAbstractSocket::SslHandshakeFailedError:
        *failure = ConnectFailure::Tls;
        return workerSays(QT_TRANSLATE_NOOP(
                              "redis::ConnectionWorker",
                              "TLS handshake with %1 failed: %2. Check the CA file, the server "
                              "name, and that the server speaks TLS on this port"))
            .arg(where, m_socket ? m_socket->errorString() : QString());
    case QAbstractSocket::RemoteHostClosedError:
        *failure = m_state == ConnectionState::Connecting ? ConnectFailure::Protocol
                                                          : ConnectFailure::ConnectionLost;
        return m_state == ConnectionState::Connecting
                   ? workerSays(QT_TRANSLATE_NOOP(
                                    "redis::ConnectionWorker",
                                    "%1 closed the connection during setup: does it expect TLS, "
                                    "or a client certificate?"))
                         .arg(where)
                   : workerSays(
                         QT_TRANSLATE_NOOP("redis::ConnectionWorker", "%1 closed the connection"))
                         .arg(where);
    default: {
        const QString detail = m_socket ? m_socket->errorString() : QString();
        // OpenSSL reports a server's refusal of our certificate as a plain socket error.
        if (m_options.tls.enabled
            && (detail.contains(QLatin1String("alert"), Qt::CaseInsensitive)
                || detail.contains(QLatin1String("certificate"), Qt::CaseInsensitive))) {
            *failure = ConnectFailure::Tls;
            return workerSays(QT_TRANSLATE_NOOP(
                                  "redis::ConnectionWorker",
                                  "TLS handshake with %1 failed: %2. The server may require a "
                                  "client certificate: check the certificate and key files"))
                .arg(where, detail);
        }
        return workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "network error with %1: %2"))
            .arg(where, detail);
    }
    }
}

void ConnectionWorker::failAll(RedisError::Kind writtenKind, const core::Sentence &why)
{
    // Detach first: a delivery can run code that submits again.
    auto inFlight = std::move(m_inFlight);
    m_inFlight.clear();
    auto waiting = std::move(m_waiting);
    m_waiting.clear();
    const RedisError written = RedisError::unanswered(writtenKind, why);
    for (auto &b : inFlight)
        b->finish(written);
    for (auto &b : waiting)
        b->finish(RedisError::notSent(why));
}

void ConnectionWorker::dropConnection(const core::Sentence &why, ConnectFailure failure,
                                      bool terminal)
{
    if (failure != ConnectFailure::None)
        m_failure = failure;
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    if (m_connectTimeout)
        m_connectTimeout->stop();
    if (m_tick)
        m_tick->stop();
    m_decoder.reset();
    m_connectingAfresh = false; // what waited for it hears why below
    if (!why.isEmpty())
        m_lastError = why;
    const bool wasReady = m_state == ConnectionState::Ready;
    // Commands in flight when a ready stream broke hear why: garbage is not a lost connection.
    const auto lostKind = wasReady && failure == ConnectFailure::Protocol
                              ? RedisError::Kind::Protocol
                              : RedisError::Kind::ConnectionLost;
    if (wasReady && !m_closing)
        qCWarning(lcRedis) << "connection to" << m_options.describe() << "lost:" << why.english;

    if (m_closing) {
        failAll(lostKind, why);
        setState(ConnectionState::Closed, why);
        return;
    }
    if (m_everReady && m_options.autoReconnect && !terminal) {
        // Exponential backoff with jitter, so a fleet of consoles does not reconnect in step.
        const int base =
            std::min(m_options.reconnectMaxMs, m_options.reconnectMinMs << std::min(m_attempt, 16));
        const int delay = base / 2 + int(QRandomGenerator::global()->bounded(base / 2 + 1));
        ++m_attempt;
        setState(ConnectionState::Reconnecting,
                 workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker", "%1; retry %2 in %3 s"))
                     .arg(why, m_attempt, QString::number(delay / 1000.0, 'f', 1)));
        failAll(lostKind, why);
        m_reconnect->start(delay);
        return;
    }
    setState(ConnectionState::Failed, why);
    failAll(lostKind, why);
}

void ConnectionWorker::onTick()
{
    const qint64 t = now();
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        auto b = *it;
        if (!b->delivered && b->deadlineMs <= t) {
            it = m_waiting.erase(it);
            b->finish(RedisError{
                RedisError::Kind::Timeout,
                RedisError::Delivery::NotSent,
                {},
                workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                             "not sent: could not connect to %1 in time"))
                    .arg(m_options.describe())});
        } else {
            ++it;
        }
    }
    // Collect first: delivering may add to m_inFlight.
    std::vector<std::shared_ptr<Batch>> expired;
    for (const auto &b : m_inFlight)
        if (!b->delivered && b->deadlineMs <= t)
            expired.push_back(b);
    for (auto &b : expired)
        b->finish(b->timeoutError());
    closeIfSilent(t);
}

void ConnectionWorker::closeIfSilent(qint64 t)
{
    if (m_state != ConnectionState::Ready || m_inFlight.empty() || !m_socket)
        return;
    const Batch &oldest = *m_inFlight.front();
    // Only once its caller has heard "outcome unknown": a slow command within its own timeout
    // (a long FUNCTION LOAD) is not a silent server.
    if (!oldest.delivered)
        return;
    const qint64 silentMs = t - std::max(m_lastReadMs, oldest.writtenMs);
    if (silentMs < m_options.silentCloseMs)
        return;
    dropConnection(
        workerSays(QT_TRANSLATE_NOOP("redis::ConnectionWorker",
                                     "no reply from %1 for %2 s: the server stopped answering "
                                     "(paused, overloaded or cut off by the network)"))
            .arg(m_options.describe(), QString::number(silentMs / 1000.0, 'f', 1)),
        ConnectFailure::Timeout);
}

void ConnectionWorker::setState(ConnectionState s, const core::Sentence &detail)
{
    if (s == m_state && s != ConnectionState::Reconnecting)
        return;
    m_state = s;
    emit stateChanged(s, detail, s == ConnectionState::Ready ? ConnectFailure::None : m_failure);
}

} // namespace redis
