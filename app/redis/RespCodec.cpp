#include "RespCodec.h"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>

#include <charconv>
#include <cstring>
#include <vector>

namespace redis {

namespace {
char *putLength(char *p, char prefix, qsizetype n)
{
    *p++ = prefix;
    p = std::to_chars(p, p + 20, n).ptr;
    *p++ = '\r';
    *p++ = '\n';
    return p;
}
} // namespace

qsizetype encodedSizeBound(const Command &args)
{
    qsizetype need = 24; // "*<count>\r\n"
    for (const QByteArray &a : args)
        need += a.size() + 26; // "$<len>\r\n" + bytes + "\r\n"
    return need;
}

void appendEncodedCommand(QByteArray &out, const Command &args)
{
    // The same bytes as hiredis's redisFormatCommandArgv (a unit test compares them), written
    // straight into the output buffer: the hiredis formatter allocates and formats with
    // sprintf, which cost over half of the transport's CPU time in scripts/bench transport.
    const qsizetype old = out.size();
    out.resize(old + encodedSizeBound(args));
    char *const start = out.data() + old;
    char *p = putLength(start, '*', args.size());
    for (const QByteArray &a : args) {
        p = putLength(p, '$', a.size());
        std::memcpy(p, a.constData(), size_t(a.size()));
        p += a.size();
        *p++ = '\r';
        *p++ = '\n';
    }
    out.truncate(old + (p - start));
}

QByteArray encodeCommand(const Command &args)
{
    QByteArray out;
    appendEncodedCommand(out, args);
    return out;
}

QByteArray encodeCommandWithHiredis(const Command &args)
{
    std::vector<const char *> argv;
    std::vector<size_t> lens;
    for (const QByteArray &a : args) {
        argv.push_back(a.constData());
        lens.push_back(size_t(a.size()));
    }
    char *target = nullptr;
    const int len = redisFormatCommandArgv(&target, int(argv.size()), argv.data(), lens.data());
    if (len < 0 || !target)
        return {};
    QByteArray out(target, len);
    redisFreeCommand(target);
    return out;
}

// hiredis builds replies through these callbacks; building our Reply in place avoids a
// second tree of redisReply objects and a copy of every string.
struct ReplyBuilder
{
    static void *place(const redisReadTask *task, Reply &&value)
    {
        if (!task->parent)
            return new Reply(std::move(value));
        auto *parent = static_cast<Reply *>(task->parent->obj);
        Reply &slot = parent->m_elements[task->idx];
        slot = std::move(value);
        return &slot;
    }
    static void *createString(const redisReadTask *task, char *str, size_t len)
    {
        QByteArray bytes(str, qsizetype(len));
        switch (task->type) {
        case REDIS_REPLY_STATUS:
            return place(task, Reply::status(std::move(bytes)));
        case REDIS_REPLY_ERROR:
            return place(task, Reply::error(std::move(bytes)));
        default:
            return place(task, Reply::bulk(std::move(bytes)));
        }
    }
    static void *createArray(const redisReadTask *task, int elements)
    {
        return place(task, Reply::array(QList<Reply>(elements)));
    }
    static void *createInteger(const redisReadTask *task, long long value)
    {
        return place(task, Reply::integer(value));
    }
    static void *createNil(const redisReadTask *task) { return place(task, Reply::nil()); }
    // hiredis frees only the root; children live inside it.
    static void freeObject(void *obj) { delete static_cast<Reply *>(obj); }
};

namespace {
redisReplyObjectFunctions replyFunctions = {ReplyBuilder::createString, ReplyBuilder::createArray,
                                            ReplyBuilder::createInteger, ReplyBuilder::createNil,
                                            ReplyBuilder::freeObject};
} // namespace

void RespDecoder::ReaderDeleter::operator()(redisReader *r) const
{
    redisReaderFree(r);
}

RespDecoder::RespDecoder()
{
    reset();
}

RespDecoder::~RespDecoder() = default;

void RespDecoder::reset()
{
    m_reader.reset(redisReaderCreateWithFunctions(&replyFunctions));
    m_error.clear();
}

void RespDecoder::feed(const char *data, qsizetype size)
{
    if (size > 0)
        redisReaderFeed(m_reader.get(), data, size_t(size));
}

RespDecoder::Status RespDecoder::next(Reply *out)
{
    if (!m_error.isEmpty())
        return Status::Failed;
    void *raw = nullptr;
    if (redisReaderGetReply(m_reader.get(), &raw) != REDIS_OK) {
        m_error = QString::fromUtf8(m_reader->errstr);
        if (m_error.isEmpty())
            m_error = QStringLiteral("unparseable reply");
        return Status::Failed;
    }
    if (!raw)
        return Status::NeedMore;
    auto *root = static_cast<Reply *>(raw);
    *out = std::move(*root);
    delete root;
    return Status::Complete;
}

} // namespace redis
