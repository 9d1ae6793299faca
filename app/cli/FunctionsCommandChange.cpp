// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli functions diff | load | rollback | delete: one LibraryChange each, the same
// sequence and guards as the console's wizard.
#include "FunctionsCommand.h"

#include "functions/LibraryVersion.h"
#include "overview/ServerIdentity.h"
#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace cli::functionscmd {

namespace {

QJsonArray stringArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QJsonArray diffsJson(const functions::LibraryChange &change)
{
    QJsonArray out;
    for (const functions::ContractDiff &d : change.contractDiffs())
        out.append(d.toJson());
    return out;
}

void printDiffText(Context &context, const functions::LibraryChange &change)
{
    for (const functions::ContractDiff &d : change.contractDiffs()) {
        context.out << d.summary() << '\n';
        for (const functions::FunctionDiff &f : d.functions)
            if (!f.notes.isEmpty())
                context.out << "  " << f.name << ": " << f.notes.join(QStringLiteral("; ")) << '\n';
    }
    for (const QString &w : change.warnings())
        context.out << "warning: " << w << '\n';
    for (const QString &r : change.refusals())
        context.out << "refused: " << r << '\n';
}

// The session's nodes with `first` ahead of the others, and the backup directory asked for.
functions::ChangeContext changeContext(const QCommandLineParser &parser, const ChangeOptions &o,
                                       const Session &session, const QStringList &first)
{
    functions::ChangeContext ctx = session.context();
    std::stable_partition(
        ctx.nodes.begin(), ctx.nodes.end(),
        [&](const functions::ChangeTarget &t) { return first.contains(t.address); });
    if (parser.isSet(o.backupDir))
        ctx.backupDirectory = parser.value(o.backupDir);
    return ctx;
}

// Where each node ended, as JSON and (in text) one line a node, then on several nodes the
// table a release manager acts on.
QJsonArray reportNodes(Context &context, const functions::ExecutionReport &done, bool json)
{
    QJsonArray nodes;
    for (const functions::NodeOutcome &n : done.nodes) {
        nodes.append(
            QJsonObject{{QStringLiteral("address"), n.address},
                        {QStringLiteral("applied"), n.applied},
                        {QStringLiteral("verified"), n.verified},
                        {QStringLiteral("outcome_unknown"), n.outcomeUnknown},
                        {QStringLiteral("rolled_back"), n.rolledBack},
                        {QStringLiteral("final_state"), functions::finalStateWord(n.finalState)},
                        {QStringLiteral("holds"), n.holds.english},
                        {QStringLiteral("message"), n.message.english}});
        if (!json)
            context.out << n.address << ": " << n.message.english << '\n';
    }
    if (!json && done.nodes.size() > 1) {
        context.out << "\n"
                    << QStringLiteral("node").leftJustified(22) << ' '
                    << QStringLiteral("final state").leftJustified(16) << " holds now\n";
        for (const functions::NodeOutcome &n : done.nodes)
            context.out << n.address.leftJustified(22) << ' '
                        << functions::finalStateWord(n.finalState).leftJustified(16) << ' '
                        << n.holds.english << '\n';
    }
    return nodes;
}

// A change that ran but did not succeed: its exit code and why. Nothing changed anywhere
// (refused, rolled back, untouched): 1. Anything else: look (4).
std::pair<int, QString> unsuccessfulEnd(const functions::ExecutionReport &done)
{
    const bool unclear =
        std::any_of(done.nodes.begin(), done.nodes.end(), [&](const functions::NodeOutcome &n) {
            return n.outcomeUnknown || !n.settled();
        });
    const auto failed =
        std::find_if(done.nodes.begin(), done.nodes.end(), [](const functions::NodeOutcome &n) {
            return !n.verified && n.finalState != functions::FinalState::NotTouched;
        });
    QString why = done.nodes.isEmpty()         ? QStringLiteral("nothing was done")
                  : failed != done.nodes.end() ? failed->message.english
                                               : done.nodes.last().message.english;
    if (done.rolledBack())
        why += QStringLiteral("; the nodes changed before it were rolled back (see the table)");
    return {unclear ? int(ChangeUnverified) : int(ExitFailed), why};
}

} // namespace

void ChangeOptions::addTo(QCommandLineParser &parser)
{
    connection.addTo(parser);
    parser.addOptions({json, confirm, allowBreaking, unlock, backupDir});
}

