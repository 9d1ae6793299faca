// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace inventory {

// One write the console performed (or tried to): a deduction, a TTL change, a delete, a
// library load or rollback.
//
// Write-ahead: before a write is sent, an Attempt record is appended (and fsynced); when the
// outcome is known, an Outcome record with the same attemptId follows. An attempt with no
// outcome means the console stopped (killed, crashed, power lost) between sending and the
// reply: the command may or may not have run. Logs written before write-ahead records hold
// only Single records (no phase, no attempt id) and still load.
struct AuditRecord
{
    enum class Phase { Single, Attempt, Outcome };

    QDateTime timeUtc; // filled by append() when invalid
    QString osUser;    // filled by append() when empty
    QString action;    // deduct | expire | persist | delete | function-load | ...
    QString profile;
    QString server;            // host:port
    QString runId;             // the server's run_id, when known
    QList<QByteArray> command; // the exact arguments sent; never a password
    QString result;            // the outcome in words, or "outcome unknown"
    bool outcomeUnknown = false;
    qint64 durationMs = -1;
    QString detail; // optional: e.g. the backup path of a library load
    Phase phase = Phase::Single;
    QString attemptId; // shared by an attempt and its outcome; empty for Single records

    QByteArray toJsonLine() const; // one line, no newline
    static core::Result<AuditRecord, QString> fromJsonLine(const QByteArray &line);
};

// An append-only JSON-lines file. Each record is written, flushed and fsynced before
// append() returns, so a console killed right after a write loses no record. Several
// processes may append at once (the GUI and inventory-cli): each append takes an exclusive
// lock on the file.
class AuditLog
{
public:
    explicit AuditLog(QString path = defaultPath());
    static QString defaultPath(); // core::sharedDataDirectory()/audit.jsonl
    QString path() const { return m_path; }

    core::Result<bool, core::Sentence> append(AuditRecord record) const;

    // Appends `record` as an Attempt with a new attempt id, before its command is sent, and
    // returns it as written (attemptId set). On failure the error says that the audit log at
    // path() could not be written and why: the caller must then not send the command.
    core::Result<AuditRecord, core::Sentence> appendAttempt(AuditRecord record) const;
    // Appends `record` as the Outcome of the attempt `attemptId`.
    core::Result<bool, core::Sentence> appendOutcome(AuditRecord record,
                                                     const QString &attemptId) const;

    struct ReadResult
    {
        QList<AuditRecord> records;
        QStringList problems; // e.g. "line 42: truncated or corrupt record skipped"
    };
    // Reads every record; a corrupt or truncated line is reported and skipped, never fatal.
    static ReadResult read(const QString &path);

private:
    QString m_path;
};

// The result an attempt with no outcome record is shown with.
QString noOutcomeRecordedText();

// The records as a reader sees them, in file order: an attempt with its outcome becomes one
// row (the outcome, at the outcome's place); an attempt with no outcome stays, its result set
// to noOutcomeRecordedText() and marked outcome unknown (its phase stays Attempt, which is how
// a viewer tells it apart). Single records and outcomes without an attempt pass unchanged.
QList<AuditRecord> pairAttempts(const QList<AuditRecord> &records);

// Arguments safe to log: secrets (AUTH, HELLO ... AUTH, ACL SETUSER >pass, CONFIG SET
// requirepass/masterauth, MIGRATE ... AUTH) are replaced by "(redacted)".
QList<QByteArray> redactCommand(const QList<QByteArray> &command);

} // namespace inventory
