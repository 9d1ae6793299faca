// SPDX-License-Identifier: GPL-3.0-or-later
#include "Reply.h"

#include "core/Bytes.h"
#include "core/CanonicalInteger.h"

namespace redis {

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
    return unexpected(QStringLiteral("an integer"));
}

Decoded<qint64> Reply::number() const
{
    if (const auto v = asInteger())
        return *v;
    return unexpected(QStringLiteral("an integer or a canonical integer string"));
}

Decoded<QByteArray> Reply::string() const
{
    if (isString())
        return m_bytes;
    return unexpected(QStringLiteral("a string"));
}

Decoded<QList<Reply>> Reply::array() const
{
    if (m_type == Type::Array)
        return m_elements;
    return unexpected(QStringLiteral("an array"));
}

Decoded<Reply> Reply::element(qsizetype i) const
{
    if (m_type == Type::Array && i >= 0 && i < m_elements.size())
        return m_elements.at(i);
    return unexpected(QStringLiteral("an array with an element at index %1").arg(i));
}

std::optional<qint64> Reply::asInteger() const
{
    if (m_type == Type::Integer)
        return m_integer;
    if (m_type != Type::Bulk && m_type != Type::Status)
        return std::nullopt;
    return core::parseCanonicalInteger(m_bytes);
}

QString Reply::shape() const
{
    // Short: this lands in one line of an error message.
    constexpr int MaxShown = 40;
    switch (m_type) {
    case Type::Nil:
        return QStringLiteral("nil");
    case Type::Integer:
        return QStringLiteral("an integer %1").arg(m_integer);
    case Type::Bulk:
        return QStringLiteral("a bulk string ") + debugString(MaxShown);
    case Type::Status:
        return QStringLiteral("a status ") + debugString(MaxShown);
    case Type::Error:
        return QStringLiteral("an error reply ") + core::escapeBytes(m_bytes, MaxShown);
    case Type::Array:
        return QStringLiteral("an array of %1").arg(m_elements.size());
    }
    return {};
}

RedisError Reply::unexpected(const QString &expected) const
{
    return RedisError::unexpected(
        core::Sentence::translated("redis::Reply",
                                   QT_TRANSLATE_NOOP("redis::Reply", "expected %1, got %2"))
            .arg(expected, shape()));
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