// Steps 2 to 9 for a change whose spec is built; prints as it goes. Returns the exit code.
int drive(Context &context, QCommandLineParser &parser, ChangeOptions &o, Session &session,
          const functions::ChangeSpec &spec, const QStringList &first)
{
    const bool json = parser.isSet(o.json);
    functions::LibraryChange change(changeContext(parser, o, session, first), spec);
    QJsonObject report{{QStringLiteral("action"), functions::actionName(spec.action)},
                       {QStringLiteral("library"), spec.library}};
    const auto finish = [&](int code, const QString &error) {
        change.releaseLockBlocking(); // a change that stops after its backup gives it back
        if (json) {
            report.insert(QStringLiteral("succeeded"), code == ExitOk);
            if (!error.isEmpty())
                report.insert(QStringLiteral("error"), error);
            printJson(context, report);
            return code;
        }
        return error.isEmpty() ? code : context.fail(code, error);
    };
    if (parser.value(o.confirm) != spec.library)
        return finish(ExitUsage, QStringLiteral("--confirm must be the library name, typed out "
                                                "(%1)")
                                     .arg(spec.library));
    if (parser.isSet(o.unlock) && !session.gate->unlock(parser.value(o.unlock)))
        return finish(ExitUsage, QStringLiteral("--unlock: %1").arg(session.gate->unlockError()));

    change.fetchStateBlocking();
    report.insert(QStringLiteral("verdict"), functions::verdictName(change.verdict()));
    report.insert(QStringLiteral("contract"), diffsJson(change));
    report.insert(QStringLiteral("warnings"), stringArray(change.warnings()));
    if (!json)
        printDiffText(context, change);
    if (!change.refusals().isEmpty())
        return finish(ExitFailed, change.refusals().join(QStringLiteral("; ")));

    const functions::PreflightReport pre = change.preflightBlocking();
    report.insert(QStringLiteral("preflight"), preflightJson(pre));
    if (!json)
        for (const functions::PreflightCheck &c : pre.checks)
            context.out << "preflight " << stateName(c.state) << ": " << c.label.english << ": "
                        << c.detail.english << '\n';
    if (!pre.passed())
        return finish(ExitFailed, QStringLiteral("preflight refused: %1")
                                      .arg(pre.refusal().replace(QLatin1Char('\n'), "; ")));

    const auto backup = change.backupBlocking();
    if (!backup)
        return finish(ExitFailed, backup.error());
    report.insert(QStringLiteral("backup"), change.backupPath());
    if (!json)
        context.out << "backup: " << change.backupPath() << '\n';

    if (const QString why = change.confirm(parser.value(o.confirm), parser.isSet(o.allowBreaking));
        !why.isEmpty())
        return finish(ExitFailed, change.awaitsBreakingAcknowledgement()
                                      ? QStringLiteral("%1 (--allow-breaking)").arg(why)
                                      : why);

    const functions::ExecutionReport done = change.executeBlocking();
    report.insert(QStringLiteral("nodes"), reportNodes(context, done, json));
    if (!done.refusal.isEmpty())
        return finish(ExitFailed, done.refusal.english);
    if (done.succeeded())
        return finish(ExitOk, {});
    const auto [code, why] = unsuccessfulEnd(done);
    return finish(code, why);
}

int runDiff(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares a library file with what the server has loaded: functions added, removed,\n"
        "flags or description changed, code changed under a _vN name, version; collisions\n"
        "with other libraries; and the code diff (--unified). Changes nothing.\n"
        "Exit codes: 0 no change, 1 compatible change, 2 breaking, 3 refused (the file, or a\n"
        "collision), 4 bad arguments, 5 could not connect or read the server."));
    ConnectionArgs connection;
    connection.addTo(parser);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object."));
    const QCommandLineOption unified(QStringLiteral("unified"),
                                     QStringLiteral("Also print the unified code diff."));
    parser.addOptions({json, unified});
    if (auto code = parse(parser, context, {QStringLiteral("FILE")}, DiffUsage))
        return *code;
    int exitCode = DiffUsage;
    const auto file = readFile(parser.positionalArguments().first(), context, DiffUsage, &exitCode);
    if (!file)
        return exitCode;
    auto s = connect(connection, parser, context, DiffUsage, DiffConnection, &exitCode);
    if (!s)
        return exitCode;
    functions::LibraryChange change(s->context(), functions::LibraryChange::loadSpec(*file));
    change.fetchStateBlocking();
    for (const functions::NodeState &n : change.states())
        if (!n.error.isEmpty())
            return context.fail(DiffConnection, QStringLiteral("could not read FUNCTION LIST on "
                                                               "%1: %2")
                                                    .arg(n.address, n.error.english));
    const functions::Verdict verdict = change.verdict();
    const functions::CodeDiff code = change.codeDiff();
    if (parser.isSet(json)) {
        printJson(context, {{QStringLiteral("verdict"), functions::verdictName(verdict)},
                            {QStringLiteral("exit_code"), int(verdict)},
                            {QStringLiteral("contract"), diffsJson(change)},
                            {QStringLiteral("warnings"), stringArray(change.warnings())},
                            {QStringLiteral("refusals"), stringArray(change.refusals())},
                            {QStringLiteral("lines_added"), code.added},
                            {QStringLiteral("lines_removed"), code.removed},
                            {QStringLiteral("unified"), code.unified}});
        return int(verdict);
    }
    printDiffText(context, change);
    context.out << "code: +" << code.added << " -" << code.removed << " lines"
                << (code.note.isEmpty() ? QString()
                                        : QStringLiteral(" (%1)").arg(code.note.english))
                << '\n';
    if (parser.isSet(unified))
        context.out << code.unified;
    return int(verdict);
}

