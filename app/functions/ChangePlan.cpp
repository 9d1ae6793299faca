// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChangePlan.h"

#include "CaseTwins.h"
#include "LibraryVersion.h"
#include "LocalCatalog.h"
#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>

namespace functions {

namespace {

// What a change's plan says in the window's language; the CLI and the log keep the English.
const char *const PlanContext = "functions::ChangePlan";

core::Sentence planSaid(const char *source)
{
    return core::Sentence::translated(PlanContext, source);
}

void sortLibraries(QList<redis::LibraryInfo> &libs)
{
    std::sort(
        libs.begin(), libs.end(),
        [](const redis::LibraryInfo &a, const redis::LibraryInfo &b) { return a.name < b.name; });
}

QList<redis::LibraryInfo> without(QList<redis::LibraryInfo> libs, const QString &name)
{
    libs.removeIf([&](const redis::LibraryInfo &l) { return l.name == name; });
    return libs;
}

QList<redis::LibraryInfo> with(QList<redis::LibraryInfo> libs, const redis::LibraryInfo &lib)
{
    libs = without(libs, lib.name);
    libs << lib;
    sortLibraries(libs);
    return libs;
}

redis::LibraryInfo fromCode(const QString &name, const QByteArray &code)
{
    redis::LibraryInfo lib;
    lib.name = name;
    lib.engine = QStringLiteral("LUA");
    lib.code = code;
    lib.hasCode = true;
    return lib;
}

// A library known by its code only (from a backup) gets its functions from an offline
// inspection, so that collisions can be checked.
redis::LibraryInfo withFunctions(const redis::LibraryInfo &lib)
{
    if (!lib.functions.isEmpty() || !lib.hasCode)
        return lib;
    redis::LibraryInfo out = lib;
    const Inspection i = inspectLibrary(lib.code);
    if (i.ok())
        out.functions = i.toLibraryInfo().functions;
    return out;
}

core::Sentence codeLabel(const redis::LibraryInfo *lib)
{
    return lib ? core::Sentence::plain(versionLabel(libraryVersion(lib->code)))
               : planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "not loaded"));
}

// What the node holds, for a diff's left side: never "not loaded" when it could not be read.
core::Sentence loadedLabel(const NodeState &node, const redis::LibraryInfo *lib)
{
    return node.error.isEmpty() ? codeLabel(lib)
                                : planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan",
                                                             "could not read FUNCTION LIST: %1"))
                                      .arg(node.error);
}

// Why nothing of `node` can be compared or changed.
core::Sentence unreadable(const NodeState &node)
{
    return planSaid(
               QT_TRANSLATE_NOOP("functions::ChangePlan", "could not read FUNCTION LIST on %1: %2"))
        .arg(node.address, node.error);
}

} // namespace

QString actionName(ChangeAction a)
{
    switch (a) {
    case ChangeAction::Load:
        return QStringLiteral("load");
    case ChangeAction::Delete:
        return QStringLiteral("delete");
    case ChangeAction::RestoreCode:
        return QStringLiteral("rollback");
    case ChangeAction::RestoreDump:
        return QStringLiteral("restore");
    }
    return {};
}

QByteArray policyArgument(RestorePolicy p)
{
    switch (p) {
    case RestorePolicy::Append:
        return "APPEND";
    case RestorePolicy::Replace:
        return "REPLACE";
    case RestorePolicy::Flush:
        return "FLUSH";
    }
    return {};
}

std::optional<RestorePolicy> parsePolicy(const QString &text)
{
    for (RestorePolicy p : {RestorePolicy::Append, RestorePolicy::Replace, RestorePolicy::Flush})
        if (text.compare(QLatin1String(policyArgument(p)), Qt::CaseInsensitive) == 0)
            return p;
    return std::nullopt;
}

const redis::LibraryInfo *NodeState::library(const QString &name) const
{
    for (const redis::LibraryInfo &l : libraries)
        if (l.name == name)
            return &l;
    return nullptr;
}

redis::ReplyResult replyAt(const QList<redis::ReplyResult> &replies, qsizetype i)
{
    if (i < replies.size())
        return replies.at(i);
    return redis::RedisError::notSent(redis::RedisError::noReply());
}

QList<redis::Command> stateCommands()
{
    return {{"FUNCTION", "LIST", "WITHCODE"}, {"INFO", "server"}};
}

