// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli reconcile: Redis receipts against the order ledger, read-only on both sides
// (docs/reconcile.md).
#include "ConnectionArgs.h"
#include "ReconcileApply.h"
#include "RepairVerb.h"
#include "browse/Glob.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "ledger/LedgerSpec.h"
#include "reconcile/ReconcileReport.h"
#include "reconcile/ReconcileRun.h"
#include "reconcile/SavedLedger.h"
#include "redis/ClusterRouter.h"

#include <QIODevice>

namespace cli {

namespace {

struct ReconcileOptions
{
    ConnectionArgs connection;
    QCommandLineOption ledger{QStringLiteral("ledger"),
                              QStringLiteral("The order ledger: a .csv or .jsonl file, "
                                             "sqlite:///path/to/file.db or "
                                             "postgresql://user@host:port/db. Default with "
                                             "--profile: the ledger saved in the profile "
                                             "(its password from the keyring)."),
                              QStringLiteral("LEDGER")};
    QCommandLineOption query{QStringLiteral("ledger-query"),
                             QStringLiteral("The SQL query that lists order lines (default: "
                                            "SELECT order_id, sku, quantity, state FROM "
                                            "orders). It runs read-only: a write is refused."),
                             QStringLiteral("SQL")};
    QCommandLineOption table{QStringLiteral("ledger-table"),
                             QStringLiteral("Read this table's mapped columns instead of a "
                                            "query."),
                             QStringLiteral("NAME")};
    QCommandLineOption columns{QStringLiteral("ledger-columns"),
                               QStringLiteral("Which columns hold the fields, e.g. "
                                              "'order_id=id,sku=product,quantity=qty,"
                                              "state=status,time=created_at'."),
                               QStringLiteral("MAP")};
    QCommandLineOption states{QStringLiteral("ledger-states"),
                              QStringLiteral("Ledger states mapped to committed, cancelled, "
                                             "failed or pending, e.g. "
                                             "'paid=committed,refunded=cancelled'. Any other "
                                             "state stops the run naming its row."),
                              QStringLiteral("MAP")};
    QCommandLineOption passwordStdin{
        QStringLiteral("ledger-password-stdin"),
        QStringLiteral("Read the PostgreSQL password from standard input (the line after any "
                       "Redis passwords read there).")};
    QCommandLineOption sku{QStringLiteral("sku"),
                           QStringLiteral("Only SKUs matching this Redis glob."),
                           QStringLiteral("GLOB")};
    QCommandLineOption since{QStringLiteral("since"),
                             QStringLiteral("Only ledger rows (and receipts) from this time on "
                                            "(ISO 8601 with a zone, or seconds since 1970); "
                                            "needs a time column."),
                             QStringLiteral("TIME")};
    QCommandLineOption until{QStringLiteral("until"),
                             QStringLiteral("Only ledger rows (and receipts) before this time."),
                             QStringLiteral("TIME")};
    QCommandLineOption grace{QStringLiteral("grace"),
                             QStringLiteral("Seconds a receipt absent from the ledger is given "
                                            "before it is a release candidate (default %1).")
                                 .arg(reconcile::DefaultGraceMs / 1000),
                             QStringLiteral("SECONDS"),
                             QString::number(reconcile::DefaultGraceMs / 1000)};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print one JSON object: findings (order, sku, "
                                           "quantity, class, sentence), SKUs, summary.")};
    QCommandLineOption raw{QStringLiteral("raw"),
                           QStringLiteral("Print one line per finding: ORDER:SKU:QTY:CLASS (what "
                                          "--apply would send, or did, goes to stderr).")};
    QCommandLineOption apply{QStringLiteral("apply"),
                             QStringLiteral("Release each release candidate found, once (FCALL "
                                            "inventory_release_v1), each audited with its "
                                            "finding. Needs --confirm. Without it nothing is "
                                            "written and the FCALLs --apply would send are "
                                            "listed.")};
    RepairWriteOptions write{QStringLiteral("With --apply")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Compares the receipts in Redis (a scan of the profile's key schema) with the order\n"
            "ledger, read-only on both sides. Each order line is in_line, release_candidate,\n"
            "missing_receipt, quantity_differs or released; each SKU's receipted units are set\n"
            "against the units the ledger committed.\n"
            "--apply releases the release candidates (never missing receipts or quantities that\n"
            "differ: those need a person); without it, nothing is written.\n"
            "Exit codes: 0 everything in line, 1 divergences found, 2 bad arguments, 3 could\n"
            "not check (either side could not be read; nothing is concluded).\n"
            "With --apply: 0 every divergence was a release candidate and is now released (or\n"
            "was already), 1 divergences remain (other classes, refused releases, releases not\n"
            "sent), 3 could not check, or a release's outcome is unknown (never resent; its\n"
            "release key is read and what it proves printed) or nothing could be sent."));
        connection.addTo(parser);
        connection.addScanTo(parser);
        parser.addOptions({ledger, query, table, columns, states, passwordStdin, sku, since, until,
                           grace, json, raw, apply, write.confirm, write.ttl, write.audit});
    }
};

