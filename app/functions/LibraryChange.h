// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChangePlan.h"
#include "inventory/AuditLog.h"

#include <QObject>
#include <functional>

namespace functions {

struct LoadJournalEntry;
class ChangeLease;

// One guarded change of the function libraries (load, delete, rollback, restore), the single
// sequence the GUI wizard and inventory-cli both drive:
//   1. the change spec (offline inspection of a file, or a backup read back);
//   2. fetchState(): every node's libraries; contract and code diffs;
//   3. preflight(): the environment guard and ACL DRYRUN of the exact command;
//   4. backup(): the change lock taken on every node (ChangeLease.h: another change in
//      progress refuses this one, nothing written), every library's code read again under
//      it (refused if it differs from step 2) and a verified FUNCTION DUMP per node, saved to
//      a file;
//   5. confirm(): the library name typed, and a second acknowledgement when breaking;
//   6. execute(): per node, re-read (refusing if anything changed since the backup), append
//      an fsynced audit attempt record (refusing to send if it cannot be written), send,
//      verify with FUNCTION LIST WITHCODE, append the outcome record (same attempt id); then
//      the lock is given back.
// A step is refused until the previous ones passed; reading the state again resets the
// later steps. Asynchronous: callbacks run on this object's thread, never after it is gone.
class LibraryChange : public QObject
{
    Q_OBJECT
public:
    enum class Stage { New, StateRead, PreflightPassed, BackedUp, Confirmed, Executed };

    LibraryChange(ChangeContext context, ChangeSpec spec, QObject *parent = nullptr);

    static ChangeSpec loadSpec(const Inspection &file);
    static ChangeSpec deleteSpec(const QString &library);
    // Puts back the backed-up code of the backup's library on every node (deleting it where
    // it did not exist).
    static ChangeSpec rollbackSpec(const FunctionBackup &backup);
    static ChangeSpec restoreSpec(const FunctionBackup &backup, RestorePolicy policy);

    const ChangeContext &context() const { return m_context; }
    const ChangeSpec &spec() const { return m_spec; }
    Stage stage() const { return m_stage; }

    void fetchState(std::function<void()> done);
    const QList<NodeState> &states() const { return m_states; }
    // Read from the first node, the reference; other nodes are compared with it (drift).
    QList<ContractDiff> contractDiffs() const;
    CodeDiff codeDiff() const;
    core::Sentences driftNotes() const;
    // Over every node; non-empty: the change cannot be made. English by default (the CLI, the
    // log); the wizard asks for the window's language.
    core::Sentences refusalSentences() const;
    QStringList refusals(core::Wording wording = core::Wording::English) const
    {
        return core::copies(refusalSentences(), wording);
    }
    // Drift, node warnings, and first any change a killed process left unverified on these
    // nodes (its load journal): "a load of ... was interrupted at ...; <node> now has ...".
    core::Sentences warningSentences() const;
    QStringList warnings(core::Wording wording = core::Wording::English) const
    {
        return core::copies(warningSentences(), wording);
    }
    Verdict verdict() const; // the worst over every node and library
    bool needsBreakingAcknowledgement() const { return verdict() == Verdict::Breaking; }
    // Of the reference node; English by default (the CLI, the confirmation's refusal).
    QStringList breakingReasons(core::Wording wording = core::Wording::English) const;

    void preflight(std::function<void(const PreflightReport &)> done);
    // The refusal in both copies: the wizard shows its text, backupBlocking() the English.
    void backup(std::function<void(const core::Result<FunctionBackup, core::Sentence> &)> done);
    QString backupPath() const { return m_backup ? m_backup->path : QString(); }
    // Empty when accepted; otherwise why not, in both copies (confirm(): the English).
    core::Sentence confirmation(const QString &typedName, bool acknowledgeBreaking);
    QString confirm(const QString &typedName, bool acknowledgeBreaking)
    {
        return confirmation(typedName, acknowledgeBreaking).english;
    }
    // The last confirm() was refused only for want of the breaking acknowledgement.
    bool awaitsBreakingAcknowledgement() const { return m_awaitsAcknowledgement; }
    void execute(std::function<void(const ExecutionReport &)> done);