NodeState decodeState(const QString &address, const QList<redis::ReplyResult> &replies)
{
    NodeState s;
    s.address = address;
    if (replies.size() < 2 || !replies[0].ok()) {
        s.error = replies.isEmpty() || replies[0].ok() ? redis::RedisError::noReply()
                                                       : replies[0].error().toString();
        return s;
    }
    auto libs = redis::decodeFunctionList(replies[0].value());
    if (!libs) {
        s.error = libs.error();
        return s;
    }
    s.libraries = libs.value();
    if (const auto text = redis::stringOf(replies[1])) {
        const auto info = overview::parseInfo(*text);
        s.redisVersion = QString::fromLatin1(info.value("redis_version"));
        s.runId = QString::fromLatin1(info.value("run_id"));
    }
    return s;
}

bool PreflightReport::passed() const
{
    return std::none_of(checks.begin(), checks.end(), [](const PreflightCheck &c) {
        return c.state == PreflightCheck::State::Failed;
    });
}

namespace {

// "label: detail" of the checks in `state`.
QStringList checksIn(const QList<PreflightCheck> &checks, PreflightCheck::State state,
                     core::Wording wording)
{
    QStringList out;
    for (const PreflightCheck &c : checks)
        if (c.state == state)
            out << core::word(wording, PlanContext,
                              QT_TRANSLATE_NOOP("functions::ChangePlan", "%1: %2"))
                       .arg(c.label.in(wording), c.detail.in(wording));
    return out;
}

} // namespace

QString PreflightReport::refusal(core::Wording wording) const
{
    return checksIn(checks, PreflightCheck::State::Failed, wording).join(QLatin1Char('\n'));
}

QStringList PreflightReport::warnings(core::Wording wording) const
{
    return checksIn(checks, PreflightCheck::State::Warning, wording);
}

QString finalStateWord(FinalState state, core::Wording wording)
{
    const auto word = [wording](const char *source) {
        return core::word(wording, "functions::FinalState", source);
    };
    switch (state) {
    case FinalState::Loaded:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "loaded"));
    case FinalState::Deleted:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "deleted"));
    case FinalState::RolledBack:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "rolled back"));
    case FinalState::Restored:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "restored"));
    case FinalState::Unchanged:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "unchanged"));
    case FinalState::NotTouched:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "not touched"));
    case FinalState::RollbackFailed:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "rollback failed"));
    case FinalState::Unknown:
        return word(QT_TRANSLATE_NOOP("functions::FinalState", "unknown"));
    }
    return {};
}

bool NodeOutcome::settled() const
{
    return finalState == FinalState::RolledBack || finalState == FinalState::Unchanged
           || finalState == FinalState::NotTouched;
}

bool ExecutionReport::rolledBack() const
{
    return std::any_of(nodes.begin(), nodes.end(),
                       [](const NodeOutcome &n) { return n.rolledBack; });
}

bool ExecutionReport::succeeded() const
{
    return refusal.isEmpty() && !nodes.isEmpty()
           && std::all_of(nodes.begin(), nodes.end(),
                          [](const NodeOutcome &n) { return n.verified; });
}

QString ChangeSpec::fileLabel(core::Wording wording) const
{
    return source.isEmpty() ? incoming.fileName : displayPath(source, wording);
}

QList<redis::LibraryInfo> ChangeSpec::predict(const NodeState &node) const
{
    const NodeBackup *saved = backup ? backup->node(node.address) : nullptr;
    switch (action) {
    case ChangeAction::Load:
        return with(node.libraries, fromCode(library, incoming.code));
    case ChangeAction::Delete:
        return without(node.libraries, library);
    case ChangeAction::RestoreCode:
        if (!saved)
            return node.libraries;
        if (const redis::LibraryInfo *old = saved->library(library))
            return with(node.libraries, fromCode(library, old->code));
        return without(node.libraries, library);
    case ChangeAction::RestoreDump: {
        if (!saved)
            return node.libraries;
        QList<redis::LibraryInfo> out =
            policy == RestorePolicy::Flush ? QList<redis::LibraryInfo>{} : node.libraries;
        for (const redis::LibraryInfo &l : saved->libraries) {
            if (policy == RestorePolicy::Append && node.library(l.name))
                continue; // the restore fails as a whole; refusals() says so
            out = with(out, fromCode(l.name, l.code));
        }
        sortLibraries(out);
        return out;
    }
    }
    return node.libraries;
}

namespace {

// REPLACE only over the library the node was read to hold: where it was read absent, a plain
// load, so that a library created meanwhile by someone else makes the load fail ("already
// exists") instead of being replaced unseen.
redis::Command loadCommand(bool present, const QByteArray &code)
{
    return present ? redis::Command{"FUNCTION", "LOAD", "REPLACE", code}
                   : redis::Command{"FUNCTION", "LOAD", code};
}

} // namespace

