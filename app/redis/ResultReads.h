// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reply.h"

namespace redis {

// The strict reads of Reply applied to a command's result: the error of a command that
// failed (server, transport) passes through unchanged, so a caller asks one question.
inline Decoded<qint64> integerOf(const ReplyResult &r)
{
    return r.ok() ? r->integer() : Decoded<qint64>(r.error());
}

inline Decoded<QByteArray> stringOf(const ReplyResult &r)
{
    return r.ok() ? r->string() : Decoded<QByteArray>(r.error());
}

inline Decoded<QList<Reply>> arrayOf(const ReplyResult &r)
{
    return r.ok() ? r->array() : Decoded<QList<Reply>>(r.error());
}

} // namespace redis
