// SPDX-License-Identifier: GPL-3.0-or-later
// A FUNCTION DUMP payload from a backup file into the offline RDB reader (opcodes, RDB string
// lengths, LZF), which decides whether a restore may touch a library. The checksum would
// stop almost every input at the door, so the target appends a correct one to the input:
// the bytes reach the string and LZF readers. Whatever the reader accepts is code it will
// inspect: holding it must not exceed what the payload could decompress to.

#include "FuzzSupport.h"
#include "functions/DumpPayload.h"

#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray payload(reinterpret_cast<const char *>(data), qsizetype(size));
    const quint64 crc = functions::redisCrc64(payload);
    for (int i = 0; i < 8; ++i)
        payload.append(char((crc >> (8 * i)) & 0xff));
    const auto dump = functions::readDump(payload);
    if (!dump.ok())
        return 0;
    for (const QByteArray &code : dump->codes)
        FUZZ_CHECK(code.size() <= 1 << 29); // within what an RDB string may declare
    // Without the fixed checksum the same bytes are refused, never read.
    QByteArray broken = payload;
    broken[broken.size() - 1] = char(broken.back() ^ 1);
    FUZZ_CHECK(!functions::readDump(broken).ok());
    return 0;
}
