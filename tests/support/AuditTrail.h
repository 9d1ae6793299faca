// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The write-ahead audit trail as tests check it: every write leaves an attempt record, written
// before it was sent, and then an outcome record with the same attempt id and the same who,
// where and command.
#include "inventory/AuditLog.h"

#include <QDateTime>
#include <QSet>

namespace testsupport {

struct AuditTrail
{
    QList<inventory::AuditRecord> raw;    // the file, line by line, but the gate events
    QList<inventory::AuditRecord> writes; // inventory::pairAttempts(raw): one per write
    // The write gate's own events ("unlock", "lock"): single records, not writes.
    QList<inventory::AuditRecord> gateEvents;
    QString problem; // empty when the trail is complete and consistent
};

// Reads `path` and checks it (the gate's events set apart): no corrupt line, no record without an
// attempt id, every outcome after its own attempt (same action, profile, server, run id, command),
// no attempt left without an outcome, no attempt id used twice.
inline AuditTrail readAuditTrail(const QString &path)
{
    using inventory::AuditRecord;
    AuditTrail t;
    const auto read = inventory::AuditLog::read(path);
    const auto isGateEvent = [](const AuditRecord &r) {
        return r.phase == AuditRecord::Phase::Single
               && (r.action == QLatin1String("unlock") || r.action == QLatin1String("lock"));
    };
    for (const AuditRecord &r : read.records)
        (isGateEvent(r) ? t.gateEvents : t.raw) << r;
    t.writes = inventory::pairAttempts(t.raw);
    QStringList problems = read.problems;
    QHash<QString, AuditRecord> open; // attempts waiting for their outcome
    QSet<QString> seen;
    for (int i = 0; i < t.raw.size(); ++i) {
        const AuditRecord &r = t.raw.at(i);
        const QString where = QStringLiteral("record %1 (%2)").arg(i + 1).arg(r.action);
        if (r.phase == AuditRecord::Phase::Single || r.attemptId.isEmpty()) {
            problems << where + QStringLiteral(": no attempt id");
        } else if (r.phase == AuditRecord::Phase::Attempt) {
            if (seen.contains(r.attemptId))
                problems << where + QStringLiteral(": attempt id used twice");
            seen.insert(r.attemptId);
            open.insert(r.attemptId, r);
        } else if (!open.contains(r.attemptId)) {
            problems << where + QStringLiteral(": outcome with no attempt before it");
        } else {
            const AuditRecord a = open.take(r.attemptId);
            if (a.action != r.action || a.profile != r.profile || a.server != r.server
                || a.runId != r.runId || a.command != r.command)
                problems << where + QStringLiteral(": outcome differs from its attempt");
        }
    }
    for (const AuditRecord &a : std::as_const(open))
        problems << QStringLiteral("attempt %1 (%2) has no outcome").arg(a.attemptId, a.action);
    t.problem = problems.join(QStringLiteral("; "));
    return t;
}

// A log of single-line "deduct" records (deducted, now), `*count` of them, past `minBytes`:
// what a reader that hands long reads to a worker is tested with. `record` fills in the rest
// of each (who and where).
template<class Fill>
QByteArray bigDeductLog(qint64 minBytes, int *count, Fill record)
{
    QByteArray lines;
    int n = 0;
    while (lines.size() <= minBytes) {
        inventory::AuditRecord r = record();
        r.action = QStringLiteral("deduct");
        r.command = {"FCALL",
                     "inventory_deduct_v1",
                     "2",
                     "stock:{9}:available",
                     "idem:{9}:" + QByteArray::number(n),
                     "1",
                     "60"};
        r.result = QStringLiteral("deducted: remaining 7");
        r.timeUtc = QDateTime::currentDateTimeUtc();
        lines += r.toJsonLine() + '\n';
        ++n;
    }
    *count = n;
    return lines;
}

} // namespace testsupport
