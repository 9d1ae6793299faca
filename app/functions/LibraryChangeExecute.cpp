// SPDX-License-Identifier: GPL-3.0-or-later
// The last steps of a LibraryChange: per node, re-read, send, verify, audit; and the
// blocking forms of every step.
#include "ChangeLease.h"
#include "FunctionsLog.h"
#include "LibraryChange.h"
#include "LibraryVersion.h"
#include "LoadJournal.h"
#include "gate/WriteGate.h"
#include "inventory/AuditLog.h"
#include "redis/Blocking.h"

#include <QElapsedTimer>
#include <QEventLoop>

namespace functions {

namespace {

// A change's outcome, in English (the CLI, --json, the log) and the window's language (the
// result page).
constexpr const char *OutcomeContext = "functions::LibraryChange";

core::Sentence outcomeSentence(const char *source)
{
    return core::Sentence::translated(OutcomeContext, source);
}

} // namespace

void LibraryChange::execute(std::function<void(const ExecutionReport &)> done)
{
    auto report = std::make_shared<ExecutionReport>();
    report->backupPath = backupPath();
    if (m_stage == Stage::Executed)
        report->refusal =
            outcomeSentence(QT_TR_NOOP("this change was already made once; start a new one"));
    else if (const core::Sentence why = stageSentence(Stage::Confirmed); !why.isEmpty())
        report->refusal = why;
    else if (!m_context.gate || m_context.gate->isReadOnly())
        report->refusal =
            m_context.gate
                ? core::Sentence{m_context.gate->refusalMessage(core::Wording::English),
                                 m_context.gate->refusalMessage(core::Wording::Translated)}
                : outcomeSentence(QT_TR_NOOP("no environment guard"));
    if (!report->refusal.isEmpty())
        return done(*report);
    m_stage = Stage::Executed; // one attempt per confirmation
    // Every node settled (changed, rolled back or told): the lock is given back.
    executeNode(0, report, [this, done](const ExecutionReport &r) {
        m_lease->release([done, r] { done(r); });
    });
}

namespace {

// What a node holds of `library`, for the table of final states.
core::Sentence holdsText(const NodeState &s, const QString &library)
{
    if (!s.error.isEmpty())
        return outcomeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                                 "unknown: could not read FUNCTION LIST (%1)"))
            .arg(s.error);
    const redis::LibraryInfo *l = s.library(library);
    return l ? core::Sentence::plain(
               QStringLiteral("%1 %2").arg(library, versionAndFingerprint(l->code)))
             : outcomeSentence(QT_TRANSLATE_NOOP("functions::LibraryChange", "no %1")).arg(library);
}

FinalState doneState(ChangeAction a)
{
    switch (a) {
    case ChangeAction::Load:
        return FinalState::Loaded;
    case ChangeAction::Delete:
        return FinalState::Deleted;
    case ChangeAction::RestoreCode:
        return FinalState::RolledBack;
    case ChangeAction::RestoreDump:
        return FinalState::Restored;
    }
    return FinalState::Unknown;
}

FinalState finalStateOf(const NodeOutcome &o, const NodeState &before, const NodeState &after,
                        ChangeAction action)
{
    if (!o.attempted)
        return o.verified ? FinalState::Unchanged : FinalState::NotTouched;
    if (!after.error.isEmpty())
        return FinalState::Unknown;
    if (o.verified)
        return doneState(action);
    return compareLibraries(before.libraries, after.libraries).isEmpty() ? FinalState::Unchanged
                                                                         : FinalState::Unknown;
}

// "loaded, then rolled back as <node> failed: ...", whole for each action (the words of a
// language need not follow the English order); indexed by ChangeAction.
constexpr const char *RolledBackMessages[] = {
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "loaded, then rolled back as %1 failed: the backed-up code is in place "
                      "again (verified)"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "deleted, then rolled back as %1 failed: the backed-up code is in place "
                      "again (verified)"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "rolled back, then rolled back as %1 failed: the backed-up code is in "
                      "place again (verified)"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "restored, then rolled back as %1 failed: the backed-up code is in place "
                      "again (verified)"),
};
constexpr const char *RollbackFailedMessages[] = {
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "loaded, then, as %1 failed, the rollback failed: %2"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "deleted, then, as %1 failed, the rollback failed: %2"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "rolled back, then, as %1 failed, the rollback failed: %2"),
    QT_TRANSLATE_NOOP("functions::LibraryChange",
                      "restored, then, as %1 failed, the rollback failed: %2"),
};
static_assert(int(ChangeAction::RestoreDump) == 3, "one message per action, in order");

} // namespace

