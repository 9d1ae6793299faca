#include "RespCodec.h"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>

#include <vector>

namespace redis {

QByteArray encodeCommand(const Command &args)
{
    std::vector<const char *> argv;
    std::vector<size_t> lens;
    argv.reserve(args.size());
    lens.reserve(args.size());
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

namespace {

Reply convert(const redisReply *r)
{
    switch (r->type) {
    case REDIS_REPLY_STRING:
        return Reply::bulk(QByteArray(r->str, qsizetype(r->len)));
    case REDIS_REPLY_STATUS:
        return Reply::status(QByteArray(r->str, qsizetype(r->len)));
    case REDIS_REPLY_ERROR:
        return Reply::error(QByteArray(r->str, qsizetype(r->len)));
    case REDIS_REPLY_INTEGER:
        return Reply::integer(r->integer);
    case REDIS_REPLY_ARRAY: {
        QList<Reply> elements;
        elements.reserve(qsizetype(r->elements));
        for (size_t i = 0; i < r->elements; ++i)
            elements.append(convert(r->element[i]));
        return Reply::array(std::move(elements));
    }
    case REDIS_REPLY_NIL:
    default:
        return Reply::nil();
    }
}

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
    m_reader.reset(redisReaderCreate());
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
    *out = convert(static_cast<redisReply *>(raw));
    freeReplyObject(raw);
    return Status::Complete;
}

} // namespace redis