redis::Command ChangeSpec::command(const NodeState &node) const
{
    const NodeBackup *saved = backup ? backup->node(node.address) : nullptr;
    const redis::LibraryInfo *now = node.library(library);
    switch (action) {
    case ChangeAction::Load:
        if (skipIdentical && now && now->code == incoming.code)
            return {};
        return loadCommand(now != nullptr, incoming.code);
    case ChangeAction::Delete:
        return now ? redis::Command{"FUNCTION", "DELETE", library.toUtf8()} : redis::Command{};
    case ChangeAction::RestoreCode:
        if (!saved)
            return {};
        if (const redis::LibraryInfo *old = saved->library(library))
            return now && now->code == old->code ? redis::Command{}
                                                 : loadCommand(now != nullptr, old->code);
        return now ? redis::Command{"FUNCTION", "DELETE", library.toUtf8()} : redis::Command{};
    case ChangeAction::RestoreDump:
        return saved ? redis::Command{"FUNCTION", "RESTORE", saved->dump, policyArgument(policy)}
                     : redis::Command{};
    }
    return {};
}

QList<ContractDiff> ChangeSpec::contractDiffs(const NodeState &node) const
{
    if (!node.error.isEmpty()) {
        // Nothing can be compared: "not loaded" would claim a state nobody read.
        ContractDiff d;
        d.library = library;
        d.beforeUnreadable = unreadable(node);
        d.existsAfter = action != ChangeAction::Delete;
        if (action == ChangeAction::Load)
            d.versionAfter = incoming.version;
        d.refusals << d.beforeUnreadable;
        return {d};
    }
    const QList<redis::LibraryInfo> after = predict(node);
    QSet<QString> names;
    for (const redis::LibraryInfo &l : node.libraries)
        names.insert(l.name);
    for (const redis::LibraryInfo &l : after)
        names.insert(l.name);
    names.insert(library);
    QStringList sorted(names.begin(), names.end());
    sorted.sort();
    QList<redis::LibraryInfo> neighbours;
    for (const redis::LibraryInfo &l : after)
        neighbours << withFunctions(l);

    QList<ContractDiff> out;
    for (const QString &name : sorted) {
        const redis::LibraryInfo *before = node.library(name);
        const auto it = std::find_if(after.begin(), after.end(),
                                     [&](const redis::LibraryInfo &l) { return l.name == name; });
        const redis::LibraryInfo *next = it == after.end() ? nullptr : &*it;
        const bool same = before && next && before->code == next->code;
        if (name != library && (same || (!before && !next)))
            continue; // untouched
        if (next) {
            const Inspection inspected = action == ChangeAction::Load && name == library
                                             ? incoming
                                             : inspectLibrary(next->code, name);
            out << diffContract(inspected, node.libraries, &neighbours);
        } else if (before) {
            out << diffRemoval(*before);
        } else {
            ContractDiff d; // e.g. rolling back a library that is already gone
            d.library = name;
            d.existsAfter = false;
            d.codeIdentical = true;
            out << d;
        }
    }
    return out;
}

CodeDiff ChangeSpec::codeDiff(const NodeState &node) const
{
    const redis::LibraryInfo *before = node.library(library);
    const QList<redis::LibraryInfo> after = predict(node);
    const auto it = std::find_if(after.begin(), after.end(),
                                 [&](const redis::LibraryInfo &l) { return l.name == library; });
    const redis::LibraryInfo *next = it == after.end() ? nullptr : &*it;
    core::Sentence rightLabel;
    switch (action) {
    case ChangeAction::Load:
        rightLabel = planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "%1 (%2)"))
                         .arg(incoming.fileName.isEmpty()
                                  ? planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "new code"))
                                  : core::Sentence{fileLabel(core::Wording::English),
                                                   fileLabel(core::Wording::Translated)},
                              core::Sentence::plain(versionLabel(incoming.version)));
        break;
    case ChangeAction::Delete:
        rightLabel = planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "deleted"));
        break;
    default:
        rightLabel = planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "backup %1 (%2)"))
                         .arg(backup ? backup->path : QString(), codeLabel(next));
    }
    return diffCode(before ? before->code : QByteArray(), next ? next->code : QByteArray(),
                    planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "loaded on %1 (%2)"))
                        .arg(node.address, loadedLabel(node, before)),
                    rightLabel);
}