void LibraryChange::executeNode(int index, std::shared_ptr<ExecutionReport> report,
                                std::function<void(const ExecutionReport &)> done)
{
    if (index >= m_context.nodes.size())
        return done(*report);
    const NodeBackup *saved = m_backup->node(m_context.nodes.at(index).address);
    std::optional<QList<redis::LibraryInfo>> expected;
    if (saved)
        expected = saved->libraries;
    applyOnNode(m_context.nodes.at(index), m_spec, expected,
                [this, index, report, done](const NodeRun &run) {
                    NodeOutcome o = run.outcome;
                    o.finalState = finalStateOf(o, run.before, run.after, m_spec.action);
                    o.holds = holdsText(run.after, m_spec.library);
                    const bool refusedUnsent = !o.attempted && !o.verified;
                    if (refusedUnsent && index == 0) {
                        report->refusal = o.message;
                        // On several nodes, every one of them is listed: none was touched.
                        if (m_context.nodes.size() > 1) {
                            report->nodes << o;
                            return rollBackAfterFailure(index, report, done);
                        }
                        return done(*report);
                    }
                    report->nodes << o;
                    // A failed node stops the rollout: the ones before it get their code
                    // back, the ones after it are left as they are.
                    if (!o.verified)
                        return rollBackAfterFailure(index, report, done);
                    executeNode(index + 1, report, done);
                });
}

void LibraryChange::rollBackAfterFailure(int failed, std::shared_ptr<ExecutionReport> report,
                                         std::function<void(const ExecutionReport &)> done)
{
    const QString failedAddress = m_context.nodes.at(failed).address;
    for (int i = failed + 1; i < m_context.nodes.size(); ++i) {
        NodeOutcome o;
        o.address = m_context.nodes.at(i).address;
        o.message =
            outcomeSentence(QT_TR_NOOP("not touched: the change stopped at %1")).arg(failedAddress);
        o.finalState = FinalState::NotTouched;
        o.holds =
            i < m_states.size() ? holdsText(m_states.at(i), m_spec.library) : core::Sentence{};
        report->nodes << o;
    }
    QList<int> loaded;
    for (int k = 0; k < failed && k < report->nodes.size(); ++k)
        if (report->nodes.at(k).attempted)
            loaded << k;
    if (!loaded.isEmpty())
        qCWarning(lcFunctions) << actionName(m_spec.action) << m_spec.library << "failed on"
                               << failedAddress << "; rolling back" << loaded.size() << "node(s)";
    rollBackNode(loaded, failedAddress, report, done);
}

void LibraryChange::rollBackNode(QList<int> loaded, const QString &failed,
                                 std::shared_ptr<ExecutionReport> report,
                                 std::function<void(const ExecutionReport &)> done)
{
    if (loaded.isEmpty())
        return done(*report);
    const int k = loaded.takeFirst();
    // Puts back the backed-up code of the library on this node, as `functions rollback`
    // does, through the same write-ahead audit, journal and verification.
    ChangeSpec back;
    back.action = ChangeAction::RestoreCode;
    back.library = m_spec.library;
    back.backup = m_backup;
    back.incoming.fileName = backupPath();
    applyOnNode(m_context.nodes.at(k), back, std::nullopt,
                [this, k, loaded, failed, report, done](const NodeRun &run) {
                    NodeOutcome &o = (*report).nodes[k];
                    const NodeOutcome &r = run.outcome;
                    if (r.verified) {
                        o.rolledBack = r.attempted;
                        o.finalState = r.attempted ? FinalState::RolledBack : FinalState::Unchanged;
                        o.message =
                            outcomeSentence(RolledBackMessages[int(m_spec.action)]).arg(failed);
                    } else {
                        o.finalState = run.after.error.isEmpty() ? FinalState::RollbackFailed
                                                                 : FinalState::Unknown;
                        o.message = outcomeSentence(RollbackFailedMessages[int(m_spec.action)])
                                        .arg(failed, r.message);
                    }
                    o.holds = holdsText(run.after, m_spec.library);
                    rollBackNode(loaded, failed, report, done);
                });
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
    const auto made = redis::blockUntilReply<core::Result<FunctionBackup, core::Sentence>>(
        [this](QObject *, auto cb) { backup(cb); });
    if (!made)
        return made.error().english;
    return made.value();
}

ExecutionReport LibraryChange::executeBlocking()
{
    return redis::blockUntilReply<ExecutionReport>([this](QObject *, auto cb) { execute(cb); });
}

void LibraryChange::releaseLockBlocking()
{
    if (!m_lease->held())
        return;
    redis::blockUntilReply<bool>(
        [this](QObject *, auto cb) { m_lease->release([cb] { cb(true); }); });
}

} // namespace functions
