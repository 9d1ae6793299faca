// The last steps of a LibraryChange: per node, re-read, send, verify, audit; and the
// blocking forms of every step.
#include "FunctionsLog.h"
#include "LibraryChange.h"
#include "LibraryVersion.h"
#include "LoadJournal.h"
#include "inventory/AuditLog.h"
#include "redis/Blocking.h"
#include "session/WriteGate.h"

#include <QElapsedTimer>
#include <QEventLoop>

namespace functions {

void LibraryChange::execute(std::function<void(const ExecutionReport &)> done)
{
    auto report = std::make_shared<ExecutionReport>();
    report->backupPath = backupPath();
    if (m_stage == Stage::Executed)
        report->refusal = QStringLiteral("this change was already made once; start a new one");
    else if (const QString why = stageRefusal(Stage::Confirmed); !why.isEmpty())
        report->refusal = why;
    else if (!m_context.gate || m_context.gate->isReadOnly())
        report->refusal = m_context.gate ? m_context.gate->refusalMessage()
                                         : QStringLiteral("no environment guard");
    if (!report->refusal.isEmpty())
        return done(*report);
    m_stage = Stage::Executed; // one attempt per confirmation
    executeNode(0, report, std::move(done));
}

void LibraryChange::executeNode(int index, std::shared_ptr<ExecutionReport> report,
                                std::function<void(const ExecutionReport &)> done)
{
    if (index >= m_context.nodes.size())
        return done(*report);
    const ChangeTarget target = m_context.nodes.at(index);
    // 1. Re-read: the backup (and the diff the user confirmed) must still describe the node.
    // Every step runs as the loading user (see ChangeTarget::loadVia()).
    target.loadVia().sendBatch(
        stateCommands(), this,
        [this, index, report, done, target](const QList<redis::ReplyResult> &r) {
            const NodeState before = decodeState(target.address, r);
            const NodeBackup *saved = m_backup->node(target.address);
            QString moved = before.error;
            if (moved.isEmpty() && saved)
                moved = compareLibraries(saved->libraries, before.libraries);
            if (!moved.isEmpty()) {
                const QString why = QStringLiteral("%1 changed since the backup (%2): nothing "
                                                   "was sent; read the state again")
                                        .arg(target.address, moved);
                if (index == 0)
                    report->refusal = why;
                else
                    report->nodes << NodeOutcome{target.address, false, false, false, false, why};
                return done(*report);
            }
            const redis::Command command = m_spec.command(before);
            if (command.isEmpty()) {
                report->nodes << NodeOutcome{
                    target.address, false, true, true, false, QStringLiteral("nothing to change")};
                return executeNode(index + 1, report, done);
            }
            // 2. Write-ahead: the attempt is on disk before the command is sent, or it is
            // not sent. Then send, through the loading user's connection.
            const auto attempt = auditLog().appendAttempt(auditRecord(before, command));
            if (!attempt.ok()) {
                const QString why = QStringLiteral("nothing was sent to %1: %2")
                                        .arg(target.address, attempt.error());
                qCWarning(lcFunctions) << why;
                if (index == 0)
                    report->refusal = why;
                else
                    report->nodes << NodeOutcome{target.address, false, false, false, false, why};
                return done(*report);
            }
            // The journal says, if this process dies before the verification, what was in
            // flight: the next start reads the node and tells (LoadJournal.h).
            LoadJournalEntry journal = journalEntry(before);
            if (auto written = writeLoadJournal(m_context.backupDirectory, journal); !written) {
                const QString why = QStringLiteral("nothing was sent to %1: the load journal "
                                                   "could not be written: %2")
                                        .arg(target.address, written.error());
                inventory::AuditRecord unsent = auditRecord(before, command);
                unsent.result = QStringLiteral("not sent: %1").arg(written.error());
                [[maybe_unused]] const auto recorded =
                    auditLog().appendOutcome(unsent, attempt.value().attemptId);
                if (index == 0)
                    report->refusal = why;
                else
                    report->nodes << NodeOutcome{target.address, false, false, false, false, why};
                return done(*report);
            }
            auto clock = std::make_shared<QElapsedTimer>();
            clock->start();
            target.loadVia().send(
                command, this,
                [this, index, report, done, target, before, command, clock, journal,
                 attemptId = attempt.value().attemptId](const redis::ReplyResult &reply) {
                    const qint64 ms = clock->elapsed();
                    // 3. Verify what the node holds now, whatever the reply said.
                    target.loadVia().sendBatch(
                        stateCommands(), this,
                        [this, index, report, done, target, before, command, reply, ms, attemptId,
                         journal](const QList<redis::ReplyResult> &r) {
                            const NodeState after = decodeState(target.address, r);
                            // Read back: the user is told now. Unread, the journal stays for
                            // the next start to read the node again.
                            if (after.error.isEmpty())
                                clearLoadJournal(journal);
                            NodeOutcome o;
                            o.address = target.address;
                            o.attempted = true;
                            o.applied = reply.ok();
                            o.outcomeUnknown = !reply.ok() && reply.error().outcomeUnknown();
                            const QString wrong =
                                after.error.isEmpty()
                                    ? compareLibraries(m_spec.predict(before), after.libraries)
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
                                o.message = QStringLiteral("no reply (%1); the verification "
                                                           "shows the change %2")
                                                .arg(reply.error().message,
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
                            audit(before, command, attemptId, o, reply, ms);
                            report->nodes << o;
                            qCInfo(lcFunctions) << actionName(m_spec.action) << m_spec.library
                                                << "on" << target.address << o.message;
                            // A failed node stops the rollout: the rest are left as they are.
                            if (!o.verified)
                                return done(*report);
                            executeNode(index + 1, report, done);
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

LoadJournalEntry LibraryChange::journalEntry(const NodeState &before) const
{
    LoadJournalEntry e;
    e.address = before.address;
    e.library = m_spec.library;
    e.action = actionName(m_spec.action);
    const redis::LibraryInfo *old = before.library(m_spec.library);
    e.fromVersion = old ? versionLabel(libraryVersion(old->code)) : QStringLiteral("absent");
    const QList<redis::LibraryInfo> predicted = m_spec.predict(before);
    const auto next =
        std::find_if(predicted.begin(), predicted.end(),
                     [&](const redis::LibraryInfo &l) { return l.name == m_spec.library; });
    e.toVersion = next != predicted.end() ? versionLabel(libraryVersion(next->code))
                                          : QStringLiteral("(deleted)");
    e.backupPath = backupPath();
    e.started = QDateTime::currentDateTimeUtc();
    return e;
}

inventory::AuditRecord LibraryChange::auditRecord(const NodeState &before,
                                                  const redis::Command &command) const
{
    inventory::AuditRecord r;
    r.action = QStringLiteral("function-%1").arg(actionName(m_spec.action));
    r.profile = m_context.profile;
    r.server = before.address;
    r.runId = before.runId;
    r.command = command;
    const redis::LibraryInfo *old = before.library(m_spec.library);
    const QList<redis::LibraryInfo> predicted = m_spec.predict(before);
    const auto next =
        std::find_if(predicted.begin(), predicted.end(),
                     [&](const redis::LibraryInfo &l) { return l.name == m_spec.library; });
    r.detail = QStringLiteral("library %1: %2 (sha256 %3) → %4 (sha256 %5); backup %6%7")
                   .arg(m_spec.library,
                        old ? versionLabel(libraryVersion(old->code)) : QStringLiteral("absent"),
                        old ? shortFingerprint(codeFingerprint(old->code)) : QStringLiteral("-"),
                        next != predicted.end() ? versionLabel(libraryVersion(next->code))
                                                : QStringLiteral("absent"),
                        next != predicted.end() ? shortFingerprint(codeFingerprint(next->code))
                                                : QStringLiteral("-"),
                        backupPath(),
                        m_spec.incoming.fileName.isEmpty()
                            ? QString()
                            : QStringLiteral("; from %1").arg(m_spec.incoming.fileName));
    return r;
}

void LibraryChange::audit(const NodeState &before, const redis::Command &command,
                          const QString &attemptId, NodeOutcome &outcome,
                          const redis::ReplyResult &reply, qint64 durationMs)
{
    inventory::AuditRecord r = auditRecord(before, command);
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

void LibraryChange::fetchStateBlocking()
{
    QEventLoop loop;
    bool finished = false;
    fetchState([&] {
        finished = true;
        loop.quit();
    });
    if (!finished)
        loop.exec();
}

PreflightReport LibraryChange::preflightBlocking()
{
    return redis::blockUntilReply<PreflightReport>([this](QObject *, auto cb) { preflight(cb); });
}

core::Result<FunctionBackup, QString> LibraryChange::backupBlocking()
{
    return redis::blockUntilReply<core::Result<FunctionBackup, QString>>(
        [this](QObject *, auto cb) { backup(cb); });
}

ExecutionReport LibraryChange::executeBlocking()
{
    return redis::blockUntilReply<ExecutionReport>([this](QObject *, auto cb) { execute(cb); });
}

} // namespace functions
