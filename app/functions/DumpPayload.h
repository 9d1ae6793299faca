// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QList>

namespace functions {

// What a FUNCTION DUMP payload holds, read without a server. The payload is RDB: one
// RDB_OPCODE_FUNCTION2 byte and one RDB string (the library's code, often LZF-compressed) per
// library, then the RDB version (2 bytes, little-endian) and a CRC64 of everything before it.
// Read before a restore, so that the libraries a dump would install are known from the dump
// itself and not only from what the backup file lists next to it.
struct DumpContents
{
    quint16 rdbVersion = 0;
    QList<QByteArray> codes; // each library's code, shebang included, in payload order
};

// Refuses (with why) anything Redis 7.0 would not restore, or that this reader cannot follow:
// a wrong checksum, another opcode, a truncated or malformed string.
core::Result<DumpContents, QString> readDump(const QByteArray &payload);

// Redis's CRC64 (Jones polynomial, reflected), as DUMP and FUNCTION DUMP append it.
quint64 redisCrc64(const QByteArray &bytes);

} // namespace functions
