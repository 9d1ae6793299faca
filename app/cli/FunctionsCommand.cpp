// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli functions: the dispatcher of its own verbs, the shared plumbing, and the two
// read-only verbs (status, check).
#include "FunctionsCommand.h"

#include "functions/LibraryMatrix.h"
#include "functions/LibraryVersion.h"
#include "functions/LoadJournal.h"
#include "functions/LocalCatalog.h"
#include "profiles/SecretStore.h"
#include "redis/Blocking.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace cli::functionscmd {

namespace {

struct Verb
{
    const char *name;
    const char *summary;
    int (*run)(Context &);
};
const Verb Verbs[] = {
    {"status", "what every library on the server is: version, functions, fingerprint, local match",
     &runStatus},
    {"check", "inspect a library file offline (exit 0 accepted, 3 refused)", &runCheck},
    {"diff", "contract and code diff of a file against the server (exit 0-3: see --help)",
     &runDiff},
    {"load", "load a file behind the guards: preflight, backup, confirmation, verification",
     &runLoad},
    {"rollback", "put back what a backup holds (its code, or its dump with a policy)",
     &runRollback},
    {"delete", "delete a library behind the same guards", &runDelete},
    {"align", "bring drifted cluster primaries in line with one node's library", &runAlign},
};

int runFunctions(Context &context)
{
    const QString verb = context.arguments.value(1);
    for (const Verb &v : Verbs) {
        if (verb != QLatin1String(v.name))
            continue;
        const QString name = context.commandName + QLatin1Char(' ') + verb;
        Context sub{QStringList{name} + context.arguments.mid(2), context.out, context.err,
                    context.in, name};
        return v.run(sub);
    }
    if (verb.isEmpty() || verb == QLatin1String("--help") || verb == QLatin1String("-h")) {
        context.out << "Usage: inventory-cli functions <verb> [options]\n\n"
                       "Function libraries: what is loaded, what a file would change, and\n"
                       "guarded loads with a backup and a way back.\n\nVerbs:\n";
        for (const Verb &v : Verbs)
            context.out << "  " << QString::fromLatin1(v.name).leftJustified(10) << v.summary
                        << '\n';
        context.out << "\nRun 'inventory-cli functions <verb> --help' for its options.\n";
        return verb.isEmpty() ? ExitUsage : ExitOk;
    }
    return context.fail(ExitUsage, QStringLiteral("unknown verb '%1' (see %2 --help)")
                                       .arg(verb.left(40), context.commandName));
}

const Registration functionsRegistration{
    "functions", "Function libraries: status, check, diff, load, rollback, delete, align",
    &runFunctions};

} // namespace

std::optional<int> parse(QCommandLineParser &parser, Context &context,
                         const QStringList &positional, int usageExit)
{
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    parser.addOption(help);
    for (const QString &p : positional)
        parser.addPositionalArgument(p, QString());
    const auto usage = [&](const QString &why) {
        return context.fail(usageExit,
                            QStringLiteral("%1 (see %2 --help)").arg(why, context.commandName));
    };
    if (!parser.parse(context.arguments)) {
        QString why = parser.errorText();
        if (why.endsWith(QLatin1Char('.')))
            why.chop(1);
        return usage(why);
    }
    if (const auto repeated = repeatedOption(parser, {QStringLiteral("local-dir")}))
        return usage(*repeated);
    if (parser.isSet(help)) {
        QString text = parser.helpText();
        const qsizetype at = text.indexOf(QLatin1String("Usage: "));
        if (at >= 0) {
            const qsizetype end = text.indexOf(QLatin1Char(' '), at + 7);
            text.replace(at + 7, end - at - 7, context.commandName);
        }
        context.out << text << (text.endsWith(QLatin1Char('\n')) ? "" : "\n");
        return int(ExitOk);
    }
    const QStringList given = parser.positionalArguments();
    if (given.size() < positional.size())
        return usage(QStringLiteral("missing %1").arg(positional.at(given.size())));
    if (given.size() > positional.size())
        return usage(
            QStringLiteral("unexpected argument '%1'").arg(given.at(positional.size()).left(40)));
    return std::nullopt;
}

