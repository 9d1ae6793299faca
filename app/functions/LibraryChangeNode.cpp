// SPDX-License-Identifier: GPL-3.0-or-later
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

namespace {

constexpr const char *NodeContext = "functions::LibraryChange";

core::Sentence nodeSentence(const char *source)
{
    return core::Sentence::translated(NodeContext, source);
}

NodeOutcome refusedOutcome(const QString &address, const core::Sentence &why)
{
    NodeOutcome o;
    o.address = address;
    o.message = why;
    return o;
}

// What the server answered, when the verification could not be read.
core::Sentence replySentence(const QString &address, const redis::ReplyResult &reply)
{
    if (reply.ok())
        return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange", "the server said OK"));
    if (reply.error().kind == redis::RedisError::Kind::Server)
        return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange", "refused by %1: %2"))
            .arg(address, reply.error().message);
    return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange", "no reply (%1)"))
        .arg(reply.error().toString());
}

// What the node's verification says happened, in words. A dead or silent server is not
// evidence either way: an unreadable verification is never worded as "made" or "not made".
core::Sentence verifiedMessage(const QString &address, const NodeState &before,
                               const NodeState &after, const redis::ReplyResult &reply,
                               const NodeOutcome &o, const core::Sentence &wrong)
{
    if (!after.error.isEmpty())
        return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                              "%1; the verification could not be read (%2), so "
                                              "what %3 holds now is unknown: read its "
                                              "libraries before anything else"))
            .arg(replySentence(address, reply), after.error, address);
    if (reply.ok() && o.verified)
        return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                              "done and verified: %1 holds exactly the expected "
                                              "code"))
            .arg(address);
    if (reply.ok())
        return nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                              "the server said OK but the verification failed: "
                                              "%1"))
            .arg(wrong);
    if (o.outcomeUnknown)
        return (o.verified ? nodeSentence(QT_TRANSLATE_NOOP(
                    "functions::LibraryChange", "%1; the verification shows the change was made"))
                           : nodeSentence(QT_TRANSLATE_NOOP(
                               "functions::LibraryChange",
                               "%1; the verification shows the change was not made")))
            .arg(reply.error().toString());
    const core::Sentence unchanged = libraryDifference(before.libraries, after.libraries);
    return (unchanged.isEmpty()
                ? nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                                 "refused by %1: %2; the previous libraries "
                                                 "are still in place (verified)"))
                      .arg(address, reply.error().message)
                : nodeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                                 "refused by %1: %2; the libraries differ from "
                                                 "before: %3"))
                      .arg(address, reply.error().message, unchanged));
}

// The outcome of a command that was sent, judged by what the node holds now rather than by
// the reply alone.
NodeOutcome verifiedOutcome(const QString &address, const ChangeSpec &spec, const NodeState &before,
                            const NodeState &after, const redis::ReplyResult &reply)
{
    NodeOutcome o;
    o.address = address;
    o.attempted = true;
    o.applied = reply.ok();
    o.outcomeUnknown = !reply.ok() && reply.error().mayHaveRun();
    const core::Sentence wrong = after.error.isEmpty()
                                     ? libraryDifference(spec.predict(before), after.libraries)
                                     : after.error;
    o.verified = wrong.isEmpty();
    o.message = verifiedMessage(address, before, after, reply, o, wrong);
    if (o.outcomeUnknown && o.verified)
        o.applied = true;
    return o;
}

} // namespace

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
        [this, step = NodeStep{target, spec, done, {}, {}}, expectedBefore,
         locked](const QList<redis::ReplyResult> &r) mutable {
            step.run.before = decodeState(step.target.address, r);
            step.run.after = step.run.before;
            if (const core::Sentence why = rereadRefusal(step, expectedBefore, locked, r);
                !why.isEmpty()) {
                step.run.outcome = refusedOutcome(step.target.address, why);
                return step.done(step.run);
            }
            step.command = step.spec.command(step.run.before);
            if (step.command.isEmpty()) {
                step.run.outcome = refusedOutcome(
                    step.target.address,
                    nodeSentence(QT_TR_NOOP("nothing to change: the node already holds the "
                                            "result")));
                step.run.outcome.applied = true;
                step.run.outcome.verified = true;
                return step.done(step.run);
            }
            sendOnNode(std::move(step));
        },
        m_context.timeoutMs);
}

