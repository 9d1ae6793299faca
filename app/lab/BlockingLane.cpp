// SPDX-License-Identifier: GPL-3.0-or-later
#include "BlockingLane.h"

#include <QCoreApplication>
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
// Why a lane could not connect or stopped, in the window's language (the Lab tab); the CLI
// loads no translator and prints the English.
struct BlockingLaneText
{
    Q_DECLARE_TR_FUNCTIONS(lab::BlockingLane)
};
} // namespace

BlockingLane::~BlockingLane()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void BlockingLane::fail(const QString &why)
{
    if (m_broken.isEmpty())
        m_broken = why;
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

bool BlockingLane::open(const redis::ConnectionOptions &options, QString *why)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const QByteArray host = options.host.toUtf8();
    const QByteArray port = QByteArray::number(options.port);
    if (const int rc = ::getaddrinfo(host.constData(), port.constData(), &hints, &found); rc != 0) {
        // EAI_AGAIN: no name server could be asked, which says nothing about the name.
        *why = (rc == EAI_AGAIN ? BlockingLaneText::tr("could not look up %1 (%2): the name "
                                                       "server could not be reached")
                                : BlockingLaneText::tr("could not resolve %1: %2"))
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
        *why = BlockingLaneText::tr("could not connect to %1").arg(options.address());
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
            *why = BlockingLaneText::tr("%1 refused: %2")
                       .arg(QString::fromUtf8(setup.at(i).first()),
                            replies.at(i).error().message.text);
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
        return finish(RedisError::notSent(core::Sentence::plain(
            m_broken.isEmpty() ? BlockingLaneText::tr("not connected") : m_broken)));
    QByteArray out;
    for (const redis::Command &c : commands)
        redis::appendEncodedCommand(out, c);
    if (!sendAll(out)) {
        fail(BlockingLaneText::tr("the connection was lost while sending"));
        return finish(RedisError::unanswered(RedisError::Kind::ConnectionLost,
                                             core::Sentence::plain(m_broken)));
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
            fail(BlockingLaneText::tr("protocol error: %1").arg(m_decoder.errorString()));
            return finish(RedisError::unanswered(RedisError::Kind::Protocol,
                                                 core::Sentence::plain(m_broken)));
        }
        m_quickReply.wait(m_fd); // then the poll below finds it readable without sleeping
        const int left = timeoutMs - int(clock.elapsed());
        pollfd p{m_fd, POLLIN, 0};
        const int ready = left > 0 ? ::poll(&p, 1, left) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            // The replies still owed would arrive later and be taken for the next call's.
            fail(BlockingLaneText::tr("no reply within %1 ms").arg(timeoutMs));
            return finish(RedisError::unanswered(
                RedisError::Kind::Timeout,
                core::Sentence::plain(BlockingLaneText::tr("no reply within the timeout"))));
        }
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fail(BlockingLaneText::tr("the connection was closed"));
            return finish(RedisError::unanswered(RedisError::Kind::ConnectionLost,
                                                 core::Sentence::plain(m_broken)));
        }
        m_decoder.feed(buffer, n);
    }
    return results;
}

} // namespace lab
