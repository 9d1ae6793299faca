// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/AuditLog.h"
#include "inventory/DeductionContext.h"
#include "redis/CommandSender.h"

#include <QObject>

namespace browse {

// A guarded change to one key from the browser: set or remove a TTL, delete a receipt (e.g. to
// allow a deliberate re-deduction), repair a stock value the functions refuse ("12.5", "-3").
// Built first, shown as the exact command, confirmed, then run through the session's
// write-gated sender and written to the audit log.
struct KeyAction
{
    enum class Kind { SetTtl, RemoveTtl, Delete, SetStock };
    Kind kind = Kind::SetTtl;
    QByteArray key;
    qint64 ttlSeconds = 0; // SetTtl: 1 .. 31,536,000 (a year, the function's bound)
    // SetStock: the new value, exactly as it will be sent: it must be what the deduction
    // functions accept (a canonical unsigned integer, 0 .. 1,000,000,000).
    QByteArray stock;
    QString currentStock; // SetStock: the value it replaces, as shown (for the dialog only)

    static KeyAction setTtl(QByteArray key, qint64 seconds);
    static KeyAction removeTtl(QByteArray key);
    static KeyAction remove(QByteArray key);
    static KeyAction setStock(QByteArray key, QByteArray value, QString current = {});

    // Empty when the action can be sent, else why not.
    QString problem() const;
    // EXPIRE key s | PERSIST key | DEL key | SET key value XX
    redis::Command command() const;
    QString commandText() const; // the same, quoted as redis-cli would take it
    QString auditAction() const; // expire | persist | delete | set_stock
    QString consequence() const; // what the change means for deductions
    // The reply in words ("TTL set", "the key no longer exists: nothing changed", ...).
    core::Sentence describeReply(const redis::Reply &reply) const;
};

// Who and where, for the audit record; the lead's session fills it in.
struct AuditContext
{
    QString logPath; // empty: inventory::AuditLog::defaultPath()
    QString profile;
    QString server; // host:port of a standalone server (empty: the sender's address)
    // On a cluster the owner of a key's slot runs the action, not the seed; unset: standalone.
    std::function<inventory::SlotNode(int slot)> nodeForSlot;

    // The node that runs a command on `key`: named by the confirmation and the audit record.
    QString serverFor(const QByteArray &key, const QString &senderAddress) const;
};

// Sends one KeyAction at a time through the sender it is given (the write-gated one), with a
// write-ahead audit trail: an attempt record is appended (fsynced) before the command is sent,
// and the outcome record with the same attempt id once the reply is in, refused ones included.
// When the attempt record cannot be written the command is not sent: `finished` comes (queued)
// with ok false and a result that names the audit log and why. The record names the node that
// ran the command and its run_id, read with INFO just before (sent with a read of the key, so
// that on a cluster it reaches the key's owner); a MOVED on the way clears the run_id.
class KeyActionRunner : public QObject
{
    Q_OBJECT
public:
    struct Outcome
    {
        KeyAction action;
        bool ok = false;             // the server answered without error
        bool outcomeUnknown = false; // sent, no reply: it may or may not have happened
        core::Sentence result;       // in words
        core::Sentence auditProblem; // non-empty when the outcome record could not be written
    };

    // Neither is owned; the sender must outlive the runner.
    KeyActionRunner(redis::CommandSender &writer, AuditContext audit, QObject *parent = nullptr);
    void setAuditContext(const AuditContext &audit) { m_audit = audit; }
    const AuditContext &auditContext() const { return m_audit; }

    // False (nothing sent) when the action has a problem or one is still running.
    bool run(const KeyAction &action);
    bool isBusy() const { return m_busy; }

signals:
    void finished(const browse::KeyActionRunner::Outcome &outcome);

private:
    void send(const KeyAction &action, const QString &server, const QString &runId);

    redis::CommandSender &m_writer;
    AuditContext m_audit;
    bool m_busy = false;
};

} // namespace browse