namespace {

// FUNCTION RESTORE's own refusals on this node: APPEND over a library it holds, a dump from a
// newer Redis.
core::Sentences restoreRefusals(const ChangeSpec &spec, const NodeState &node,
                                const NodeBackup &saved)
{
    core::Sentences out;
    if (spec.policy == RestorePolicy::Append)
        for (const redis::LibraryInfo &l : saved.libraries)
            if (node.library(l.name))
                out << planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan",
                                                  "FUNCTION RESTORE APPEND would fail: library "
                                                  "%1 exists on %2 (choose REPLACE or FLUSH)"))
                           .arg(l.name, node.address);
    if (!saved.redisVersion.isEmpty() && !node.redisVersion.isEmpty()
        && compareVersions(saved.redisVersion, node.redisVersion) > 0)
        out << planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan",
                                          "the dump comes from Redis %1 and %2 runs %3: a dump "
                                          "from a newer Redis does not restore on an older one"))
                   .arg(saved.redisVersion, node.address, node.redisVersion);
    return out;
}

} // namespace

core::Sentences ChangeSpec::refusals(const NodeState &node) const
{
    if (!node.error.isEmpty())
        return {unreadable(node)};
    core::Sentences out;
    const NodeBackup *saved = backup ? backup->node(node.address) : nullptr;
    if (backup && !saved)
        out << planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "the backup %1 has no node %2"))
                   .arg(backup->path, node.address);
    if (action == ChangeAction::Delete && !node.library(library))
        out << planSaid(
                   QT_TRANSLATE_NOOP("functions::ChangePlan", "library %1 is not loaded on %2"))
                   .arg(library, node.address);
    if (action == ChangeAction::RestoreDump && saved)
        out << restoreRefusals(*this, node, *saved);
    out << caseTwinRefusals(*this, node);
    for (const ContractDiff &d : contractDiffs(node))
        out << d.refusals;
    return out;
}

core::Sentences ChangeSpec::warnings(const NodeState &node) const
{
    core::Sentences out;
    const NodeBackup *saved = backup ? backup->node(node.address) : nullptr;
    if (saved && !saved->runId.isEmpty() && saved->runId != node.runId)
        out << planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan",
                                          "%1 restarted (or is another server) since the "
                                          "backup: its run_id changed"))
                   .arg(node.address);
    const bool rollback =
        action == ChangeAction::RestoreCode || action == ChangeAction::RestoreDump;
    for (const ContractDiff &d : contractDiffs(node))
        for (const core::Sentence &w : d.warnings) {
            // Going back to an older release is what a rollback is for, not a warning (the
            // sentences compare by their English, whatever the window's language).
            if (rollback && d.versionDown && w == versionDownWarning(d))
                continue;
            out << (d.library == library
                        ? w
                        : planSaid(QT_TRANSLATE_NOOP("functions::ChangePlan", "%1: %2"))
                              .arg(d.library, w));
        }
    return out;
}

QString compareLibraries(const QList<redis::LibraryInfo> &expected,
                         const QList<redis::LibraryInfo> &actual, core::Wording wording)
{
    const auto say = [wording](const char *source) {
        return core::word(wording, "functions::ChangePlan", source);
    };
    QStringList problems;
    for (const redis::LibraryInfo &e : expected) {
        const auto it = std::find_if(actual.begin(), actual.end(),
                                     [&](const redis::LibraryInfo &a) { return a.name == e.name; });
        if (it == actual.end())
            problems
                << say(QT_TRANSLATE_NOOP("functions::ChangePlan", "%1 is missing")).arg(e.name);
        else if (it->code != e.code)
            problems << say(QT_TRANSLATE_NOOP("functions::ChangePlan",
                                              "%1 holds other code (sha256 %2, expected %3)"))
                            .arg(e.name, shortFingerprint(codeFingerprint(it->code)),
                                 shortFingerprint(codeFingerprint(e.code)));
    }
    for (const redis::LibraryInfo &a : actual)
        if (std::none_of(expected.begin(), expected.end(),
                         [&](const redis::LibraryInfo &e) { return e.name == a.name; }))
            problems << say(QT_TRANSLATE_NOOP("functions::ChangePlan", "%1 is unexpectedly loaded"))
                            .arg(a.name);
    return problems.join(QStringLiteral("; "));
}

core::Sentence libraryDifference(const QList<redis::LibraryInfo> &expected,
                                 const QList<redis::LibraryInfo> &actual)
{
    return {compareLibraries(expected, actual, core::Wording::English),
            compareLibraries(expected, actual, core::Wording::Translated)};
}

} // namespace functions
