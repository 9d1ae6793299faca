// SPDX-License-Identifier: GPL-3.0-or-later
#include "BlockingLane.h"

#include <QElapsedTimer>

#include <cerrno>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lab {

using redis::RedisError;
using redis::ReplyResult;

namespace {
// Why a lane could not connect or stopped, in both copies: the Lab tab shows the text, and the
// errors its commands get keep the English for the CLI and the logs, as every RedisError does.
core::Sentence laneSaid(const char *source)
{
    return core::Sentence::translated("lab::BlockingLane", source);
}
} // namespace

BlockingLane::~BlockingLane()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void BlockingLane::fail(const core::Sentence &why)
{
    if (m_broken.isEmpty())
        m_broken = why;
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

bool BlockingLane::open(const redis::ConnectionOptions &options, core::Sentence *why)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const QByteArray host = options.host.toUtf8();
    const QByteArray port = QByteArray::number(options.port);
    if (const int rc = ::getaddrinfo(host.constData(), port.constData(), &hints, &found); rc != 0) {
        // EAI_AGAIN: no name server could be asked, which says nothing about the name.
        *why = (rc == EAI_AGAIN
                    ? laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane",
                                                 "could not look up %1 (%2): the name "
                                                 "server could not be reached"))
                    : laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "could not resolve %1: %2")))
                   .arg(options.host, QString::fromUtf8(gai_strerror(rc)));
        return false;
    }
    for (addrinfo *a = found; a && m_fd < 0; a = a->ai_next) {
        m_fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (m_fd >= 0 && ::connect(m_fd, a->ai_addr, a->ai_addrlen) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (m_fd < 0) {
        *why = laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "could not connect to %1"))
                   .arg(options.address());
        return false;
    }
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    m_quickReply = redis::QuickReplyWait(options.quickReplyWaitUs);

    QList<redis::Command> setup;
    if (!options.password.isEmpty()) {
        redis::Command auth{"AUTH"};
        if (!options.username.isEmpty())
            auth << options.username.toUtf8();
        auth << options.password.toUtf8();
        setup << auth;
    }
    if (options.database != 0)
        setup << redis::Command{"SELECT", QByteArray::number(options.database)};
    setup << redis::Command{"CLIENT", "SETNAME", options.clientName};
    const QList<ReplyResult> replies = roundTrip(setup, options.connectTimeoutMs);
    for (int i = 0; i + 1 < replies.size(); ++i) { // SETNAME may be refused (NOPERM)
        if (!replies.at(i).ok()) {
            *why = laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "%1 refused: %2"))
                       .arg(QString::fromUtf8(setup.at(i).first()), replies.at(i).error().message);
            fail(*why);
            return false;
        }
    }
    if (!m_broken.isEmpty()) {
        *why = m_broken;
        return false;
    }
    return true;
}

bool BlockingLane::sendAll(const QByteArray &bytes)
{
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n =
            ::send(m_fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += n;
    }
    return true;
}

QList<ReplyResult> BlockingLane::roundTrip(const QList<redis::Command> &commands, int timeoutMs)
{
    QList<ReplyResult> results;
    results.reserve(commands.size());
    const auto finish = [&](const RedisError &e) {
        while (results.size() < commands.size())
            results.append(e);
        return results;
    };
    if (m_fd < 0)
        return finish(RedisError::notSent(
            m_broken.isEmpty() ? laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "not connected"))
                               : m_broken));
    QByteArray out;
    for (const redis::Command &c : commands)
        redis::appendEncodedCommand(out, c);
    if (!sendAll(out)) {
        fail(laneSaid(
            QT_TRANSLATE_NOOP("lab::BlockingLane", "the connection was lost while sending")));
        return finish(RedisError::unanswered(RedisError::Kind::ConnectionLost, m_broken));
    }
    QElapsedTimer clock;
    clock.start();
    char buffer[16384];
    while (results.size() < commands.size()) {
        redis::Reply reply;
        const auto status = m_decoder.next(&reply);
        if (status == redis::RespDecoder::Status::Complete) {
            if (reply.isError())
                results.append(RedisError::fromServer(reply.bytes()));
            else
                results.append(std::move(reply));
            continue;
        }
        if (status == redis::RespDecoder::Status::Failed) {
            fail(laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "protocol error: %1"))
                     .arg(m_decoder.errorString()));
            return finish(RedisError::unanswered(RedisError::Kind::Protocol, m_broken));
        }
        m_quickReply.wait(m_fd); // then the poll below finds it readable without sleeping
        const int left = timeoutMs - int(clock.elapsed());
        pollfd p{m_fd, POLLIN, 0};
        const int ready = left > 0 ? ::poll(&p, 1, left) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            // The replies still owed would arrive later and be taken for the next call's.
            fail(laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "no reply within %1 ms"))
                     .arg(timeoutMs));
            return finish(RedisError::unanswered(
                RedisError::Kind::Timeout,
                laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "no reply within the timeout"))));
        }
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fail(laneSaid(QT_TRANSLATE_NOOP("lab::BlockingLane", "the connection was closed")));
            return finish(RedisError::unanswered(RedisError::Kind::ConnectionLost, m_broken));
        }
        m_decoder.feed(buffer, n);
    }
    return results;
}

} // namespace lab