functions::ChangeContext Session::context() const
{
    functions::ChangeContext c;
    // FUNCTION LOAD is not propagated between shards: on a cluster, every primary.
    if (nodes)
        c.nodes = nodes->primaries();
    else
        c.nodes << functions::ChangeTarget{client->address(), client.get(), releaseClient.get()};
    c.loadUser = loadUser;
    c.gate = gate.get();
    c.profile = target.profile.name;
    c.environment = target.profile.environmentLabel();
    c.timeoutMs = target.timeoutFor(10000);
    return c;
}

namespace {

// What each interrupted change's node holds now, read through `reader`.
void reportJournals(const QList<functions::LoadJournalEntry> &pending, redis::CommandSender &reader,
                    Context &context)
{
    const redis::ReplyResult r =
        redis::blockUntilReply<redis::ReplyResult>([&](QObject *ctx, auto done) {
            reader.send({"FUNCTION", "LIST", "WITHCODE"}, ctx, done);
        });
    const auto libs =
        r.ok() ? redis::decodeFunctionList(r.value())
               : core::Result<QList<redis::LibraryInfo>, core::Sentence>(r.error().readFailure());
    for (const functions::LoadJournalEntry &e : pending) {
        const redis::LibraryInfo *now = nullptr;
        if (libs)
            for (const redis::LibraryInfo &l : libs.value())
                if (l.name == e.library)
                    now = &l;
        context.err << context.commandName << ": warning: "
                    << e.notice(now, libs ? QString() : libs.error().english).english << '\n';
        if (libs)
            functions::clearLoadJournal(e);
    }
}

// A change whose process died between sending and verifying left a journal: say, before
// anything else, what each node holds now. Told once: the journal is then removed (the audit
// log keeps the attempt). Kept when the node cannot be read, to be told next time.
void reportInterruptedChanges(Session &s, const QCommandLineParser &parser, Context &context)
{
    const QString backupDir = QStringLiteral("backup-dir");
    const QString dir = parser.optionNames().contains(backupDir)
                            ? parser.value(backupDir)
                            : functions::defaultBackupDirectory();
    for (const functions::ChangeTarget &node : s.context().nodes) {
        const QList<functions::LoadJournalEntry> pending =
            functions::pendingLoadJournals(dir, node.address);
        if (pending.isEmpty())
            continue;
        reportJournals(pending, node.loadVia(), context);
    }
    context.err.flush();
}

} // namespace