constexpr int ExitCouldNotCheck = 3;

// The ledger a --profile saved, and whose it is (empty with --url).
struct SavedLedger
{
    QString profileName;
    profiles::LedgerSettings settings;
};

// --apply and its options: what is missing or given without it.
std::optional<QString> applyProblem(const QCommandLineParser &parser, const ReconcileOptions &o)
{
    if (parser.isSet(o.apply) && !parser.isSet(o.write.confirm))
        return QStringLiteral("--apply needs --confirm NAME, the connection's name (the profile "
                              "name, host:port with --url); nothing was written");
    if (!parser.isSet(o.apply))
        for (const QCommandLineOption *option : {&o.write.confirm, &o.write.ttl, &o.write.audit})
            if (parser.isSet(*option))
                return QStringLiteral("--%1 is for --apply").arg(option->names().first());
    if (parser.isSet(o.write.ttl) && !wholeNumber(parser.value(o.write.ttl), 1, 31536000))
        return QStringLiteral("--ttl takes seconds, from 1 to 31536000");
    return std::nullopt;
}

// The ledger: --ledger, else the one saved in the --profile; --ledger-query, --ledger-table,
// --ledger-columns and --ledger-states replace what the profile saved.
std::optional<QString> ledgerFromArguments(const QCommandLineParser &parser,
                                           const ReconcileOptions &o,
                                           const profiles::LedgerSettings &saved,
                                           ledger::LedgerSpec *spec)
{
    if (parser.isSet(o.ledger)) {
        auto parsed = ledger::LedgerSpec::parse(parser.value(o.ledger));
        if (!parsed)
            return QStringLiteral("--ledger: %1").arg(parsed.error().english);
        *spec = parsed.value();
    } else if (saved.enabled()) {
        auto fromProfile = reconcile::savedLedgerSpec(saved);
        if (!fromProfile)
            return QStringLiteral("--profile: %1 (give --ledger, or save it again from the "
                                  "console's Reconcile tab)")
                .arg(fromProfile.error());
        *spec = fromProfile.value();
    } else {
        return QStringLiteral("give --ledger (a .csv or .jsonl file, sqlite:///path or "
                              "postgresql://user@host:port/db), or save one in the profile from "
                              "the console's Reconcile tab");
    }
    if (parser.isSet(o.query) || parser.isSet(o.table) || parser.isSet(o.ledger)) {
        spec->query = parser.value(o.query);
        spec->table = parser.value(o.table);
    }
    if (parser.isSet(o.columns) || parser.isSet(o.ledger)) {
        const auto columns = ledger::Columns::parse(parser.value(o.columns));
        if (!columns)
            return QStringLiteral("--ledger-columns: %1").arg(columns.error().english);
        spec->columns = columns.value();
    }
    if (parser.isSet(o.states) || parser.isSet(o.ledger)) {
        const auto states = ledger::StateMap::parse(parser.value(o.states));
        if (!states)
            return QStringLiteral("--ledger-states: %1").arg(states.error().english);
        spec->states = states.value();
    }
    if (const auto problem = spec->problem())
        return problem->english;
    return std::nullopt;
}