core::Sentence
LibraryChange::rereadRefusal(const NodeStep &step,
                             const std::optional<QList<redis::LibraryInfo>> &expectedBefore,
                             bool locked, const QList<redis::ReplyResult> &r) const
{
    const qsizetype lockAt = stateCommands().size();
    if (locked)
        if (const core::Sentence lost =
                m_lease->heldBy(step.target.address, replyAt(r, lockAt), replyAt(r, lockAt + 1));
            !lost.isEmpty())
            return lost;
    core::Sentence moved = step.run.before.error;
    if (moved.isEmpty() && expectedBefore)
        moved = libraryDifference(*expectedBefore, step.run.before.libraries);
    if (!moved.isEmpty())
        return nodeSentence(QT_TR_NOOP("%1 changed since the backup (%2): nothing was "
                                       "sent; read the state again"))
            .arg(step.target.address, moved);
    return {};
}

void LibraryChange::sendOnNode(NodeStep step)
{
    const QString &address = step.target.address;
    const NodeState &before = step.run.before;
    const auto refuse = [&](const core::Sentence &why) {
        step.run.outcome = refusedOutcome(address, why);
        step.done(step.run);
    };
    // 2. Write-ahead: the attempt is on disk before the command is sent, or it is
    // not sent. Then send, through the loading user's connection.
    const auto attempt = auditLog().appendAttempt(auditRecord(step.spec, before, step.command));
    if (!attempt.ok()) {
        const core::Sentence why =
            nodeSentence(QT_TR_NOOP("nothing was sent to %1: %2")).arg(address, attempt.error());
        qCWarning(lcFunctions) << why.english;
        return refuse(why);
    }
    // The journal says, if this process dies before the verification, what was in
    // flight: the next start reads the node and tells (LoadJournal.h).
    LoadJournalEntry journal = journalEntry(step.spec, before);
    if (auto written = writeLoadJournal(m_context.backupDirectory, journal); !written) {
        inventory::AuditRecord unsent = auditRecord(step.spec, before, step.command);
        unsent.result = QStringLiteral("not sent: %1").arg(written.error().english);
        [[maybe_unused]] const auto recorded =
            auditLog().appendOutcome(unsent, attempt.value().attemptId);
        return refuse(nodeSentence(QT_TR_NOOP("nothing was sent to %1: the load journal could "
                                              "not be written: %2"))
                          .arg(address, written.error()));
    }
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    step.target.loadVia().send(
        step.command, this,
        [this, step, clock, journal,
         attemptId = attempt.value().attemptId](const redis::ReplyResult &reply) {
            verifyOnNode(step, reply, clock->elapsed(), attemptId, journal);
        },
        m_context.timeoutMs);
}

void LibraryChange::verifyOnNode(NodeStep step, const redis::ReplyResult &reply, qint64 ms,
                                 const QString &attemptId, const LoadJournalEntry &journal)
{
    // 3. Verify what the node holds now, whatever the reply said.
    step.target.loadVia().sendBatch(
        stateCommands(), this,
        [this, step, reply, ms, attemptId, journal](const QList<redis::ReplyResult> &r) mutable {
            NodeRun &run = step.run;
            run.after = decodeState(step.target.address, r);
            // Read back: the user is told now. Unread, the journal stays for the next start
            // to read the node again.
            if (run.after.error.isEmpty())
                clearLoadJournal(journal);
            run.outcome =
                verifiedOutcome(step.target.address, step.spec, run.before, run.after, reply);
            audit(step.spec, run.before, step.command, attemptId, run.outcome, reply, ms);
            qCInfo(lcFunctions) << actionName(step.spec.action) << step.spec.library << "on"
                                << step.target.address << run.outcome.message.english;
            step.done(run);
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
                                 : QStringLiteral("error: %1").arg(reply.error().message.english));
    if (auto written = auditLog().appendOutcome(r, attemptId); !written)
        outcome.message = nodeSentence(QT_TR_NOOP("%1 (the audit record could not be written: %2)"))
                              .arg(outcome.message, written.error());
}

} // namespace functions
