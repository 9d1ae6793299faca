// SPDX-License-Identifier: GPL-3.0-or-later
#include "Slot.h"

#include <array>

namespace redis {

namespace {
constexpr std::array<quint16, 256> makeTable()
{
    std::array<quint16, 256> t{};
    for (int i = 0; i < 256; ++i) {
        quint16 crc = quint16(i << 8);
        for (int b = 0; b < 8; ++b)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        t[size_t(i)] = crc;
    }
    return t;
}
constexpr auto crcTable = makeTable();

quint16 crc16(const char *p, qsizetype n)
{
    quint16 crc = 0;
    for (qsizetype i = 0; i < n; ++i)
        crc = quint16((crc << 8) ^ crcTable[size_t(((crc >> 8) ^ quint8(p[i])) & 0xFF)]);
    return crc;
}
} // namespace

QByteArray hashTagOf(const QByteArray &key)
{
    const qsizetype open = key.indexOf('{');
    if (open < 0)
        return key;
    const qsizetype close = key.indexOf('}', open + 1);
    if (close < 0 || close == open + 1)
        return key;
    return key.mid(open + 1, close - open - 1);
}

int keySlot(const QByteArray &key)
{
    const QByteArray tag = hashTagOf(key);
    return crc16(tag.constData(), tag.size()) & (SlotCount - 1);
}

} // namespace redis
