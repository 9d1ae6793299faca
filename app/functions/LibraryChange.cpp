// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibraryChange.h"

#include "ChangeLease.h"
#include "ChangeUser.h"
#include "DumpPayload.h"
#include "FunctionsLog.h"
#include "LibraryVersion.h"
#include "LoadJournal.h"
#include "LocalCatalog.h"
#include "gate/WriteGate.h"
#include "redis/ResultReads.h"

namespace functions {

namespace {

// Empty when `payload` is a dump Redis would restore (trailer, checksum, every string) and
// holds exactly the code FUNCTION LIST gave for `listed`; otherwise why not. A backup whose
// dump is junk would only be found out at rollback, after the change was made.
QString dumpProblem(const QByteArray &payload, const QList<redis::LibraryInfo> &listed)
{
    const auto contents = readDump(payload);
    if (!contents)
        return contents.error();
    QList<QByteArray> dumped = contents->codes;
    QList<QByteArray> expected;
    for (const redis::LibraryInfo &l : listed)
        expected << l.code;
    std::sort(dumped.begin(), dumped.end());
    std::sort(expected.begin(), expected.end());
    if (dumped.size() != expected.size())
        return QStringLiteral("it holds %1 libraries where FUNCTION LIST shows %2")
            .arg(dumped.size())
            .arg(expected.size());
    if (dumped != expected)
        return QStringLiteral("its library code differs from what FUNCTION LIST shows");
    return {};
}

} // namespace

LibraryChange::LibraryChange(ChangeContext context, ChangeSpec spec, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_spec(std::move(spec))
    , m_lease(new ChangeLease(m_context.timeoutMs, this))
{}

ChangeSpec LibraryChange::loadSpec(const Inspection &file)
{
    ChangeSpec s;
    s.action = ChangeAction::Load;
    s.library = file.library;
    s.incoming = file;
    s.source = file.fileName;
    s.incoming.fileName = displayPath(file.fileName); // the audit record's label: English
    return s;
}

ChangeSpec LibraryChange::deleteSpec(const QString &library)
{
    ChangeSpec s;
    s.action = ChangeAction::Delete;
    s.library = library;
    return s;
}

ChangeSpec LibraryChange::rollbackSpec(const FunctionBackup &backup)
{
    ChangeSpec s;
    s.action = ChangeAction::RestoreCode;
    s.library = backup.library;
    s.backup = backup;
    if (const redis::LibraryInfo *old = backup.nodes.first().library(backup.library))
        s.incoming = inspectLibrary(old->code, backup.path);
    return s;
}

ChangeSpec LibraryChange::restoreSpec(const FunctionBackup &backup, RestorePolicy policy)
{
    ChangeSpec s = rollbackSpec(backup);
    s.action = ChangeAction::RestoreDump;
    s.policy = policy;
    return s;
}

void LibraryChange::onEveryNode(const QList<QList<redis::Command>> &commands,
                                std::function<void(const Replies &)> done)
{
    auto replies = std::make_shared<Replies>(m_context.nodes.size());
    auto pending = std::make_shared<int>(int(m_context.nodes.size()));
    if (*pending == 0)
        return done({});
    for (qsizetype i = 0; i < m_context.nodes.size(); ++i) {
        const ChangeTarget &node = m_context.nodes.at(i);
        node.loadVia().sendBatch(
            commands.value(i), this,
            [replies, pending, i, done](const QList<redis::ReplyResult> &r) {
                (*replies)[i] = r;
                if (--*pending == 0)
                    done(*replies);
            },
            m_context.timeoutMs);
    }
}

void LibraryChange::fetchState(std::function<void()> done)
{
    const quint64 generation = ++m_generation;
    m_stage = Stage::New;
    m_backup.reset();
    onEveryNode(QList<QList<redis::Command>>(m_context.nodes.size(), stateCommands()),
                [this, generation, done](const Replies &replies) {
                    if (generation != m_generation)
                        return; // a newer read superseded this one
                    m_states.clear();
                    for (qsizetype i = 0; i < replies.size(); ++i)
                        m_states << decodeState(m_context.nodes.at(i).address, replies.at(i));
                    noteInterruptedChanges();
                    m_stage = Stage::StateRead;
                    qCInfo(lcFunctions)
                        << actionName(m_spec.action) << m_spec.library << "state read from"
                        << m_states.size() << "node(s);" << verdictName(verdict());
                    done();
                });
}

void LibraryChange::noteInterruptedChanges()
{
    // Told once, with what each node holds now (read just above); a node that could not be
    // read keeps its journal for the next read.
    for (const NodeState &s : m_states) {
        if (!s.error.isEmpty())
            continue;
        for (const LoadJournalEntry &e :
             pendingLoadJournals(m_context.backupDirectory, s.address)) {
            m_interrupted << e.notice(s.library(e.library));
            clearLoadJournal(e);
        }
    }
}

QList<ContractDiff> LibraryChange::contractDiffs() const
{
    return m_states.isEmpty() ? QList<ContractDiff>{} : m_spec.contractDiffs(m_states.first());
}

CodeDiff LibraryChange::codeDiff() const
{
    return m_states.isEmpty() ? CodeDiff{} : m_spec.codeDiff(m_states.first());
}

core::Sentences LibraryChange::driftNotes() const
{
    core::Sentences out;
    if (m_states.size() < 2)
        return out;
    const redis::LibraryInfo *reference = m_states.first().library(m_spec.library);
    for (const NodeState &s : m_states.mid(1)) {
        const redis::LibraryInfo *lib = s.library(m_spec.library);
        if (bool(lib) != bool(reference) || (lib && lib->code != reference->code))
            out << (reference
                        ? core::Sentence::translated("functions::LibraryChange",
                                                     QT_TR_NOOP("%1 holds %2 %3, %4 holds %5"))
                              .arg(s.address, m_spec.library,
                                   lib ? versionLabel(libraryVersion(lib->code))
                                       : QStringLiteral("—"),
                                   m_states.first().address,
                                   versionLabel(libraryVersion(reference->code)))
                        : core::Sentence::translated("functions::LibraryChange",
                                                     QT_TR_NOOP("%1 holds %2 %3, %4 holds nothing"))
                              .arg(s.address, m_spec.library,
                                   versionLabel(libraryVersion(lib->code)),
                                   m_states.first().address));
    }
    return out;
}

core::Sentences LibraryChange::refusalSentences() const
{
    core::Sentences out;
    if (m_spec.action != ChangeAction::Delete && m_spec.action != ChangeAction::RestoreDump
        && !m_spec.incoming.ok() && !m_spec.incoming.code.isEmpty())
        out << (m_spec.incoming.problem->judged()
                    ? core::Sentence::translated("functions::LibraryChange",
                                                 QT_TR_NOOP("the code was refused offline: %1"))
                    : core::Sentence::translated(
                        "functions::LibraryChange",
                        QT_TR_NOOP("the code could not be inspected offline, so it is not "
                                   "loaded (this says nothing about the code; try again): "
                                   "%1")))
                   .arg(m_spec.incoming.problem->sentence());
    for (const NodeState &s : m_states)
        for (const core::Sentence &r : m_spec.refusals(s))
            if (!out.contains(r))
                out << r;
    return out;
}

core::Sentences LibraryChange::warningSentences() const
{
    core::Sentences out;
    out << m_interrupted;
    out << driftNotes();
    for (const NodeState &s : m_states)
        for (const core::Sentence &w : m_spec.warnings(s))
            if (!out.contains(w))
                out << w;
    return out;
}

Verdict LibraryChange::verdict() const
{
    if (!refusals().isEmpty())
        return Verdict::Refused;
    Verdict v = Verdict::NoChange;
    for (const NodeState &s : m_states)
        for (const ContractDiff &d : m_spec.contractDiffs(s))
            v = std::max(v, d.verdict);
    return v;
}

QStringList LibraryChange::breakingReasons(core::Wording wording) const
{
    QStringList out;
    for (const ContractDiff &d : contractDiffs())
        for (const QString &r : d.breakingReasons(wording))
            out << (d.library == m_spec.library ? r : QStringLiteral("%1: %2").arg(d.library, r));
    return out;
}

core::Sentence LibraryChange::stageSentence(Stage needed) const
{
    static const char *const notDone[] = {
        QT_TR_NOOP("reading the state has not been done yet"),
        QT_TR_NOOP("reading the state has not been done yet"),
        QT_TR_NOOP("the preflight has not been done yet"),
        QT_TR_NOOP("the backup has not been done yet"),
        QT_TR_NOOP("the confirmation has not been done yet"),
        QT_TR_NOOP("the change has not been done yet"),
    };
    if (m_stage >= needed)
        return {};
    return core::Sentence::translated("functions::LibraryChange", notDone[int(needed)]);
}

void LibraryChange::backup(
    std::function<void(const core::Result<FunctionBackup, core::Sentence> &)> finished)
{
    // A refused step says who lacked the permission, not only the server's NOPERM line.
    const auto done = [this, finished](const core::Result<FunctionBackup, core::Sentence> &r) {
        finished(r ? r
                   : core::Result<FunctionBackup, core::Sentence>(
                       withPermissionHint(m_context, r.error())));
    };
    if (const core::Sentence why = stageSentence(Stage::PreflightPassed); !why.isEmpty())
        return done(why);
    // The lock comes first: what is read next, backed up and then changed is read under it.
    m_lease->acquire(m_context.nodes, m_spec.library, actionName(m_spec.action),
                     [this, done](const core::Sentence &refused) {
                         if (!refused.isEmpty())
                             return done(refused);
                         backUpLocked(done);
                     });
}

// Why the backup of one node could not be made, or an empty sentence.
core::Sentence LibraryChange::backupProblem(const NodeState &now, const Replies &replies,
                                            qsizetype i) const
{
    const auto said = [](const char *source) {
        return core::Sentence::translated("functions::LibraryChange", source);
    };
    if (!now.error.isEmpty())
        return said(QT_TR_NOOP("backup of %1 failed: could not read FUNCTION LIST: %2"))
            .arg(now.address, now.error);
    const redis::ReplyResult dump = replyAt(replies.at(i), 2);
    const auto payload = redis::stringOf(dump);
    if (!payload || !dump->isBulk())
        return said(QT_TR_NOOP("FUNCTION DUMP on %1 failed: %2"))
            .arg(now.address, dump.ok() ? dump->debugString(60) : dump.error().toString().english);
    if (const QString moved = compareLibraries(m_states.at(i).libraries, now.libraries);
        !moved.isEmpty())
        return said(QT_TR_NOOP("the libraries on %1 changed since they were read (%2): read "
                               "them again and review the diff"))
            .arg(now.address, moved);
    if (const QString bad = dumpProblem(*payload, now.libraries); !bad.isEmpty())
        return said(QT_TR_NOOP("FUNCTION DUMP on %1 gave a payload that cannot be restored "
                               "(%2): no backup was written and nothing was changed"))
            .arg(now.address, bad);
    return {};
}

void LibraryChange::backUpLocked(
    std::function<void(const core::Result<FunctionBackup, core::Sentence> &)> finished)
{
    // No backup, no change: the lock is given back before the refusal is told.
    const auto done = [this, finished](const core::Result<FunctionBackup, core::Sentence> &r) {
        if (r)
            return finished(r);
        m_lease->release([finished, r] { finished(r); });
    };
    QList<redis::Command> commands = stateCommands();
    commands << redis::Command{"FUNCTION", "DUMP"};
    onEveryNode(
        QList<QList<redis::Command>>(m_context.nodes.size(), commands),
        [this, done](const Replies &replies) {
            FunctionBackup b;
            b.created = QDateTime::currentDateTimeUtc();
            b.library = m_spec.library;
            b.action = actionName(m_spec.action);
            b.profile = m_context.profile;
            b.environment = m_context.gate ? m_context.gate->environment() : m_context.environment;
            for (qsizetype i = 0; i < replies.size(); ++i) {
                const NodeState now = decodeState(m_states.at(i).address, replies.at(i));
                if (const core::Sentence why = backupProblem(now, replies, i); !why.isEmpty())
                    return done(why);
                b.nodes << NodeBackup{now.address, now.runId, now.redisVersion, now.libraries,
                                      *redis::stringOf(replyAt(replies.at(i), 2))};
            }
            if (auto written = b.write(m_context.backupDirectory); !written)
                return done(written.error());
            m_backup = b;
            m_stage = Stage::BackedUp;
            done(b);
        });
}

core::Sentence LibraryChange::confirmation(const QString &typedName, bool acknowledgeBreaking)
{
    if (const core::Sentence why = stageSentence(Stage::BackedUp); !why.isEmpty())
        return why;
    if (typedName != m_spec.library)
        return core::Sentence::translated(
                   "functions::LibraryChange",
                   QT_TR_NOOP("type the library name exactly (%1) to confirm"))
            .arg(m_spec.library);
    m_awaitsAcknowledgement = needsBreakingAcknowledgement() && !acknowledgeBreaking;
    const QString semicolon = QStringLiteral("; ");
    if (m_awaitsAcknowledgement)
        return core::Sentence::translated(
                   "functions::LibraryChange",
                   QT_TR_NOOP("this change is breaking (%1): acknowledge it as well"))
            .arg(core::Sentence{breakingReasons(core::Wording::English).join(semicolon),
                                breakingReasons(core::Wording::Translated).join(semicolon)});
    m_stage = Stage::Confirmed;
    return {};
}

} // namespace functions
