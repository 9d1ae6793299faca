#pragma once

#include "RedisError.h"
#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <optional>

namespace redis {

// One RESP2 reply, decoded once at the transport boundary. Domain code reads it through
// the typed accessors below; nothing else in the console interprets raw RESP.
class Reply
{
public:
    enum class Type { Nil, Integer, Bulk, Status, Error, Array };

    Reply() = default;
    static Reply nil() { return Reply(); }
    static Reply integer(qint64 v);
    static Reply bulk(QByteArray bytes);
    static Reply status(QByteArray text);
    static Reply error(QByteArray text);
    static Reply array(QList<Reply> elements);

    Type type() const { return m_type; }
    bool isNil() const { return m_type == Type::Nil; }
    bool isInteger() const { return m_type == Type::Integer; }
    bool isBulk() const { return m_type == Type::Bulk; }
    bool isStatus() const { return m_type == Type::Status; }
    bool isError() const { return m_type == Type::Error; }
    bool isArray() const { return m_type == Type::Array; }
    // Bulk or status: both carry text.
    bool isString() const { return m_type == Type::Bulk || m_type == Type::Status; }

    qint64 toInteger() const { return m_integer; }
    const QByteArray &bytes() const { return m_bytes; }
    const QList<Reply> &elements() const { return m_elements; }
    qsizetype size() const { return m_elements.size(); }
    const Reply &at(qsizetype i) const { return m_elements.at(i); }

    // An integer reply, or a bulk holding a canonical base-10 integer (as Lua numbers and
    // many commands return them).
    std::optional<qint64> asInteger() const;

    // For human eyes and logs (escaped, truncated); never used to make decisions.
    QString debugString(int maxLength = 200) const;

private:
    friend struct ReplyBuilder; // the decoder fills arrays in place
    Type m_type = Type::Nil;
    qint64 m_integer = 0;
    QByteArray m_bytes;
    QList<Reply> m_elements;
};

using ReplyResult = core::Result<Reply, RedisError>;

} // namespace redis
