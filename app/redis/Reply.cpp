// SPDX-License-Identifier: GPL-3.0-or-later
#include "Reply.h"

#include "core/Bytes.h"
#include "core/CanonicalInteger.h"

namespace redis {

namespace {
core::Sentence replySays(const char *source)
{
    return core::Sentence::translated("redis::Reply", source);
}
} // namespace

Reply Reply::integer(qint64 v)
{
    Reply r;
    r.m_type = Type::Integer;
    r.m_integer = v;
    return r;
}

Reply Reply::bulk(QByteArray bytes)
{
    Reply r;
    r.m_type = Type::Bulk;
    r.m_bytes = std::move(bytes);
    return r;
}

Reply Reply::status(QByteArray text)
{
    Reply r = bulk(std::move(text));
    r.m_type = Type::Status;
    return r;
}

Reply Reply::error(QByteArray text)
{
    Reply r = bulk(std::move(text));
    r.m_type = Type::Error;
    return r;
}

Reply Reply::array(QList<Reply> elements)
{
    Reply r;
    r.m_type = Type::Array;
    r.m_elements = std::move(elements);
    return r;
}

const Reply &Reply::none()
{
    static const Reply nil;
    return nil;
}

Decoded<qint64> Reply::integer() const
{
    if (m_type == Type::Integer)
        return m_integer;
    return unexpected(replySays(QT_TRANSLATE_NOOP("redis::Reply", "an integer")));
}

Decoded<qint64> Reply::number() const
{
    if (const auto v = asInteger())
        return *v;
    return unexpected(
        replySays(QT_TRANSLATE_NOOP("redis::Reply", "an integer or a canonical integer string")));
}

Decoded<QByteArray> Reply::string() const
{
    if (isString())
        return m_bytes;
    return unexpected(replySays(QT_TRANSLATE_NOOP("redis::Reply", "a string")));
}

Decoded<QList<Reply>> Reply::array() const
{
    if (m_type == Type::Array)
        return m_elements;
    return unexpected(replySays(QT_TRANSLATE_NOOP("redis::Reply", "an array")));
}

Decoded<Reply> Reply::element(qsizetype i) const
{
    if (m_type == Type::Array && i >= 0 && i < m_elements.size())
        return m_elements.at(i);
    return unexpected(
        replySays(QT_TRANSLATE_NOOP("redis::Reply", "an array with an element at index %1"))
            .arg(i));
}

std::optional<qint64> Reply::asInteger() const
{
    if (m_type == Type::Integer)
        return m_integer;
    if (m_type != Type::Bulk && m_type != Type::Status)
        return std::nullopt;
    return core::parseCanonicalInteger(m_bytes);
}

core::Sentence Reply::shape() const
{
    // Short: this lands in one line of an error message.
    constexpr int MaxShown = 40;
    switch (m_type) {
    case Type::Nil:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "nil"));
    case Type::Integer:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "an integer %1")).arg(m_integer);
    case Type::Bulk:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "a bulk string %1"))
            .arg(debugString(MaxShown));
    case Type::Status:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "a status %1"))
            .arg(debugString(MaxShown));
    case Type::Error:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "an error reply %1"))
            .arg(core::escapeBytes(m_bytes, MaxShown));
    case Type::Array:
        return replySays(QT_TRANSLATE_NOOP("redis::Reply", "an array of %1"))
            .arg(m_elements.size());
    }
    return {};
}

RedisError Reply::unexpected(const core::Sentence &expected) const
{
    return RedisError::unexpected(
        replySays(QT_TRANSLATE_NOOP("redis::Reply", "expected %1, got %2")).arg(expected, shape()));
}

QString Reply::debugString(int maxLength) const
{
    switch (m_type) {
    case Type::Nil:
        return QStringLiteral("(nil)");
    case Type::Integer:
        return QStringLiteral("(integer) %1").arg(m_integer);
    case Type::Bulk:
        return QLatin1Char('"') + core::escapeBytes(m_bytes, maxLength) + QLatin1Char('"');
    case Type::Status:
        return core::escapeBytes(m_bytes, maxLength);
    case Type::Error:
        return QStringLiteral("(error) ") + core::escapeBytes(m_bytes, maxLength);
    case Type::Array: {
        QStringList parts;
        for (const Reply &e : m_elements)
            parts << e.debugString(maxLength);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    }
    return {};
}

} // namespace redis
