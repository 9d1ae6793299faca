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
    struct ReaderDeleter
    {
        void operator()(redisReader *r) const;
    };
    std::unique_ptr<redisReader, ReaderDeleter> m_reader;
    QString m_error;
};

} // namespace redis
