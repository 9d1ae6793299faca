// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplyShape.h"

namespace redis {

QString replyShape(const Reply &reply)
{
    switch (reply.type()) {
    case Reply::Type::Nil:
        return QStringLiteral("nil");
    case Reply::Type::Integer:
        return QStringLiteral("an integer");
    case Reply::Type::Bulk:
        return reply.asInteger() ? QStringLiteral("a number") : QStringLiteral("a string");
    case Reply::Type::Status:
        return QStringLiteral("a status line");
    case Reply::Type::Error:
        return QStringLiteral("an error");
    case Reply::Type::Array:
        if (reply.size() == 0)
            return QStringLiteral("an empty array");
        return reply.size() == 1 ? QStringLiteral("an array of 1 element")
                                 : QStringLiteral("an array of %1 elements").arg(reply.size());
    }
    return {};
}

} // namespace redis