std::unique_ptr<Session> connect(const ConnectionArgs &args, const QCommandLineParser &parser,
                                 Context &context, int usageExit, int connectionExit, int *exitCode)
{
    int code = ExitUsage;
    auto target = args.resolve(parser, context, &code);
    if (!target) {
        *exitCode = code == ExitUsage ? usageExit : code;
        return nullptr;
    }
    auto s = std::make_unique<Session>();
    s->target = *target;
    profiles::ConnectionProfile &p = s->target.profile;
    nameUrlTargetByAddress(parser, p);
    s->client =
        connectClient(p.toConnectionOptions(target->password), context, connectionExit, exitCode);
    if (!s->client)
        return nullptr;
    s->loadUser = p.effectiveUsername();
    if (!p.releaseUsername.isEmpty()) {
        const auto pw = target->releasePassword ? target->releasePassword
                        : parser.isSet(QStringLiteral("profile"))
                            ? keyringPassword(p.name, profiles::SecretStore::Account::Release)
                            : std::nullopt;
        if (!pw) {
            *exitCode = context.fail(connectionExit,
                                     QStringLiteral("the release user '%1' has no password in "
                                                    "the keyring: give it with "
                                                    "--release-password-stdin")
                                         .arg(p.releaseUsername));
            return nullptr;
        }
        s->releaseClient =
            connectClient(p.toReleaseConnectionOptions(*pw), context, connectionExit, exitCode);
        if (!s->releaseClient)
            return nullptr;
        s->loadUser = p.releaseUsername;
    }
    // A cluster node: find every node, as the library user (CLUSTER SHARDS is asked only
    // when INFO says cluster mode, so a standalone server's ACL LOG stays clean).
    const redis::ReplyResult info = s->libraryClient().call({"INFO", "cluster"});
    if (info.ok() && info->isBulk() && info->bytes().contains("cluster_enabled:1")) {
        s->router = connectRouter(s->libraryClient().options(), context, connectionExit, exitCode);
        if (!s->router)
            return nullptr;
        // A cluster node whose topology this user may not read would look like one server
        // in line: say so instead of checking a third of the cluster.
        if (!s->router->isCluster()) {
            *exitCode = context.fail(
                connectionExit,
                QStringLiteral("%1 is a Redis Cluster node, but user '%2' could not read the "
                               "cluster's nodes (CLUSTER SHARDS): grant it +cluster|shards "
                               "(+cluster|slots before Redis 7) so that every primary can be "
                               "checked")
                    .arg(s->client->address(), s->loadUser));
            return nullptr;
        }
        s->nodes = std::make_unique<functions::ClusterNodes>(*s->router);
    }
    // On the connection the library work goes through (the release user's when there is
    // one: the session user may not be allowed INFO). The label rests on what the server
    // says (its run_id for an unlock's record, the proof of a Local claim): read it before
    // anything is decided.
    s->gate = std::make_unique<gate::WriteGate>(s->libraryClient(), p);
    s->gate->waitForServer(p.timeoutMs + 1000);
    reportInterruptedChanges(*s, parser, context);
    return s;
}

std::optional<functions::Inspection> readFile(const QString &path, Context &context, int failExit,
                                              int *exitCode,
                                              const functions::InspectOptions &options)
{
    auto inspected = functions::inspectFile(path, options);
    if (!inspected) {
        *exitCode = context.fail(failExit, inspected.error().english);
        return std::nullopt;
    }
    return inspected.value();
}

void printWarnings(Context &context, const functions::Inspection &file)
{
    for (const core::Sentence &warning : file.warnings)
        context.err << file.fileName << ": warning: " << warning.english << '\n';
}

void printJson(Context &context, const QJsonObject &object)
{
    context.out << compactJson(object) << '\n';
}

QString stateName(functions::PreflightCheck::State state)
{
    using S = functions::PreflightCheck::State;
    return state == S::Passed    ? QStringLiteral("passed")
           : state == S::Warning ? QStringLiteral("warning")
                                 : QStringLiteral("failed");
}

QJsonObject preflightJson(const functions::PreflightReport &report)
{
    QJsonArray checks;
    for (const functions::PreflightCheck &c : report.checks)
        checks.append(QJsonObject{{QStringLiteral("check"), c.label.english},
                                  {QStringLiteral("state"), stateName(c.state)},
                                  {QStringLiteral("detail"), c.detail.english}});
    return {{QStringLiteral("passed"), report.passed()}, {QStringLiteral("checks"), checks}};
}

