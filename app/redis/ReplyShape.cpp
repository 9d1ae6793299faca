// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplyShape.h"

namespace redis {

namespace {
core::Sentence shapeSays(const char *source)
{
    return core::Sentence::translated("redis::ReplyShape", source);
}
} // namespace

core::Sentence replyShape(const Reply &reply)
{
    switch (reply.type()) {
    case Reply::Type::Nil:
        return shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "nil"));
    case Reply::Type::Integer:
        return shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "an integer"));
    case Reply::Type::Bulk:
        return reply.asInteger() ? shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "a number"))
                                 : shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "a string"));
    case Reply::Type::Status:
        return shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "a status line"));
    case Reply::Type::Error:
        return shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "an error"));
    case Reply::Type::Array:
        if (reply.size() == 0)
            return shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "an empty array"));
        return reply.size() == 1
                   ? shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "an array of 1 element"))
                   : shapeSays(QT_TRANSLATE_NOOP("redis::ReplyShape", "an array of %1 elements"))
                         .arg(reply.size());
    }
    return {};
}

} // namespace redis