    // Blocking forms for the command line and tests (they run a local event loop).
    void fetchStateBlocking();
    PreflightReport preflightBlocking();
    core::Result<FunctionBackup, QString> backupBlocking();
    ExecutionReport executeBlocking();
    // Gives the change lock back (a change abandoned after its backup); a no-op when not held.
    void releaseLockBlocking();

private:
    using Replies = QList<QList<redis::ReplyResult>>;
    // Sends each node its commands on ChangeTarget::loadVia(), as every step does.
    void onEveryNode(const QList<QList<redis::Command>> &commands,
                     std::function<void(const Replies &)> done);
    // backup() once the change lock is held.
    void
    backUpLocked(std::function<void(const core::Result<FunctionBackup, core::Sentence> &)> done);
    core::Sentence backupProblem(const NodeState &now, const Replies &replies, qsizetype i) const;
    void executeNode(int index, std::shared_ptr<ExecutionReport> report,
                     std::function<void(const ExecutionReport &)> done);
    // One node's change (LibraryChangeNode.cpp): re-read (refusing when `expectedBefore` is
    // given and differs), audit attempt, journal, send, verify, audit outcome.
    struct NodeRun
    {
        NodeOutcome outcome;
        NodeState before;
        NodeState after; // the verification read; `error` set when not read
    };
    void applyOnNode(const ChangeTarget &target, const ChangeSpec &spec,
                     std::optional<QList<redis::LibraryInfo>> expectedBefore,
                     std::function<void(const NodeRun &)> done);
    // What one node's change carries from step to step.
    struct NodeStep
    {
        ChangeTarget target;
        ChangeSpec spec;
        std::function<void(const NodeRun &)> done;
        NodeRun run;
        redis::Command command; // what the re-read showed must be sent
    };
    // Empty when the node may be written: else the change lock was lost, or the node no
    // longer holds `expectedBefore`.
    core::Sentence rereadRefusal(const NodeStep &step,
                                 const std::optional<QList<redis::LibraryInfo>> &expectedBefore,
                                 bool locked, const QList<redis::ReplyResult> &replies) const;
    void sendOnNode(NodeStep step); // write-ahead audit, load journal, send
    void verifyOnNode(NodeStep step, const redis::ReplyResult &reply, qint64 ms,
                      const QString &attemptId, const LoadJournalEntry &journal);
    // After node `failed` failed: the nodes after it are left untouched, the nodes before it
    // get their backed-up code back, one by one, each verified (LibraryChangeRollback.cpp).
    void rollBackAfterFailure(int failed, std::shared_ptr<ExecutionReport> report,
                              std::function<void(const ExecutionReport &)> done);
    void rollBackNode(QList<int> loaded, const QString &failed,
                      std::shared_ptr<ExecutionReport> report,
                      std::function<void(const ExecutionReport &)> done);
    inventory::AuditLog auditLog() const;
    LoadJournalEntry journalEntry(const ChangeSpec &spec, const NodeState &before) const;
    void noteInterruptedChanges();
    inventory::AuditRecord auditRecord(const ChangeSpec &spec, const NodeState &before,
                                       const redis::Command &command) const;
    void audit(const ChangeSpec &spec, const NodeState &before, const redis::Command &command,
               const QString &attemptId, NodeOutcome &outcome, const redis::ReplyResult &reply,
               qint64 durationMs);
    // Why a step is refused before `needed` was reached ("the preflight has not been done
    // yet"); empty when it was. stageRefusal() is its English.
    core::Sentence stageSentence(Stage needed) const;
    QString stageRefusal(Stage needed) const { return stageSentence(needed).english; }
    // preflight()'s checks (LibraryChangePreflight.cpp).
    PreflightCheck contractCheck() const; // refused: failed; breaking: a warning
    PreflightCheck environmentCheck() const;
    // ACL DRYRUN of what node `node` will be sent: the dump, `change`, the change lock.
    QList<redis::Command> dryRuns(qsizetype node, const redis::Command &change) const;
    // The checks read from those dry runs' replies.
    QList<PreflightCheck> permissionChecks(qsizetype node, const redis::Command &change,
                                           const QList<redis::ReplyResult> &replies) const;
    PreflightCheck lockPermission(qsizetype node, const QList<redis::ReplyResult> &replies) const;

    ChangeContext m_context;
    ChangeSpec m_spec;
    Stage m_stage = Stage::New;
    bool m_awaitsAcknowledgement = false;
    QList<NodeState> m_states;
    core::Sentences m_interrupted; // noteInterruptedChanges()
    std::optional<FunctionBackup> m_backup;
    ChangeLease *m_lease;     // a child: held from backup() to the end of execute()
    quint64 m_generation = 0; // a newer fetchState() drops the answers of an older one
};

} // namespace functions
