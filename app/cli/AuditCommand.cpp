// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli audit: the readiness audit of issue 15 (readiness/Rules.h) on the command line.
#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "readiness/ReadinessAudit.h"
#include "readiness/ReadinessReport.h"
#include "redis/ClusterRouter.h"

#include <QDateTime>

namespace cli {
namespace {

// The verb's options, built once so that parsing and reading them name the same objects.
struct AuditOptions
{
    ConnectionArgs connection;
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print one JSON object: {\"exit\", \"summary\", "
                                           "\"findings\": [{\"id\", \"verdict\", \"why\", "
                                           "\"evidence\"}]}.")};
    QCommandLineOption retryWindow{
        QStringLiteral("retry-window"),
        QStringLiteral("How long after a deduction a client may still retry it, in seconds "
                       "(default %1): receipts must outlive it.")
            .arg(readiness::AuditSettings::DefaultRetryWindowSeconds),
        QStringLiteral("SECONDS")};
    QCommandLineOption noScan{QStringLiteral("no-scan"),
                              QStringLiteral("Do not scan the keys: leave out the receipt "
                                             "and stock rules.")};
    QCommandLineOption markdown{QStringLiteral("markdown"),
                                QStringLiteral("Also write the report as Markdown to "
                                               "FILE."),
                                QStringLiteral("FILE")};
    QCommandLineOption html{QStringLiteral("html"),
                            QStringLiteral("Also write the report as self-contained HTML "
                                           "to FILE."),
                            QStringLiteral("FILE")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Checks that the server is set up for the deduction design, each rule with pass,\n"
            "warn, fail or could-not-check and one sentence of why and what to do: eviction\n"
            "policy, persistence, replication, busy-reply-threshold, the loaded library is a\n"
            "shipped release, deduct functions are not no-writes, every primary holds the same\n"
            "library, the user cannot FUNCTION LOAD (ACL DRYRUN), and, from a key scan, receipt\n"
            "TTLs against the retry window, receipts without a TTL and stock values.\n"
            "Exit codes: 0 every rule passed, 1 warnings, 2 failures (or bad arguments),\n"
            "3 could not check (a rule could not read what it needs, or no connection).\n"
            "A failure outranks could-not-check; could-not-check outranks warnings."));
        connection.addTo(parser);
        connection.addScanTo(parser); // the key scan's pace: --scan-rate
        parser.addOptions({json, retryWindow, noScan, markdown, html});
    }
};

// The server the audit reads, and what a key scan found when one ran (not with --no-scan).
struct AuditedServer
{
    std::unique_ptr<ScannedInventory> scanned;
    std::unique_ptr<redis::ClusterRouter> router;
    ConnectionArgs::Resolved target;
    std::optional<readiness::KeyspaceFacts> keyspace;

    redis::ClusterRouter &sender() const { return router ? *router : *scanned->client; }
};

std::optional<AuditedServer> connectForAudit(const AuditOptions &o,
                                             const QCommandLineParser &parser, Context &context,
                                             const readiness::AuditSettings &settings,
                                             int *exitCode)
{
    AuditedServer server;
    if (parser.isSet(o.noScan)) {
        auto resolved = o.connection.resolve(parser, context, exitCode);
        if (!resolved)
            return std::nullopt;
        server.target = *resolved;
        server.router =
            connectRouter(server.target.profile.toConnectionOptions(server.target.password),
                          context, ExitConnection, exitCode);
        if (!server.router)
            return std::nullopt;
        return server;
    }
    server.scanned = scanInventory(o.connection, parser, context, {}, exitCode);
    if (!server.scanned)
        return std::nullopt;
    server.target = server.scanned->target;
    server.keyspace = readiness::KeyspaceFacts::of(
        server.scanned->scan->store(), QDateTime::currentMSecsSinceEpoch(),
        settings.retryWindowSeconds * 1000, server.scanned->facts.complete,
        server.scanned->facts.error);
    return server;
}

// --markdown and --html: the problem of the first file that could not be written, if any.
std::optional<QString> writeReportFiles(const readiness::ReadinessReport &report,
                                        const QCommandLineParser &parser, const AuditOptions &o)
{
    for (const auto &[option, write] :
         {std::pair{&o.markdown, &readiness::ReadinessReport::writeMarkdown},
          std::pair{&o.html, &readiness::ReadinessReport::writeHtml}}) {
        if (!parser.isSet(*option))
            continue;
        const core::Sentence problem = (report.*write)(parser.value(*option));
        if (!problem.isEmpty())
            return problem.english;
    }
    return std::nullopt;
}

int runAudit(Context &context)
{
    QCommandLineParser parser;
    AuditOptions o;
    if (auto code = parseArguments(parser, o, context))
        return *code;
    readiness::AuditSettings settings;
    if (parser.isSet(o.retryWindow)) {
        const auto seconds = wholeNumber(parser.value(o.retryWindow), 1, 31536000);
        if (!seconds)
            return context.fail(ExitUsage, QStringLiteral("--retry-window takes seconds, from 1 "
                                                          "to 31536000 (e.g. 300)"));
        settings.retryWindowSeconds = *seconds;
    }

    int exitCode = ExitUsage;
    const auto server = connectForAudit(o, parser, context, settings, &exitCode);
    if (!server)
        return exitCode;
    const ConnectionArgs::Resolved &target = server->target;
    redis::ClusterRouter &sender = server->sender();
    settings.receiptTtlSeconds = target.profile.receiptTtlSeconds;
    settings.clientTimeoutMs = target.profile.timeoutMs;
    readiness::AuditRequest request{target.profile.effectiveUsername(), settings, server->keyspace};
    const QList<readiness::Finding> findings = readiness::ReadinessAudit::run(sender, request);

    readiness::ReportHeading heading;
    heading.server = sender.address();
    heading.user = request.user;
    heading.environment = target.profile.environmentLabel();
    const readiness::ReadinessReport report(findings, heading);
    if (auto problem = writeReportFiles(report, parser, o))
        return context.fail(readiness::AuditIncomplete, *problem);
    if (parser.isSet(o.json))
        context.out << scrub(compactJson(report.json()), target.password) << '\n';
    else
        context.out << scrub(report.text(), target.password);
    return report.result();
}

const Registration auditRegistration{"audit",
                                     "Readiness audit: is the server set up for deductions? (exit "
                                     "0 pass, 1 warn, 2 fail, 3 could not check)",
                                     &runAudit};

} // namespace
} // namespace cli
