// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes from a server into the RESP decoder, and every reply it completes into the typed
// decoders the console reads replies with (FUNCTION LIST, COMMAND INFO, receipts). The
// decoder must never crash nor allocate from a count the server sent, and feeding the same
// bytes in pieces must give the same replies as feeding them whole.

#include "FuzzSupport.h"
#include "gate/CommandTraits.h"
#include "inventory/ReceiptCheck.h"
#include "redis/LibraryList.h"
#include "redis/RespCodec.h"

#include <cstdint>

using namespace redis;

namespace {

struct DecodedStream
{
    QList<Reply> replies;
    RespDecoder::Status last = RespDecoder::Status::NeedMore;
};

DecodedStream decode(const QByteArray &bytes, qsizetype chunk)
{
    DecodedStream out;
    RespDecoder d;
    Reply r;
    for (qsizetype at = 0; at < bytes.size() && out.last != RespDecoder::Status::Failed;
         at += chunk) {
        d.feed(bytes.constData() + at, qMin(chunk, bytes.size() - at));
        while ((out.last = d.next(&r)) == RespDecoder::Status::Complete)
            out.replies << r;
    }
    return out;
}

void readTyped(const QList<Reply> &replies)
{
    gate::CommandTraits traits;
    for (const Reply &r : replies) {
        (void)r.debugString();
        (void)r.asInteger();
        const auto libs = decodeFunctionList(r);
        if (libs.ok())
            traits.setFunctions(libs.value());
        (void)inventory::decodeReceiptFunctionReply("idem:{1}:2", r).verdict();
        traits.addCommandInfo({"get", "set", "fcall"}, r);
    }
    (void)traits.decideAfterLookup({"FCALL", "inventory_deduct_v1", "2", "a", "b"}, {});
    (void)traits.decideAfterLookup({"SET", "k", "v"}, {});
    if (replies.size() >= 4) {
        QList<ReplyResult> four(replies.begin(), replies.begin() + 4);
        (void)inventory::decodeDirectReceipt("idem:{1}:2", four).verdict();
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    // The first byte chooses how the bytes arrive: a server's reply may be cut anywhere.
    const qsizetype chunk = 1 + data[0] % 16;
    const QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));

    const DecodedStream whole = decode(bytes, qMax<qsizetype>(1, bytes.size()));
    const DecodedStream pieces = decode(bytes, chunk);
    FUZZ_CHECK(whole.last == pieces.last);
    FUZZ_CHECK(whole.replies.size() == pieces.replies.size());
    for (qsizetype i = 0; i < whole.replies.size(); ++i)
        FUZZ_CHECK(whole.replies[i].debugString(1 << 20) == pieces.replies[i].debugString(1 << 20));

    readTyped(whole.replies);
    return 0;
}
