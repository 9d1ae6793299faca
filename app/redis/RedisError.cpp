// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisError.h"

namespace redis {

namespace {
core::Sentence errorSays(const char *source)
{
    return core::Sentence::translated("redis::RedisError", source);
}
} // namespace

core::Sentence RedisError::readFailure() const
{
    return kind == Kind::Server ? message
                                : errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "%1: %2"))
                                      .arg(kindName(), message);
}

core::Sentence RedisError::toString() const
{
    if (!mayHaveRun())
        return message;
    return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "outcome unknown (%1): %2; %3"))
        .arg(kindName(), message,
             delivery == Delivery::SentNoReply
                 ? errorSays(
                     QT_TRANSLATE_NOOP("redis::RedisError",
                                       "the command had been sent, so it may or may not have run"))
                 : errorSays(QT_TRANSLATE_NOOP("redis::RedisError",
                                               "the reply was not understood, so the command may "
                                               "or may not have run")));
}

RedisError RedisError::notSent(const core::Sentence &message, Refusal refusal)
{
    return RedisError{Kind::NotSent, Delivery::NotSent, {}, message, refusal};
}

RedisError RedisError::unanswered(Kind kind, const core::Sentence &message)
{
    return RedisError{kind, Delivery::SentNoReply, {}, message, Refusal::None};
}

RedisError RedisError::unexpected(const core::Sentence &message)
{
    return RedisError{Kind::Unexpected, Delivery::Answered, {}, message, Refusal::None};
}

core::Sentence RedisError::noReply()
{
    return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "no reply"));
}

RedisError RedisError::fromServer(const QByteArray &errorLine)
{
    // Redis error replies start with an upper-case code word ("WRONGTYPE Operation ...");
    // Lua errors raised with a plain string are prefixed "ERR" by the server.
    const qsizetype space = errorLine.indexOf(' ');
    const QByteArray head = space < 0 ? errorLine : errorLine.left(space);
    bool isCode = !head.isEmpty();
    for (char c : head)
        isCode = isCode && ((c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'));
    // The server's own words: the same in both copies.
    return RedisError{Kind::Server, Delivery::Answered, isCode ? head : QByteArray("ERR"),
                      core::Sentence::plain(QString::fromUtf8(errorLine)), Refusal::None};
}

core::Sentence RedisError::kindName() const
{
    switch (kind) {
    case Kind::NotSent:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "not sent"));
    case Kind::Timeout:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "timeout"));
    case Kind::ConnectionLost:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "connection lost"));
    case Kind::Io:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "I/O"));
    case Kind::Protocol:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "protocol"));
    case Kind::Unexpected:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "unexpected reply"));
    case Kind::Server:
        return errorSays(QT_TRANSLATE_NOOP("redis::RedisError", "server"));
    }
    return {};
}

} // namespace redis