namespace {

// On a standalone server, the replicas or primary INFO replication names, read once: the
// matrix then covers the whole group. Returns the note on what was left out, if any.
QString readStandaloneGroup(Session &s)
{
    if (s.nodes)
        return QString();
    s.group = std::make_unique<functions::StandaloneGroup>(s.libraryClient(), s.client->address(),
                                                           s.libraryClient().options(),
                                                           s.target.profile.addressMap());
    return s.group->readBlocking();
}

// Each library once, as most nodes hold it (the matrix's reference), with its local match.
QList<functions::LibraryStatus> matchedLibraries(const functions::LibraryMatrix &matrix,
                                                 const QStringList &localDirs)
{
    QList<redis::LibraryInfo> libs;
    for (const QString &name : matrix.libraries())
        libs << *matrix.reference(name);
    functions::LocalCatalog catalog(QStringList{functions::LocalCatalog::shippedDirectory()}
                                    + localDirs);
    catalog.scan();
    return functions::libraryStatuses(libs, catalog);
}

void printStatusJson(Context &context, const Session &s, const functions::LibraryMatrix &matrix,
                     const QList<functions::LibraryStatus> &status, const QString &groupNote)
{
    QJsonArray array;
    for (const functions::LibraryStatus &l : status)
        array.append(l.toJson());
    QJsonObject o = matrix.toJson();
    o.insert(QStringLiteral("address"), s.client->address());
    o.insert(QStringLiteral("cluster"), bool(s.nodes));
    if (!groupNote.isEmpty())
        o.insert(QStringLiteral("replication_note"), groupNote);
    o.insert(QStringLiteral("libraries"), array);
    o.insert(QStringLiteral("exit_code"), matrixExit(matrix));
    printJson(context, o);
}

void printLibraries(Context &context, const Session &s,
                    const QList<functions::LibraryStatus> &status)
{
    if (status.isEmpty())
        context.out << "no function libraries on "
                    << (s.nodes ? QStringLiteral("any node") : s.client->address()) << '\n';
    for (const functions::LibraryStatus &l : status) {
        context.out << l.library.name << "  " << functions::versionLabel(l.version) << "  sha256 "
                    << functions::shortFingerprint(l.fingerprint) << "  " << l.match.text() << '\n';
        for (const redis::FunctionInfo &f : l.library.functions)
            context.out << "  " << f.name << "  ["
                        << (f.flags.isEmpty() ? QStringLiteral("no flags") : f.flags.join(", "))
                        << "]  " << f.description.value_or(QStringLiteral("(no description)"))
                        << '\n';
    }
}

} // namespace

int runStatus(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists every function library on the server (FUNCTION LIST WITHCODE, sorted): name,\n"
        "version (the '-- version:' line, else 'unversioned'), SHA-256 of the code, the local\n"
        "file it matches (the shipped functions/ and any --local-dir), and its functions with\n"
        "flags and descriptions. On a Redis Cluster (any node's URL), every primary and\n"
        "replica is read on its own connection and a matrix of libraries by node follows,\n"
        "with drift named: a library missing on a node, a different version, or different\n"
        "code under the same version. So too on a standalone server with replicas (INFO\n"
        "replication names them; a replica's URL brings in its primary and the primary's\n"
        "other replicas; a server answering at a named address that is not in the group is\n"
        "left out, and the note says so). Exit codes: 0 every node in line, 1 drift, 2 bad\n"
        "arguments, 3 could not connect or could not read a node (and nothing drifts among\n"
        "the nodes read)."));
    ConnectionArgs connection;
    connection.addTo(parser);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object."));
    const QCommandLineOption dirs(
        QStringLiteral("local-dir"),
        QStringLiteral("Another directory of library files (repeatable)."), QStringLiteral("DIR"));
    parser.addOptions({json, dirs});
    if (auto code = parse(parser, context, {}))
        return *code;
    int exitCode = ExitUsage;
    auto s = connect(connection, parser, context, ExitUsage, ExitConnection, &exitCode);
    if (!s)
        return exitCode;
    const QString groupNote = readStandaloneGroup(*s);
    // As the release user when there is one, as every library step (ChangeTarget::loadVia).
    const QList<functions::MatrixNode> nodes = s->matrixNodes();
    const functions::LibraryMatrix matrix =
        functions::readLibraryMatrixBlocking(nodes, s->target.timeoutFor(10000));
    if (nodes.size() == 1 && !matrix.unreadable().isEmpty())
        return context.fail(ExitConnection, matrix.unreadable().first());
    const QList<functions::LibraryStatus> status = matchedLibraries(matrix, parser.values(dirs));
    if (parser.isSet(json)) {
        printStatusJson(context, *s, matrix, status, groupNote);
        return matrixExit(matrix);
    }
    printLibraries(context, *s, status);
    if (!groupNote.isEmpty())
        context.out << "note: " << groupNote << '\n';
    if (nodes.size() > 1)
        printMatrix(
            context, matrix,
            parser.isSet(QStringLiteral("profile"))
                ? QStringLiteral("--profile %1").arg(parser.value(QStringLiteral("profile")))
                : QStringLiteral("--url redis://%1").arg(s->client->address()));
    return matrixExit(matrix);
}

