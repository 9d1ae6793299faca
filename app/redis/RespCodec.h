// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reply.h"

#include <QByteArray>
#include <QList>
#include <memory>

struct redisReader;

namespace redis {

using Command = QList<QByteArray>;

// Encodes one command as a RESP array of bulk strings: every argument is length-prefixed, so
// user values are never spliced into command text.
QByteArray encodeCommand(const Command &args);
void appendEncodedCommand(QByteArray &out, const Command &args);
// An upper bound of the encoded size, to reserve a buffer for a batch once.
qsizetype encodedSizeBound(const Command &args);
// hiredis's redisFormatCommandArgv, the reference the encoder is tested against.
QByteArray encodeCommandWithHiredis(const Command &args);

// What one reply may make the client hold. hiredis 0.14 trusts the counts and lengths a
// server sends (a 14-byte "*2147483647" once made us allocate 2^31 replies and crash), so
// the decoder refuses, as a protocol error, any reply beyond these before holding it.
struct RespLimits
{
    // Arrays inside arrays: hiredis 0.14 itself refuses more than 8 levels ("No support for
    // nested multi bulk replies with depth > 7", its task stack), and Redis 7's COMMAND INFO
    // (read by the write gate) needs about that many, so no lower cap is added here.
    // Elements declared by all the arrays of one reply together.
    static constexpr qint64 MaxElements = qint64(1) << 22; // 4,194,304
    // One bulk string: Redis's own maximum string size (proto-max-bulk-len's default).
    static constexpr qint64 MaxBulkBytes = qint64(512) << 20;
    // A status, error or integer line, or a length header, still without its CRLF.
    static constexpr qint64 MaxLineBytes = qint64(1) << 20;
};

// Incremental RESP2 decoder over hiredis's redisReader. Feed it bytes as they arrive; take
// replies while they are complete.
class RespDecoder
{
public:
    RespDecoder();
    ~RespDecoder();
    RespDecoder(const RespDecoder &) = delete;
    RespDecoder &operator=(const RespDecoder &) = delete;

    void feed(const char *data, qsizetype size);
    void feed(const QByteArray &bytes) { feed(bytes.constData(), bytes.size()); }

    enum class Status { Complete, NeedMore, Failed };
    // On Complete, *out holds the next reply. On Failed, errorString() says why and the
    // stream cannot be resumed.
    Status next(Reply *out);
    QString errorString() const { return m_error; }
    void reset();

private:
    friend struct ReplyBuilder; // the hiredis callbacks charge the budget
    struct ReaderDeleter
    {
        void operator()(redisReader *r) const;
    };
    // What the reply being built has used so far, shared with the hiredis callbacks.
    struct Budget
    {
        qint64 elements = 0;
        QString refusal; // set by a callback that refused the reply
    };
    bool refusePendingItem(); // checks the incomplete item hiredis is waiting on
    std::unique_ptr<redisReader, ReaderDeleter> m_reader;
    Budget m_budget;
    QString m_error;
};

} // namespace redis
