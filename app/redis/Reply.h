// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RedisError.h"
#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <optional>

namespace redis {

class Reply;
// A strict read of a reply: the value, or an Unexpected error that names what was expected and
// what came ("expected an integer, got a bulk string \"abc\""), never a silent 0 or "".
template<class T>
using Decoded = core::Result<T, RedisError>;

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

    // Strict typed access: decoders go through these. Each names the shape it wanted and
    // the one that came when they differ.
    Decoded<qint64> integer() const;           // an integer reply
    Decoded<qint64> number() const;            // an integer, or a string holding a canonical one
    Decoded<QByteArray> string() const;        // a bulk or status reply
    Decoded<QList<Reply>> array() const;       // an array reply (its elements, implicitly shared)
    Decoded<Reply> element(qsizetype i) const; // element i of an array, index checked

    // "an integer 5", "a bulk string \"abc\"", "nil", "an array of 3": what came, for the
    // errors above and for decoders that refuse a shape themselves. The words are translated,
    // the escaped bytes are the server's (the same in both copies).
    core::Sentence shape() const;
    // The error every strict read gives (Kind::Unexpected): "expected <expected>, got <shape()>";
    // `expected` is a translated sentence of the caller's ("a string").
    RedisError unexpected(const core::Sentence &expected) const;

    // Unchecked views for the codec, the transport and logs; a decoder uses the reads above.
    qint64 toInteger() const { return m_integer; }
    const QByteArray &bytes() const { return m_bytes; }
    const QList<Reply> &elements() const { return m_elements; }
    qsizetype size() const { return m_elements.size(); }
    // Checked: element i, or a nil reply when there is none; element(i) tells the two apart.
    const Reply &at(qsizetype i) const
    {
        return i >= 0 && i < m_elements.size() ? m_elements.at(i) : none();
    }

    // number() as an optional, for replies where "not a number" is an ordinary answer.
    std::optional<qint64> asInteger() const;

    // For human eyes and logs (escaped, truncated); never used to make decisions.
    QString debugString(int maxLength = 200) const;

private:
    static const Reply &none();
    friend struct ReplyBuilder; // the decoder fills arrays in place
    Type m_type = Type::Nil;
    qint64 m_integer = 0;
    QByteArray m_bytes;
    QList<Reply> m_elements;
};

using ReplyResult = core::Result<Reply, RedisError>;

} // namespace redis