int runCheck(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the library file's top level offline, in a Lua 5.1 sandbox that behaves like\n"
        "Redis's FUNCTION LOAD, and lists its functions or says why Redis would refuse it\n"
        "(with the line). Never connects. A library that uses `server`, Valkey's alias of\n"
        "`redis`, is accepted with --target valkey and refused as Redis refuses it otherwise;\n"
        "either way a warning names its lines. Exit codes: 0 accepted, 3 refused, 4 bad\n"
        "arguments or an unreadable file."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object."));
    const QCommandLineOption target(QStringLiteral("target"),
                                    QStringLiteral("The server it is for: redis (default) or "
                                                   "valkey."),
                                    QStringLiteral("SERVER"), QStringLiteral("redis"));
    parser.addOption(json);
    parser.addOption(target);
    if (auto code = parse(parser, context, {QStringLiteral("FILE")}, DiffUsage))
        return *code;
    const QString targetName = parser.value(target).toLower();
    if (targetName != QLatin1String("redis") && targetName != QLatin1String("valkey"))
        return context.fail(
            DiffUsage,
            QStringLiteral("--target is redis or valkey, not '%1'").arg(parser.value(target)));
    functions::InspectOptions options;
    options.valkey = targetName == QLatin1String("valkey");
    int exitCode = DiffUsage;
    const auto file =
        readFile(parser.positionalArguments().first(), context, DiffUsage, &exitCode, options);
    if (!file)
        return exitCode;
    if (parser.isSet(json)) {
        QJsonObject o = file->toLibraryInfo().functions.isEmpty() && !file->ok()
                            ? QJsonObject{}
                            : functions::LibraryStatus{file->toLibraryInfo(),
                                                       file->version,
                                                       file->fingerprint,
                                                       {}}
                                  .toJson();
        o.insert(QStringLiteral("file"), file->fileName);
        o.insert(QStringLiteral("accepted"), file->ok());
        o.remove(QStringLiteral("match"));
        o.remove(QStringLiteral("match_file"));
        o.remove(QStringLiteral("match_file_version"));
        o.insert(QStringLiteral("target"), targetName);
        o.insert(QStringLiteral("warnings"),
                 QJsonArray::fromStringList(core::copies(file->warnings, core::Wording::English)));
        if (file->problem)
            o.insert(QStringLiteral("problem"),
                     QJsonObject{
                         {QStringLiteral("kind"), functions::problemKindName(file->problem->kind)},
                         {QStringLiteral("message"), file->problem->message.english},
                         {QStringLiteral("line"), file->problem->line}});
        printJson(context, o);
        return file->ok() ? 0 : int(functions::Verdict::Refused);
    }
    printWarnings(context, *file);
    if (!file->ok())
        return context.fail(int(functions::Verdict::Refused),
                            QStringLiteral("%1 %2").arg(file->fileName, file->problem->refusal()));
    context.out << file->library << "  " << functions::versionLabel(file->version) << "  sha256 "
                << functions::shortFingerprint(file->fingerprint) << "  accepted\n";
    for (const functions::InspectedFunction &f : file->functions)
        context.out << "  " << f.info.name << "  ["
                    << (f.info.flags.isEmpty() ? QStringLiteral("no flags")
                                               : f.info.flags.join(", "))
                    << "]  line " << f.line << "  "
                    << f.info.description.value_or(QStringLiteral("(no description)")) << '\n';
    for (const QString &line : file->log)
        context.out << "  redis.log: " << line << '\n';
    return ExitOk;
}

} // namespace cli::functionscmd
