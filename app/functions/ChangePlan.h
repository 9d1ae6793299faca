// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CodeDiff.h"
#include "ContractDiff.h"
#include "FunctionBackup.h"
#include "redis/CommandSender.h"

namespace gate {
class WriteGate;
} // namespace gate

namespace functions {

// One primary a change is made on. In Redis Cluster, FUNCTION LOAD is not propagated between
// shards: every primary gets its own load, and each can drift. Today the console passes one.
// The key of the change lock (ChangeLease.h) on a standalone server.
inline constexpr const char *ChangeLockKey = "inventory-console:functions-lock";

struct ChangeTarget
{
    QString address;
    redis::CommandSender *reader = nullptr; // the session's connection
    redis::CommandSender *loader = nullptr; // the release user's connection, when there is one
    QByteArray lockKey = ChangeLockKey;     // on a cluster primary, one of its slots'

    // Every step of a change (state, dry run, backup, the change, verification) runs here: as
    // the release user when the profile has one. The session user may be allowed FCALL and
    // nothing else, so a step sent as it fails with NOPERM halfway through a release.
    redis::CommandSender &loadVia() const { return loader ? *loader : *reader; }
};

// Everything the guards need to know about the session a change runs in.
struct ChangeContext
{
    QList<ChangeTarget> nodes;
    QString loadUser = QStringLiteral("default"); // the ACL user `loader` is authenticated as
    gate::WriteGate *gate = nullptr;              // the environment guard; required
    QString profile;
    // inventory-cli options reaching these nodes as these users (profiles::cliConnectionArgs),
    // for the commands shown to people; empty: "--url redis://<first node>".
    QStringList cliConnection;
    QString environment; // "local", "production", ...; for the backup and the audit
    QString backupDirectory = defaultBackupDirectory();
    QString auditPath; // empty: AuditLog::defaultPath()
    int timeoutMs = 10000;
};

enum class ChangeAction { Load, Delete, RestoreCode, RestoreDump };
QString actionName(ChangeAction a); // load | delete | rollback | restore
enum class RestorePolicy { Append, Replace, Flush };
QByteArray policyArgument(RestorePolicy p);                    // APPEND | REPLACE | FLUSH
std::optional<RestorePolicy> parsePolicy(const QString &text); // case-insensitive

// What one node holds now.
struct NodeState
{
    QString address;
    core::Sentence error; // non-empty: the state could not be read
    QString redisVersion;
    QString runId;
    QList<redis::LibraryInfo> libraries; // with code, sorted
    const redis::LibraryInfo *library(const QString &name) const;
};
QList<redis::Command> stateCommands(); // FUNCTION LIST WITHCODE, INFO server
// The i-th reply of a batch, or "not sent: no reply" when there is none.
redis::ReplyResult replyAt(const QList<redis::ReplyResult> &replies, qsizetype i);
NodeState decodeState(const QString &address, const QList<redis::ReplyResult> &replies);

// One check of the preflight, in the order shown: English for the CLI and the log, the
// window's language for the wizard's preflight page.
struct PreflightCheck
{
    enum class State { Passed, Warning, Failed };
    core::Sentence label; // "Environment", "Permission on 127.0.0.1:6379"
    State state = State::Passed;
    core::Sentence detail;
};
struct PreflightReport
{
    QList<PreflightCheck> checks;
    bool passed() const;
    // The failed checks, one per line; empty when passed.
    QString refusal(core::Wording wording = core::Wording::English) const;
    // The checks that passed only with a warning, "label: detail": a report that passed with
    // one of them is never summarised as "every check passed".
    QStringList warnings(core::Wording wording = core::Wording::English) const;
};

// Where a node ended, after any rollback.
enum class FinalState {
    Loaded,
    Deleted,
    RolledBack,
    Restored,
    Unchanged,
    NotTouched,
    RollbackFailed,
    Unknown,
};
// loaded | deleted | rolled back | restored | unchanged | not touched | rollback failed |
// unknown: English for the CLI and --json, the window's language for the result page.
QString finalStateWord(FinalState state, core::Wording wording = core::Wording::English);

// How the change went on one node. `message` and `holds` are in both copies (core::Sentence):
// the CLI, --json and the log print the English, the result page the window's language.
struct NodeOutcome
{
    QString address;
    bool attempted = false;      // the change command was sent
    bool applied = false;        // the server said OK
    bool verified = false;       // FUNCTION LIST WITHCODE shows exactly the expected libraries
    bool outcomeUnknown = false; // no reply came; `verified` says what the server holds
    core::Sentence message;      // what happened, in words
    // Where the node ended, and what it holds now, read back ("inventory_lib_v1 1.2.0
    // (sha256 …)", "no inventory_lib_v1", or why it is unknown).
    FinalState finalState = FinalState::NotTouched;
    core::Sentence holds;
    bool rolledBack = false; // the change was undone after a later node failed
    // Nothing changed there in the end: rolled back, unchanged or not touched.
    bool settled() const;
};
struct ExecutionReport
{
    QList<NodeOutcome> nodes;
    core::Sentence refusal; // set when nothing was sent (guards, state changed since the backup)
    QString backupPath;
    bool succeeded() const;  // every node applied and verified
    bool rolledBack() const; // some node's change was undone after another failed
};

// The pure half of a change: what a node will hold afterwards, the commands, the checks.
// LibraryChange drives it over the network.
struct ChangeSpec
{
    ChangeAction action = ChangeAction::Load;
    QString library;
    Inspection incoming; // Load: the file; RestoreCode: the backup's code (if any)
    QString source;      // Load: the file as read (a path or a ":/" resource), for fileLabel()
    std::optional<FunctionBackup> backup; // RestoreCode, RestoreDump
    RestorePolicy policy = RestorePolicy::Replace;
    // Load: a node already holding exactly this code is left alone ("nothing to change"),
    // as "bring nodes in line" needs; a plain load sends it again.
    bool skipIdentical = false;

    // Where the incoming code comes from, as people read it: incoming.fileName (English, as
    // the audit record quotes it), or for a loaded file its label in `wording`.
    QString fileLabel(core::Wording wording) const;
    // The libraries a node will hold once the change is made (code is what matters).
    QList<redis::LibraryInfo> predict(const NodeState &node) const;
    // The command that makes the change on this node; empty when there is nothing to do
    // (e.g. a rollback that deletes a library already gone).
    redis::Command command(const NodeState &node) const;
    // The contract differences per library the change touches (sorted by library).
    QList<ContractDiff> contractDiffs(const NodeState &node) const;
    // The code diff of `library` on this node.
    CodeDiff codeDiff(const NodeState &node) const;
    // Node-specific reasons to refuse (APPEND conflicts, a dump from a newer Redis, a node
    // missing from the backup).
    core::Sentences refusals(const NodeState &node) const;
    core::Sentences warnings(const NodeState &node) const; // e.g. the server restarted since
};

// Empty when `actual` holds exactly the libraries of `expected` with the same code; English
// by default (the CLI, the log, comparisons).
QString compareLibraries(const QList<redis::LibraryInfo> &expected,
                         const QList<redis::LibraryInfo> &actual,
                         core::Wording wording = core::Wording::English);
// The same in both copies, for a sentence the window shows.
core::Sentence libraryDifference(const QList<redis::LibraryInfo> &expected,
                                 const QList<redis::LibraryInfo> &actual);

} // namespace functions
