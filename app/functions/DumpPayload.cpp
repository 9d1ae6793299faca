// SPDX-License-Identifier: GPL-3.0-or-later
#include "DumpPayload.h"

#include <QString>

namespace functions {

namespace {

constexpr unsigned char OpcodeFunction2 = 0xf5;     // RDB_OPCODE_FUNCTION2 (Redis 7.0 GA)
constexpr unsigned char OpcodeFunctionPreGa = 0xf6; // 7.0 release candidates only
constexpr int TrailerSize = 10;                     // RDB version (2) + CRC64 (8)
// A library is at most what our own policy loads (1 MiB), and Redis's own proto limit is
// 512 MB: anything claiming more than this is malformed, not large.
constexpr quint64 MaxStringLength = 64u * 1024 * 1024;

class Reader
{
public:
    Reader(const QByteArray &bytes, qsizetype end)
        : m_bytes(bytes)
        , m_end(end)
    {}

    bool atEnd() const { return m_pos >= m_end; }
    std::optional<quint8> byte()
    {
        if (m_pos >= m_end)
            return std::nullopt;
        return quint8(m_bytes.at(m_pos++));
    }
    std::optional<QByteArray> take(quint64 n)
    {
        if (n > quint64(m_end - m_pos))
            return std::nullopt;
        const QByteArray out = m_bytes.mid(m_pos, qsizetype(n));
        m_pos += qsizetype(n);
        return out;
    }
    std::optional<quint64> bigEndian(int width)
    {
        quint64 v = 0;
        for (int i = 0; i < width; ++i) {
            const auto b = byte();
            if (!b)
                return std::nullopt;
            v = (v << 8) | *b;
        }
        return v;
    }

    // rdbLoadLen: the length, or the encoding of a special string (isEncoded).
    std::optional<quint64> length(bool *isEncoded)
    {
        *isEncoded = false;
        const auto first = byte();
        if (!first)
            return std::nullopt;
        switch (*first >> 6) {
        case 0:
            return *first & 0x3f;
        case 1: {
            const auto second = byte();
            if (!second)
                return std::nullopt;
            return (quint64(*first & 0x3f) << 8) | *second;
        }
        case 2:
            if (*first == 0x80)
                return bigEndian(4);
            if (*first == 0x81)
                return bigEndian(8);
            return std::nullopt;
        default:
            *isEncoded = true;
            return *first & 0x3f;
        }
    }

    // rdbGenericLoadStringObject: a raw, integer-encoded or LZF-compressed string.
    core::Result<QByteArray, QString> string()
    {
        bool encoded = false;
        const auto len = length(&encoded);
        if (!len)
            return QStringLiteral("a truncated string length");
        if (!encoded) {
            if (*len > MaxStringLength)
                return QStringLiteral("a string of %1 bytes").arg(*len);
            const auto raw = take(*len);
            if (!raw)
                return QStringLiteral("a truncated string");
            return *raw;
        }
        switch (*len) {
        case 0:
        case 1:
        case 2: {
            // Little-endian signed integers of 1, 2, 4 bytes, kept as their decimal text.
            const int width = 1 << *len;
            const auto raw = take(width);
            if (!raw)
                return QStringLiteral("a truncated integer");
            qint64 v = 0;
            for (int i = width - 1; i >= 0; --i)
                v = (v << 8) | quint8(raw->at(i));
            if (v & (qint64(1) << (width * 8 - 1)))
                v -= qint64(1) << (width * 8);
            return QByteArray::number(v);
        }
        case 3:
            return compressed();
        default:
            return QStringLiteral("an unknown string encoding %1").arg(*len);
        }
    }

private:
    core::Result<QByteArray, QString> compressed()
    {
        bool encoded = false;
        const auto clen = length(&encoded);
        const auto len = encoded || !clen ? std::nullopt : length(&encoded);
        if (!clen || !len || encoded)
            return QStringLiteral("a malformed compressed string");
        if (*len > MaxStringLength)
            return QStringLiteral("a compressed string of %1 bytes").arg(*len);
        const auto in = take(*clen);
        if (!in)
            return QStringLiteral("a truncated compressed string");
        return lzfDecompress(*in, qsizetype(*len));
    }

    // liblzf's lzf_decompress, every reference checked against what is already written.
    static core::Result<QByteArray, QString> lzfDecompress(const QByteArray &in, qsizetype len)
    {
        QByteArray out;
        out.reserve(len);
        qsizetype ip = 0;
        const auto bad = QStringLiteral("a corrupt compressed string");
        while (ip < in.size()) {
            quint32 ctrl = quint8(in.at(ip++));
            if (ctrl < (1 << 5)) {
                ++ctrl; // a literal run
                if (ip + qsizetype(ctrl) > in.size() || out.size() + qsizetype(ctrl) > len)
                    return bad;
                out.append(in.constData() + ip, ctrl);
                ip += ctrl;
                continue;
            }
            qsizetype n = ctrl >> 5; // a back reference
            if (n == 7) {
                if (ip >= in.size())
                    return bad;
                n += quint8(in.at(ip++));
            }
            if (ip >= in.size())
                return bad;
            const qsizetype back = (qsizetype(ctrl & 0x1f) << 8) + quint8(in.at(ip++)) + 1;
            n += 2;
            if (back > out.size() || out.size() + n > len)
                return bad;
            for (qsizetype i = 0, from = out.size() - back; i < n; ++i)
                out.append(out.at(from + i)); // byte by byte: the source may overlap
        }
        if (out.size() != len)
            return bad;
        return out;
    }

    const QByteArray &m_bytes;
    qsizetype m_end;
    qsizetype m_pos = 0;
};

} // namespace

quint64 redisCrc64(const QByteArray &bytes)
{
    // 0xad93d23594c935a9 bit-reversed: Redis computes the reflected form, init 0, no xor out.
    constexpr quint64 Poly = 0x95ac9329ac4bc9b5ULL;
    quint64 crc = 0;
    for (const char c : bytes) {
        crc ^= quint8(c);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ Poly : crc >> 1;
    }
    return crc;
}

core::Result<DumpContents, QString> readDump(const QByteArray &payload)
{
    if (payload.size() < TrailerSize)
        return QStringLiteral("the dump is %1 bytes, shorter than its trailer").arg(payload.size());
    const qsizetype body = payload.size() - 8;
    quint64 stored = 0;
    for (int i = 7; i >= 0; --i)
        stored = (stored << 8) | quint8(payload.at(body + i));
    if (redisCrc64(payload.left(body)) != stored)
        return QStringLiteral("the dump's checksum is wrong (Redis refuses it too)");
    DumpContents out;
    out.rdbVersion = quint16(quint8(payload.at(body - 2)) | (quint8(payload.at(body - 1)) << 8));
    Reader r(payload, payload.size() - TrailerSize);
    while (!r.atEnd()) {
        const quint8 opcode = *r.byte();
        if (opcode == OpcodeFunctionPreGa)
            return QStringLiteral("the dump uses the pre-GA function format");
        if (opcode != OpcodeFunction2)
            return QStringLiteral("the dump holds something other than a library (opcode %1)")
                .arg(opcode);
        auto code = r.string();
        if (!code)
            return QStringLiteral("library %1 of the dump: %2")
                .arg(out.codes.size() + 1)
                .arg(code.error());
        out.codes << code.value();
    }
    return out;
}

} // namespace functions
