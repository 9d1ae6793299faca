// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisError.h"

namespace redis {

QString RedisError::readFailure() const
{
    return kind == Kind::Server ? message : QStringLiteral("%1: %2").arg(kindName(), message);
}

QString RedisError::toString() const
{
    if (!mayHaveRun())
        return message;
    return QStringLiteral("outcome unknown (%1): %2; %3")
        .arg(kindName(), message,
             delivery == Delivery::SentNoReply
                 ? QStringLiteral("the command had been sent, so it may or may not have run")
                 : QStringLiteral("the reply was not understood, so the command may or may not "
                                  "have run"));
}

RedisError RedisError::notSent(const QString &message, Refusal refusal)
{
    return RedisError{Kind::NotSent, Delivery::NotSent, {}, message, refusal};
}

RedisError RedisError::unanswered(Kind kind, const QString &message)
{
    return RedisError{kind, Delivery::SentNoReply, {}, message, Refusal::None};
}

RedisError RedisError::unexpected(const QString &message)
{
    return RedisError{Kind::Unexpected, Delivery::Answered, {}, message, Refusal::None};
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
    return RedisError{Kind::Server, Delivery::Answered, isCode ? head : QByteArray("ERR"),
                      QString::fromUtf8(errorLine), Refusal::None};
}

QString RedisError::kindName() const
{
    switch (kind) {
    case Kind::NotSent:
        return QStringLiteral("not sent");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::ConnectionLost:
        return QStringLiteral("connection lost");
    case Kind::Io:
        return QStringLiteral("I/O");
    case Kind::Protocol:
        return QStringLiteral("protocol");
    case Kind::Unexpected:
        return QStringLiteral("unexpected reply");
    case Kind::Server:
        return QStringLiteral("server");
    }
    return {};
}

} // namespace redis
