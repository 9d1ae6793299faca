#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace inventory {

// One write the console performed (or tried to): a deduction, a TTL change, a delete, a
// library load or rollback.
struct AuditRecord
{
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

    core::Result<bool, QString> append(AuditRecord record) const;

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

// Arguments safe to log: secrets (AUTH, HELLO ... AUTH, ACL SETUSER >pass, CONFIG SET
// requirepass/masterauth, MIGRATE ... AUTH) are replaced by "(redacted)".
QList<QByteArray> redactCommand(const QList<QByteArray> &command);

} // namespace inventory
