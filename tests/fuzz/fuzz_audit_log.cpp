// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes on disk into the audit-log reader: a log another process (or a crash mid-append, or a
// disk fault) left behind. Reading never crashes and never stops at a bad line, and every
// record read writes back as a line that reads as the same record.

#include "FuzzSupport.h"
#include "inventory/AuditLog.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstdint>

using namespace inventory;

namespace {
QString logPath()
{
    static QTemporaryDir dir;
    return dir.filePath(QStringLiteral("audit.jsonl"));
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    {
        QFile f(logPath());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            fuzz::broken("cannot write the temporary log");
        f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    const AuditLog::ReadResult read = AuditLog::read(logPath());
    for (const AuditRecord &r : read.records) {
        const QByteArray line = r.toJsonLine();
        FUZZ_CHECK(!line.contains('\n'));
        const auto again = AuditRecord::fromJsonLine(line);
        FUZZ_CHECK(again.ok());
        FUZZ_CHECK(again.value().toJsonLine() == line);
    }
    (void)pairAttempts(read.records);
    for (const AuditRecord &r : read.records)
        (void)redactCommand(r.command);
    return 0;
}
