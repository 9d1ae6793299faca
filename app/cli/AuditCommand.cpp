// inventory-cli audit: the readiness audit of issue 15 (readiness/Rules.h) on the command line.
#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "readiness/ReadinessAudit.h"
#include "readiness/ReadinessReport.h"
#include "redis/ClusterRouter.h"

#include <QDateTime>
#include <QJsonDocument>

namespace cli {
namespace {

int runAudit(Context &context)
{
    QCommandLineParser parser;
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
    ConnectionArgs connection;
    connection.addTo(parser);
    connection.addScanTo(parser); // the key scan's pace: --scan-rate
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print one JSON object: {\"exit\", \"summary\", "
                                                 "\"findings\": [{\"id\", \"verdict\", \"why\", "
                                                 "\"evidence\"}]}."));
    const QCommandLineOption retryWindow(
        QStringLiteral("retry-window"),
        QStringLiteral("How long after a deduction a client may still retry it, in seconds "
                       "(default %1): receipts must outlive it.")
            .arg(readiness::AuditSettings::DefaultRetryWindowSeconds),
        QStringLiteral("SECONDS"));
    const QCommandLineOption noScan(QStringLiteral("no-scan"),
                                    QStringLiteral("Do not scan the keys: leave out the receipt "
                                                   "and stock rules."));
    const QCommandLineOption markdown(QStringLiteral("markdown"),
                                      QStringLiteral("Also write the report as Markdown to "
                                                     "FILE."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption html(QStringLiteral("html"),
                                  QStringLiteral("Also write the report as self-contained HTML "
                                                 "to FILE."),
                                  QStringLiteral("FILE"));
    parser.addOptions({json, retryWindow, noScan, markdown, html});
    if (auto code = parseArguments(parser, context))
        return *code;
    readiness::AuditSettings settings;
    if (parser.isSet(retryWindow)) {
        bool ok = false;
        settings.retryWindowSeconds = parser.value(retryWindow).toLongLong(&ok);
        if (!ok || settings.retryWindowSeconds < 1 || settings.retryWindowSeconds > 31536000)
            return context.fail(ExitUsage, QStringLiteral("--retry-window takes seconds, from 1 "
                                                          "to 31536000 (e.g. 300)"));
    }

    int exitCode = ExitUsage;
    std::unique_ptr<ScannedInventory> scanned;
    std::unique_ptr<redis::ClusterRouter> router;
    ConnectionArgs::Resolved target;
    std::optional<readiness::KeyspaceFacts> keyspace;
    if (parser.isSet(noScan)) {
        auto resolved = connection.resolve(parser, context, &exitCode);
        if (!resolved)
            return exitCode;
        target = *resolved;
        router = connectRouter(target.profile.toConnectionOptions(target.password), context,
                               ExitConnection, &exitCode);
        if (!router)
            return exitCode;
    } else {
        scanned = scanInventory(connection, parser, context, {}, &exitCode);
        if (!scanned)
            return exitCode;
        target = scanned->target;
        keyspace = readiness::KeyspaceFacts::of(
            scanned->scan->store(), QDateTime::currentMSecsSinceEpoch(),
            settings.retryWindowSeconds * 1000, scanned->facts.complete, scanned->facts.error);
    }
    redis::ClusterRouter &sender = router ? *router : *scanned->client;
    settings.receiptTtlSeconds = target.profile.receiptTtlSeconds;
    settings.clientTimeoutMs = target.profile.timeoutMs;
    readiness::AuditRequest request{target.profile.effectiveUsername(), settings, keyspace};
    const QList<readiness::Finding> findings = readiness::ReadinessAudit::run(sender, request);

    readiness::ReportHeading heading;
    heading.server = sender.address();
    heading.user = request.user;
    heading.environment = target.profile.environmentLabel();
    const readiness::ReadinessReport report(findings, heading);
    for (const auto &[option, write] :
         {std::pair{&markdown, &readiness::ReadinessReport::writeMarkdown},
          std::pair{&html, &readiness::ReadinessReport::writeHtml}}) {
        if (!parser.isSet(*option))
            continue;
        const QString problem = (report.*write)(parser.value(*option));
        if (!problem.isEmpty())
            return context.fail(readiness::AuditIncomplete, problem);
    }
    if (parser.isSet(json))
        context.out << scrub(
            QString::fromUtf8(QJsonDocument(report.json()).toJson(QJsonDocument::Compact)),
            target.password)
                    << '\n';
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
