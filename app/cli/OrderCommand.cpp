// inventory-cli order: the key browser's order lookup on the command line (see
// OrderCommand.h).
#include "OrderCommand.h"

#include "ConnectionArgs.h"
#include "browse/OrderAuditNote.h"
#include "browse/OrderReport.h"
#include "redis/ClusterRouter.h"

#include <QJsonDocument>

namespace cli {

int runOrder(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Finds every receipt of one order across SKUs (SCAN MATCH over the receipt family of\n"
        "the profile's key schema, never KEYS) and says, for each, what was deducted, what was\n"
        "left after it, and whether the customer can retry safely (until when, and what that\n"
        "rests on: the server's eviction policy, persistence and start time). A receipt that\n"
        "expires within --warn-within seconds is flagged WARNING (JSON: expiring_soon).\n"
        "Exit codes: 0 ok (found or not), 1 the search failed or was incomplete, 2 bad\n"
        "arguments, 3 could not connect."));
    parser.addPositionalArgument(QStringLiteral("ORDER_ID"),
                                 QStringLiteral("The order id, exactly as in the receipt key."));
    ConnectionArgs connection;
    connection.addTo(parser);
    connection.addScanTo(parser);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(json);
    const QCommandLineOption warnWithin(
        QStringLiteral("warn-within"),
        QStringLiteral("Flag receipts that expire within this many seconds (default %1).")
            .arg(browse::DefaultExpiryWarningMs / 1000),
        QStringLiteral("SECONDS"), QString::number(browse::DefaultExpiryWarningMs / 1000));
    parser.addOption(warnWithin);
    const QCommandLineOption auditLog(
        QStringLiteral("audit-log"),
        QStringLiteral("The audit log whose records narrow a missing receipt (default %1).")
            .arg(inventory::AuditLog::defaultPath()),
        QStringLiteral("FILE"));
    parser.addOption(auditLog);

    // The shared argument helper takes no positional arguments: lift ORDER_ID out first
    // (the parser knows which options take values), then let it handle the rest and --help.
    QCommandLineParser probe;
    for (const QCommandLineOption &o : {json, warnWithin, auditLog})
        probe.addOption(o);
    ConnectionArgs probeConnection;
    probeConnection.addTo(probe);
    probeConnection.addScanTo(probe);
    probe.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    QByteArray orderId;
    Context rest = context;
    if (probe.parse(context.arguments) && !probe.positionalArguments().isEmpty()) {
        const QString id = probe.positionalArguments().first();
        orderId = id.toUtf8();
        const qsizetype at = rest.arguments.lastIndexOf(id);
        if (at > 0)
            rest.arguments.removeAt(at);
    }
    if (auto code = parseArguments(parser, rest))
        return *code;
    if (orderId.isEmpty())
        return context.fail(
            ExitUsage,
            QStringLiteral("give the order id (see %1 --help)").arg(context.commandName));
    bool warnOk = false;
    const qint64 warnSeconds = parser.value(warnWithin).toLongLong(&warnOk);
    if (!warnOk || warnSeconds < 0 || warnSeconds > 31536000)
        return context.fail(ExitUsage,
                            QStringLiteral("--warn-within takes seconds, from 0 to 31536000"));
    browse::InventoryScan::Options options;
    options.orderId = orderId;
    options.count = 0; // the pace's sparse COUNT: one pattern, few hits, big pages
    int exitCode = ExitUsage;
    const auto run = scanInventory(connection, parser, context, options, &exitCode);
    if (!run)
        return exitCode;

    const browse::KeyspaceStore &store = run->scan->store();
    // What "safe to retry" and "no receipt" rest on: each holding server's eviction policy,
    // persistence and start time, read now.
    browse::OrderEvidence evidence =
        browse::readOrderEvidence(*run->client, store, run->target.profile.timeoutMs);
    if (evidence.byReceipt.isEmpty()) {
        const auto audit = inventory::AuditLog::read(
            parser.isSet(auditLog) ? parser.value(auditLog) : inventory::AuditLog::defaultPath());
        evidence.auditNote = audit.records.isEmpty() && !audit.problems.isEmpty()
                                 ? QStringLiteral("Could not read this console's audit log: %1")
                                       .arg(audit.problems.first())
                                 : browse::orderAuditNote(inventory::pairAttempts(audit.records),
                                                          orderId, evidence.nodes);
    }
    const qint64 now = browse::KeyspaceScanner::nowMs();
    if (parser.isSet(json))
        context.out << QJsonDocument(browse::orderReportJson(store, orderId, run->facts, evidence,
                                                             now, warnSeconds * 1000))
                           .toJson(QJsonDocument::Compact)
                    << '\n';
    else
        context.out << browse::orderReportText(store, orderId, run->facts, evidence, now,
                                               warnSeconds * 1000);
    context.out.flush();
    if (const int code = run->exitCode(context, QStringLiteral("search")); code != ExitOk)
        return code;
    QList<browse::ServerEvidence> read = evidence.nodes + evidence.byReceipt.values();
    for (const browse::ServerEvidence &e : read)
        if (!e.known())
            return context.fail(
                ExitFailed,
                QStringLiteral("could not read what retry safety rests on: %1").arg(e.readError));
    return ExitOk;
}

namespace {
const Registration orderRegistration{"order",
                                     "Find an order's receipts in every SKU and explain each "
                                     "(deducted, left, safe to retry until when)",
                                     &runOrder};
} // namespace

} // namespace cli
