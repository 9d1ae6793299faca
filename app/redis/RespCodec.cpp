// SPDX-License-Identifier: GPL-3.0-or-later
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
// second tree of redisReply objects and a copy of every string. A callback that returns
// nullptr stops the reader (hiredis then says "Out of memory"; the budget says why).
struct ReplyBuilder
{
    using Budget = RespDecoder::Budget;
    static Budget &budget(const redisReadTask *task)
    {
        return *static_cast<Budget *>(task->privdata);
    }
    static void *refuse(const redisReadTask *task, QString why)
    {
        budget(task).refusal = std::move(why);
        return nullptr;
    }
    static void *place(const redisReadTask *task, Reply &&value)
    {
        if (!task->parent)
            return new Reply(std::move(value));
        // hiredis fills an array's elements in order, so appending keeps task->idx; only the
        // last element of each open array is ever a parent, so these pointers stay valid.
        auto *parent = static_cast<Reply *>(task->parent->obj);
        Q_ASSERT(parent->m_elements.size() == task->idx);
        parent->m_elements.append(std::move(value));
        return &parent->m_elements.last();
    }
    static void *createString(const redisReadTask *task, char *str, size_t len)
    {
        if (len > size_t(RespLimits::MaxBulkBytes))
            return refuse(task, bulkTooLong(qint64(len)));
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
        Budget &b = budget(task);
        if (!task->parent)
            b.elements = 0;
        b.elements += elements;
        if (b.elements > RespLimits::MaxElements)
            return refuse(task, QStringLiteral("the server announced a reply of %1 elements, "
                                               "above the limit of %2")
                                    .arg(b.elements)
                                    .arg(RespLimits::MaxElements));
        // Never size from the count the server sent: elements are appended as they arrive.
        QList<Reply> list;
        list.reserve(std::min(elements, 16));
        return place(task, Reply::array(std::move(list)));
    }
    static void *createInteger(const redisReadTask *task, long long value)
    {
        return place(task, Reply::integer(value));
    }
    static void *createNil(const redisReadTask *task) { return place(task, Reply::nil()); }
    // hiredis frees only the root; children live inside it.
    static void freeObject(void *obj) { delete static_cast<Reply *>(obj); }

    static QString bulkTooLong(qint64 length)
    {
        return QStringLiteral("the server announced a string of %1 bytes, above the limit of %2")
            .arg(length)
            .arg(RespLimits::MaxBulkBytes);
    }
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
    m_budget = {};
    m_reader->privdata = &m_budget; // (hiredis 0.14's redisReaderSetPrivdata casts it to int)
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
        m_error =
            !m_budget.refusal.isEmpty() ? m_budget.refusal : QString::fromUtf8(m_reader->errstr);
        if (m_error.isEmpty())
            m_error = QStringLiteral("unparseable reply");
        return Status::Failed;
    }
    if (!raw)
        return refusePendingItem() ? Status::Failed : Status::NeedMore;
    auto *root = static_cast<Reply *>(raw);
    *out = std::move(*root);
    delete root;
    return Status::Complete;
}

bool RespDecoder::refusePendingItem()
{
    // hiredis buffers an item until it is whole, without a bound: a bulk string's body up to
    // the length its header announced, a line until its CRLF. Read the item it waits on
    // (redisReader's fields are public API) and refuse it now rather than at the timeout.
    const redisReader *r = m_reader.get();
    if (r->ridx < 0)
        return false;
    const char *const p = r->buf + r->pos;
    const qsizetype pending = qsizetype(r->len - r->pos);
    const qsizetype lineEnd = QByteArrayView(p, pending).indexOf("\r\n");
    if (lineEnd < 0) {
        if (qint64(pending) <= RespLimits::MaxLineBytes)
            return false;
        m_error = QStringLiteral("the server sent a line of more than %1 bytes without its end")
                      .arg(RespLimits::MaxLineBytes);
        return true;
    }
    if (r->rstack[r->ridx].type != REDIS_REPLY_STRING)
        return false;
    // The type byte is consumed; p holds the announced length, which hiredis has read as a
    // long long (or it would have failed).
    qint64 length = 0;
    std::from_chars(p, p + lineEnd, length);
    if (length <= RespLimits::MaxBulkBytes)
        return false;
    m_error = ReplyBuilder::bulkTooLong(length);
    return true;
}

} // namespace redis