// The ledger spec and scope from the arguments (and the profile's saved ledger), or the
// usage error.
std::optional<QString> readArguments(const QCommandLineParser &parser, const ReconcileOptions &o,
                                     const profiles::LedgerSettings &saved,
                                     ledger::LedgerSpec *spec, reconcile::Scope *scope)
{
    if (parser.isSet(o.json) && parser.isSet(o.raw))
        return QStringLiteral("give --json or --raw, not both");
    if (auto problem = applyProblem(parser, o))
        return *problem;
    if (auto problem = ledgerFromArguments(parser, o, saved, spec))
        return *problem;
    if (parser.isSet(o.passwordStdin) && spec->kind != ledger::LedgerSpec::Kind::Postgres)
        return QStringLiteral("--ledger-password-stdin is for a postgresql:// ledger");
    if (const auto problem = browse::globProblem(parser.value(o.sku).toUtf8()))
        return QStringLiteral("--sku: %1").arg(*problem);
    scope->skuGlob = parser.value(o.sku).toUtf8();
    for (const auto &[option, out] :
         {std::pair{&o.since, &scope->sinceMs}, std::pair{&o.until, &scope->untilMs}}) {
        if (!parser.isSet(*option))
            continue;
        const auto t = ledger::parseLedgerTime(parser.value(*option).toUtf8());
        if (!t)
            return QStringLiteral("--%1: give ISO 8601 with a zone (2026-12-03T10:00:00Z) or "
                                  "seconds since 1970")
                .arg(option->names().first());
        *out = *t;
    }
    if (scope->hasWindow() && spec->columns.time.isEmpty())
        return QStringLiteral("a time window needs the ledger's time column: map it with "
                              "--ledger-columns time=COLUMN");
    const auto grace = wholeNumber(parser.value(o.grace), 0, 31536000);
    if (!grace)
        return QStringLiteral("--grace takes seconds, from 0 to 31536000");
    scope->graceMs = *grace * 1000;
    return std::nullopt;
}

// The PostgreSQL ledger's password: --ledger-password-stdin, else the keyring's when the ledger
// is the one the profile saved; none otherwise (the server may not ask for one).
std::optional<QString> readLedgerPassword(const QCommandLineParser &parser,
                                          const ReconcileOptions &o, Context &context,
                                          const SavedLedger &saved, const ledger::LedgerSpec &spec,
                                          QString *password)
{
    if (!parser.isSet(o.passwordStdin)) {
        if (saved.profileName.isEmpty() || !saved.settings.enabled()
            || spec.kind != ledger::LedgerSpec::Kind::Postgres)
            return std::nullopt;
        const auto fromProfile = reconcile::savedLedgerSpec(saved.settings);
        if (!fromProfile || fromProfile.value().description() != spec.description())
            return std::nullopt;
        const auto kept =
            keyringPassword(saved.profileName, profiles::SecretStore::Account::Ledger);
        if (!kept)
            context.err << context.commandName << ": no ledger password for profile '"
                        << saved.profileName
                        << "' in the keyring; connecting without one "
                           "(--ledger-password-stdin gives it)\n";
        *password = kept.value_or(QString());
        return std::nullopt;
    }
    const auto line = readLine(context.in);
    if (!line)
        return QStringLiteral("--ledger-password-stdin: standard input has no password line");
    *password = *line;
    return std::nullopt;
}

