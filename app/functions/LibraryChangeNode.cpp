// One node's step of a LibraryChange, for the change itself and for the rollback of a
// cluster rollout: re-read, write-ahead audit, load journal, send, verify, audit outcome.
#include "ChangeLease.h"
#include "FunctionsLog.h"
#include "LibraryChange.h"
#include "LibraryVersion.h"
#include "LoadJournal.h"
#include "inventory/AuditLog.h"

#include <QElapsedTimer>

namespace functions {

void LibraryChange::applyOnNode(const ChangeTarget &target, const ChangeSpec &spec,
                                std::optional<QList<redis::LibraryInfo>> expectedBefore,
                                std::function<void(const NodeRun &)> done)
{
    // 1. Re-read: the backup (and the diff the user confirmed) must still describe the node.
    // Every step runs as the loading user (see ChangeTarget::loadVia()).
    // With it, the change lock is read: a lock that lapsed, was taken or is about to lapse
    // stops the write.
    QList<redis::Command> reread = stateCommands();
    const bool locked = m_lease->held();
    if (locked)
        reread << ChangeLease::checkCommands(target);
    target.loadVia().sendBatch(
        reread, this,
        [this, spec, expectedBefore, done, target, locked](const QList<redis::ReplyResult> &r) {
            NodeRun run;
            run.before = decodeState(target.address, r);
            const NodeState &before = run.before;
            run.after = before;
            const auto refuse = [&](const QString &why) {
                run.outcome =
                    NodeOutcome{target.address, false, false, false, false, why, {}, {}, false};
                done(run);
            };
            const qsizetype lockAt = stateCommands().size();
            if (locked)
                if (const QString lost =
                        m_lease->heldBy(target.address, replyAt(r, lockAt), replyAt(r, lockAt + 1));
                    !lost.isEmpty())
                    return refuse(lost);
            QString moved = before.error;
            if (moved.isEmpty() && expectedBefore)
                moved = compareLibraries(*expectedBefore, before.libraries);
            if (!moved.isEmpty())
                return refuse(QStringLiteral("%1 changed since the backup (%2): nothing was "
                                             "sent; read the state again")
                                  .arg(target.address, moved));
            const redis::Command command = spec.command(before);
            if (command.isEmpty()) {
                run.outcome = NodeOutcome{
                    target.address,
                    false,
                    true,
                    true,
                    false,
                    QStringLiteral("nothing to change: the node already holds the result"),
                    {},
                    {},
                    false};
                return done(run);
            }
            // 2. Write-ahead: the attempt is on disk before the command is sent, or it is
            // not sent. Then send, through the loading user's connection.
            const auto attempt = auditLog().appendAttempt(auditRecord(spec, before, command));
            if (!attempt.ok()) {
                const QString why = QStringLiteral("nothing was sent to %1: %2")
                                        .arg(target.address, attempt.error());
                qCWarning(lcFunctions) << why;
                return refuse(why);
            }
            // The journal says, if this process dies before the verification, what was in
            // flight: the next start reads the node and tells (LoadJournal.h).
            LoadJournalEntry journal = journalEntry(spec, before);
            if (auto written = writeLoadJournal(m_context.backupDirectory, journal); !written) {
                inventory::AuditRecord unsent = auditRecord(spec, before, command);
                unsent.result = QStringLiteral("not sent: %1").arg(written.error());
                [[maybe_unused]] const auto recorded =
                    auditLog().appendOutcome(unsent, attempt.value().attemptId);
                return refuse(QStringLiteral("nothing was sent to %1: the load journal could "
                                             "not be written: %2")
                                  .arg(target.address, written.error()));
            }
            auto clock = std::make_shared<QElapsedTimer>();
            clock->start();
            target.loadVia().send(
                command, this,
                [this, spec, run, done, target, command, clock, journal,
                 attemptId = attempt.value().attemptId](const redis::ReplyResult &reply) {
                    const qint64 ms = clock->elapsed();
                    // 3. Verify what the node holds now, whatever the reply said.
                    target.loadVia().sendBatch(
                        stateCommands(), this,
                        [this, spec, run, done, target, command, reply, ms, attemptId,
                         journal](const QList<redis::ReplyResult> &r) mutable {
                            const NodeState &before = run.before;
                            run.after = decodeState(target.address, r);
                            const NodeState &after = run.after;
                            // Read back: the user is told now. Unread, the journal stays for
                            // the next start to read the node again.
                            if (after.error.isEmpty())
                                clearLoadJournal(journal);
                            NodeOutcome &o = run.outcome;
                            o.address = target.address;
                            o.attempted = true;
                            o.applied = reply.ok();
                            o.outcomeUnknown = !reply.ok() && reply.error().mayHaveRun();
                            const QString wrong =
                                after.error.isEmpty()
                                    ? compareLibraries(spec.predict(before), after.libraries)
                                    : after.error;
                            const QString unchanged =
                                after.error.isEmpty()
                                    ? compareLibraries(before.libraries, after.libraries)
                                    : after.error;
                            o.verified = wrong.isEmpty();
                            // A dead or silent server is not evidence either way: never word
                            // an unreadable verification as "made" or "not made".
                            const QString unverified =
                                QStringLiteral("; the verification could not be read (%1), so "
                                               "what %2 holds now is unknown: read its "
                                               "libraries before anything else")
                                    .arg(after.error, target.address);
                            if (!after.error.isEmpty())
                                o.message = (reply.ok() ? QStringLiteral("the server said OK")
                                             : reply.error().kind == redis::RedisError::Kind::Server
                                                 ? QStringLiteral("refused by %1: %2")
                                                       .arg(target.address, reply.error().message)
                                                 : QStringLiteral("no reply (%1)")
                                                       .arg(reply.error().toString()))
                                            + unverified;
                            else if (reply.ok() && o.verified)
                                o.message = QStringLiteral("done and verified: %1 holds "
                                                           "exactly the expected code")
                                                .arg(target.address);
                            else if (reply.ok())
                                o.message = QStringLiteral("the server said OK but the "
                                                           "verification failed: %1")
                                                .arg(wrong);
                            else if (o.outcomeUnknown)
                                o.message = QStringLiteral("%1; the verification "
                                                           "shows the change %2")
                                                .arg(reply.error().toString(),
                                                     o.verified ? QStringLiteral("was made")
                                                                : QStringLiteral("was not made"));
                            else
                                o.message =
                                    QStringLiteral("refused by %1: %2; %3")
                                        .arg(target.address, reply.error().message,
                                             unchanged.isEmpty()
                                                 ? QStringLiteral("the previous libraries are "
                                                                  "still in place (verified)")
                                                 : QStringLiteral("the libraries differ from "
                                                                  "before: %1")
                                                       .arg(unchanged));
                            if (o.outcomeUnknown && o.verified)
                                o.applied = true;
                            audit(spec, before, command, attemptId, o, reply, ms);
                            qCInfo(lcFunctions) << actionName(spec.action) << spec.library << "on"
                                                << target.address << o.message;
                            done(run);
                        },
                        m_context.timeoutMs);
                },
                m_context.timeoutMs);
        },
        m_context.timeoutMs);
}

inventory::AuditLog LibraryChange::auditLog() const
{
    return inventory::AuditLog(m_context.auditPath.isEmpty() ? inventory::AuditLog::defaultPath()
                                                             : m_context.auditPath);
}

namespace {

// The library `spec` leaves on a node that held `before`, or nullptr when it leaves none.
const redis::LibraryInfo *nextLibrary(const ChangeSpec &spec,
                                      const QList<redis::LibraryInfo> &predicted)
{
    for (const redis::LibraryInfo &l : predicted)
        if (l.name == spec.library)
            return &l;
    return nullptr;
}

} // namespace

LoadJournalEntry LibraryChange::journalEntry(const ChangeSpec &spec, const NodeState &before) const
{
    LoadJournalEntry e;
    e.address = before.address;
    e.library = spec.library;
    e.action = actionName(spec.action);
    const redis::LibraryInfo *old = before.library(spec.library);
    e.fromVersion = old ? versionLabel(libraryVersion(old->code)) : QStringLiteral("absent");
    const QList<redis::LibraryInfo> predicted = spec.predict(before);
    const redis::LibraryInfo *next = nextLibrary(spec, predicted);
    e.toVersion = next ? versionLabel(libraryVersion(next->code)) : QStringLiteral("(deleted)");
    e.backupPath = backupPath();
    e.started = QDateTime::currentDateTimeUtc();
    return e;
}

inventory::AuditRecord LibraryChange::auditRecord(const ChangeSpec &spec, const NodeState &before,
                                                  const redis::Command &command) const
{
    inventory::AuditRecord r;
    r.action = QStringLiteral("function-%1").arg(actionName(spec.action));
    r.profile = m_context.profile;
    r.server = before.address;
    r.runId = before.runId;
    r.command = command;
    const redis::LibraryInfo *old = before.library(spec.library);
    const QList<redis::LibraryInfo> predicted = spec.predict(before);
    const redis::LibraryInfo *next = nextLibrary(spec, predicted);
    r.detail = QStringLiteral("library %1: %2 (sha256 %3) → %4 (sha256 %5); backup %6%7")
                   .arg(spec.library,
                        old ? versionLabel(libraryVersion(old->code)) : QStringLiteral("absent"),
                        old ? shortFingerprint(codeFingerprint(old->code)) : QStringLiteral("-"),
                        next ? versionLabel(libraryVersion(next->code)) : QStringLiteral("absent"),
                        next ? shortFingerprint(codeFingerprint(next->code)) : QStringLiteral("-"),
                        backupPath(),
                        spec.incoming.fileName.isEmpty()
                            ? QString()
                            : QStringLiteral("; from %1").arg(spec.incoming.fileName));
    return r;
}

void LibraryChange::audit(const ChangeSpec &spec, const NodeState &before,
                          const redis::Command &command, const QString &attemptId,
                          NodeOutcome &outcome, const redis::ReplyResult &reply, qint64 durationMs)
{
    inventory::AuditRecord r = auditRecord(spec, before, command);
    r.outcomeUnknown = outcome.outcomeUnknown;
    r.durationMs = durationMs;
    r.result = reply.ok() ? (outcome.verified ? QStringLiteral("ok, verified")
                                              : QStringLiteral("ok, verification failed"))
                          : (outcome.outcomeUnknown
                                 ? QStringLiteral("outcome unknown")
                                 : QStringLiteral("error: %1").arg(reply.error().message));
    if (auto written = auditLog().appendOutcome(r, attemptId); !written)
        outcome.message +=
            QStringLiteral(" (the audit record could not be written: %1)").arg(written.error());
}

} // namespace functions
