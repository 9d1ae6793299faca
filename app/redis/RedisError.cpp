#include "RedisError.h"

namespace redis {

const QString RedisError::MayHaveRun = QStringLiteral("; the command may or may not have run");
const QString RedisError::SentMayHaveRun =
    QStringLiteral("; the command had been sent, so it may or may not have run");

QString RedisError::readFailure() const
{
    QString why = message;
    for (const QString &suffix : {MayHaveRun, SentMayHaveRun})
        if (why.endsWith(suffix))
            why.chop(suffix.size());
    return kind == Kind::Server ? why : QStringLiteral("%1: %2").arg(kindName(), why);
}

RedisError RedisError::notSent(const QString &message)
{
    return RedisError{Kind::NotSent, {}, message, false};
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
    RedisError e;
    e.kind = Kind::Server;
    e.code = isCode ? head : QByteArray("ERR");
    e.message = QString::fromUtf8(errorLine);
    return e;
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
    case Kind::Server:
        return QStringLiteral("server");
    }
    return {};
}

QString RedisError::toString() const
{
    if (outcomeUnknown())
        return QStringLiteral("outcome unknown (%1): %2").arg(kindName(), message);
    return message;
}

} // namespace redis