// --apply: the gate unlocked with the confirmed name, then each release through it. A gate
// that cannot be unlocked (the unlock cannot be audited) sends nothing: why, then.
std::optional<QString> applyThroughGate(const QCommandLineParser &parser, const ReconcileOptions &o,
                                        ScannedInventory &run, Context &context,
                                        std::vector<ReleaseStep> &steps)
{
    profiles::ConnectionProfile profile = run.target.profile;
    nameUrlTargetByAddress(parser, profile);
    inventory::DeductionContext ctx;
    ctx.schema = run.scan->store().schema();
    ctx.profileName = profile.name;
    ctx.timeoutMs = profile.timeoutMs;
    if (parser.isSet(o.write.audit))
        ctx.auditLogPath = parser.value(o.write.audit);
    ctx.serverAddress = run.client->address();
    ctx.nodeForSlot = inventory::slotOwnerLookup(run.client->topologySource());
    gate::WriteGate gate(*run.client, profile);
    gate.setAuditLogPath(ctx.auditLogPath);
    gate.waitForServer(ctx.timeoutMs + 1000);
    if (!gate.unlock(parser.value(o.write.confirm))) {
        const QString why =
            QStringLiteral("--confirm: %1; nothing was sent").arg(gate.unlockError());
        for (ReleaseStep &s : steps)
            if (s.notSent.isEmpty())
                s.notSent = QStringLiteral("not sent: %1").arg(why);
        return why;
    }
    gate::GatedSender sender(*run.client, gate);
    applyReleases(steps, sender, ctx, [&](const inventory::RepairPlan &plan) {
        return settleOnFreshConnection(profile, run.target.password, plan, context);
    });
    return std::nullopt;
}

// The comparison, its report, and the release candidates' FCALLs: listed (a dry run) or sent
// (--apply). Returns the exit code.
int compareAndReport(Context &context, const QCommandLineParser &parser, const ReconcileOptions &o,
                     ScannedInventory &run, ledger::LedgerSource &source, reconcile::Scope scope,
                     const reconcile::ScannedReleaseKeys &releaseKeys)
{
    const profiles::ConnectionProfile &profile = run.target.profile;
    const reconcile::ReceiptPolicy policy =
        reconcile::readReceiptPolicy(*run.client, profile.receiptTtlSeconds, profile.timeoutMs);
    scope.nowMs = QDateTime::currentMSecsSinceEpoch();
    reconcile::RunOptions options;
    options.scope = scope;
    options.timeoutMs = run.target.timeoutFor(30000);
    options.releaseKeys = &releaseKeys;
    options.read.progress = [&context](qint64 rows) {
        context.err << context.commandName << ": " << rows << " ledger rows read\n";
        context.err.flush();
    };
    using reconcile::ReportFormat;
    const ReportFormat format = parser.isSet(o.raw)    ? ReportFormat::Raw
                                : parser.isSet(o.json) ? ReportFormat::Json
                                                       : ReportFormat::Text;
    const bool apply = parser.isSet(o.apply);
    // --raw prints neither sentences nor the SKUs' balances: they are not made (a release's
    // audit record carries its finding's sentence).
    options.sentences = format != ReportFormat::Raw || apply;
    options.balances = format != ReportFormat::Raw;
    reconcile::ReconcileReport report(context.out, format);
    report.begin();
    std::vector<reconcile::Finding> candidates;
    const reconcile::RunOutcome outcome = reconcile::runReconcile(
        source, run.scan->store(), *run.client, policy, options, [&](const reconcile::Finding &f) {
            report.add(f);
            if (f.cls == reconcile::FindingClass::ReleaseCandidate)
                candidates.push_back(f);
        });
    std::vector<ReleaseStep> steps;
    std::optional<QString> notApplied;
    if (!outcome.couldNotCheck()) { // nothing is released on a partial comparison
        steps =
            planReleases(candidates, run.scan->store().schema(),
                         parser.isSet(o.write.ttl) ? parser.value(o.write.ttl).toUtf8()
                                                   : QByteArray::number(profile.receiptTtlSeconds),
                         source.description());
        if (apply && !steps.empty())
            notApplied = applyThroughGate(parser, o, run, context, steps);
    }
    const QString auditPath = parser.isSet(o.write.audit) ? parser.value(o.write.audit)
                                                          : inventory::AuditLog::defaultPath();
    reconcile::ReportContext about{source.description(),
                                   run.client->address(),
                                   scope,
                                   policy,
                                   run.scan->store().totals().receipts,
                                   releaseKeys.size(),
                                   releasesJson(steps, apply, auditPath)};
    report.end(outcome, about);
    if (format != ReportFormat::Json) // --json holds them in "releases"
        printReleasesText(format == ReportFormat::Raw ? context.err : context.out, steps, apply,
                          auditPath);
    context.out.flush();
    context.err.flush();
    if (outcome.couldNotCheck())
        return context.fail(ExitCouldNotCheck,
                            QStringLiteral("could not check: %1").arg(outcome.problem()));
    if (notApplied)
        return context.fail(ExitCouldNotCheck, *notApplied);
    if (apply)
        return applyExitCode(steps, outcome.tally.divergent);
    return outcome.tally.divergent > 0 ? ExitFailed : ExitOk;
}

} // namespace