// Whether the server says it is Valkey (INFO server); a failed read says no, and the
// inspection then refuses what Redis would.
static bool isValkey(redis::RedisClient &client)
{
    const auto info = redis::stringOf(client.call({"INFO", "server"}));
    return info && overview::serverIdentity(overview::parseInfo(*info)).isValkey();
}

int runLoad(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Loads a library file with FUNCTION LOAD REPLACE behind the guards: offline inspection,\n"
        "contract diff, preflight (a production session needs --unlock; ACL DRYRUN of the load\n"
        "for the loading user), a backup of every library and a FUNCTION DUMP (its path is\n"
        "printed), --confirm, then verification with FUNCTION LIST WITHCODE and an audit\n"
        "record. On a Redis Cluster (any node's URL), every primary: the preflight runs on all\n"
        "of them before anything is written, one backup holds them all, then node by node\n"
        "with a verification each; if one fails, the nodes already loaded get their backed-up\n"
        "code back and a table says where each node ended (final_state in --json).\n"
        "Exit codes: 0 loaded and verified, 1 refused or failed (nothing left changed),\n"
        "2 bad arguments, 3 could not connect, 4 verification failed or outcome unknown."));
    ChangeOptions o;
    o.addTo(parser);
    if (auto code = parse(parser, context, {QStringLiteral("FILE")}))
        return *code;
    int exitCode = ExitUsage;
    auto file = readFile(parser.positionalArguments().first(), context, ExitFailed, &exitCode);
    if (!file)
        return exitCode;
    std::unique_ptr<Session> s;
    if (!file->ok() && file->serverAlias.any()) {
        // Refused for Valkey's `server` alias: judged again once the server says what it is.
        if (!(s = connect(o.connection, parser, context, ExitUsage, ExitConnection, &exitCode)))
            return exitCode;
        functions::InspectOptions valkey;
        valkey.valkey = isValkey(*s->client);
        if (valkey.valkey
            && !(file = readFile(parser.positionalArguments().first(), context, ExitFailed,
                                 &exitCode, valkey)))
            return exitCode;
    }
    printWarnings(context, *file);
    if (!file->ok())
        return context.fail(ExitFailed,
                            QStringLiteral("%1 %2").arg(file->fileName, file->problem->refusal()));
    if (!s && !(s = connect(o.connection, parser, context, ExitUsage, ExitConnection, &exitCode)))
        return exitCode;
    return drive(context, parser, o, *s, functions::LibraryChange::loadSpec(*file));
}

int runRollback(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Puts back what a backup file holds: by default the library's code as it was (or\n"
        "deletes the library if it did not exist then); with --policy, the whole FUNCTION DUMP\n"
        "through FUNCTION RESTORE APPEND, REPLACE or FLUSH. Same guards as load, and a new\n"
        "backup first. Exit codes as load."));
    ChangeOptions o;
    o.addTo(parser);
    const QCommandLineOption backupFile(QStringLiteral("backup"),
                                        QStringLiteral("The backup file to restore."),
                                        QStringLiteral("PATH"));
    const QCommandLineOption policy(QStringLiteral("policy"),
                                    QStringLiteral("Restore the dump: APPEND, REPLACE or FLUSH."),
                                    QStringLiteral("POLICY"));
    parser.addOptions({backupFile, policy});
    if (auto code = parse(parser, context, {}))
        return *code;
    if (!parser.isSet(backupFile))
        return context.fail(ExitUsage, QStringLiteral("--backup PATH is required"));
    std::optional<functions::RestorePolicy> p;
    if (parser.isSet(policy) && !(p = functions::parsePolicy(parser.value(policy))))
        return context.fail(ExitUsage, QStringLiteral("--policy: APPEND, REPLACE or FLUSH"));
    const auto backup = functions::FunctionBackup::read(parser.value(backupFile));
    if (!backup)
        return context.fail(ExitFailed, backup.error().english);
    int exitCode = ExitUsage;
    auto s = connect(o.connection, parser, context, ExitUsage, ExitConnection, &exitCode);
    if (!s)
        return exitCode;
    return drive(context, parser, o, *s,
                 p ? functions::LibraryChange::restoreSpec(*backup, *p)
                   : functions::LibraryChange::rollbackSpec(*backup));
}

int runDelete(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Deletes a library (FUNCTION DELETE) behind the same guards as load: it is always\n"
        "breaking, so --allow-breaking is needed too. Exit codes as load."));
    ChangeOptions o;
    o.addTo(parser);
    if (auto code = parse(parser, context, {QStringLiteral("LIBNAME")}))
        return *code;
    int exitCode = ExitUsage;
    auto s = connect(o.connection, parser, context, ExitUsage, ExitConnection, &exitCode);
    if (!s)
        return exitCode;
    return drive(context, parser, o, *s,
                 functions::LibraryChange::deleteSpec(parser.positionalArguments().first()));
}

} // namespace cli::functionscmd
