#include "Reply.h"

#include "core/Bytes.h"

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

std::optional<qint64> Reply::asInteger() const
{
    if (m_type == Type::Integer)
        return m_integer;
    if (m_type != Type::Bulk && m_type != Type::Status)
        return std::nullopt;
    bool ok = false;
    const qint64 v = m_bytes.toLongLong(&ok);
    if (!ok || QByteArray::number(v) != m_bytes)
        return std::nullopt;
    return v;
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