int runReconcile(Context &context)
{
    QCommandLineParser parser;
    ReconcileOptions o;
    if (auto code = parseArguments(parser, o, context))
        return *code;
    SavedLedger saved;
    if (const auto profile = o.connection.savedProfile(parser)) {
        saved.profileName = profile->name;
        saved.settings = profile->ledger;
    }
    ledger::LedgerSpec spec;
    reconcile::Scope scope;
    if (auto problem = readArguments(parser, o, saved.settings, &spec, &scope))
        return context.fail(ExitUsage, *problem);
    if (!parser.isSet(o.ledger))
        context.err << context.commandName << ": the ledger saved in profile '" << saved.profileName
                    << "': " << spec.description() << "\n";

    // A file ledger is opened (and its header read) before the scan: a wrong path costs no
    // scan. A database needs its password, read from stdin after the Redis ones.
    std::unique_ptr<ledger::LedgerSource> source;
    if (!spec.isSql()) {
        auto opened = ledger::openLedger(spec);
        if (!opened)
            return context.fail(
                ExitCouldNotCheck,
                QStringLiteral("could not read the ledger: %1").arg(opened.error().english));
        source = std::move(opened).value();
    }
    browse::InventoryScan::Options scanOptions;
    scanOptions.skuGlob = scope.skuGlob;
    // The release keys the scan walks past are noted on the way: no EXISTS per ledger row.
    std::optional<reconcile::ScannedReleaseKeys> releaseKeys;
    scanOptions.onKeys = [&releaseKeys](const QList<QByteArray> &keys,
                                        const inventory::KeySchema &schema) {
        if (!releaseKeys)
            releaseKeys.emplace(schema);
        releaseKeys->note(keys);
    };
    int exitCode = ExitUsage;
    const auto run = scanInventory(o.connection, parser, context, scanOptions, &exitCode);
    if (!run)
        return exitCode;
    if (!run->facts.complete)
        return context.fail(ExitCouldNotCheck,
                            QStringLiteral("could not check: the scan of Redis did not finish: %1")
                                .arg(run->facts.error));
    profiles::ConnectionProfile named = run->target.profile;
    nameUrlTargetByAddress(parser, named);
    if (parser.isSet(o.write.confirm) && parser.value(o.write.confirm) != named.name)
        return context.fail(ExitUsage, QStringLiteral("--confirm: that is not this connection's "
                                                      "name; nothing was written"));
    if (!releaseKeys) // no page: an empty keyspace
        releaseKeys.emplace(run->scan->store().schema());
    releaseKeys->setWalkComplete(true);
    if (!source) {
        QString password;
        if (auto problem = readLedgerPassword(parser, o, context, saved, spec, &password))
            return context.fail(ExitUsage, *problem);
        auto opened = ledger::openLedger(spec, password);
        if (!opened)
            return context.fail(
                ExitCouldNotCheck,
                QStringLiteral("could not read the ledger: %1").arg(opened.error().english));
        source = std::move(opened).value();
    }
    if (scope.hasWindow() && !source->hasTime())
        return context.fail(ExitUsage, QStringLiteral("a time window needs the ledger's time "
                                                      "column"));

    return compareAndReport(context, parser, o, *run, *source, scope, *releaseKeys);
}

namespace {
const Registration reconcileRegistration{"reconcile",
                                         "Compare Redis receipts with the order ledger "
                                         "(read-only): in line, release candidates, missing "
                                         "receipts, quantities, releases",
                                         &runReconcile};
} // namespace

} // namespace cli
