// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli order: the key browser's order lookup on the command line (see
// OrderCommand.h).
#include "OrderCommand.h"

#include "ConnectionArgs.h"
#include "browse/OrderAuditNote.h"
#include "browse/OrderReport.h"
#include "redis/ClusterRouter.h"

namespace cli {

namespace {

// The verb's options, built once so that parsing and reading them name the same objects.
struct OrderOptions
{
    ConnectionArgs connection;
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print one JSON object.")};
    QCommandLineOption warnWithin{
        QStringLiteral("warn-within"),
        QStringLiteral("Flag receipts that expire within this many seconds (default %1).")
            .arg(browse::DefaultExpiryWarningMs / 1000),
        QStringLiteral("SECONDS"), QString::number(browse::DefaultExpiryWarningMs / 1000)};
    QCommandLineOption auditLog{
        QStringLiteral("audit-log"),
        QStringLiteral("The audit log whose records narrow a missing receipt (default %1).")
            .arg(inventory::AuditLog::defaultPath()),
        QStringLiteral("FILE")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Finds every receipt of one order across SKUs (SCAN MATCH over the receipt family "
            "of\n"
            "the profile's key schema, never KEYS) and says, for each, what was deducted, what "
            "was\n"
            "left after it, and whether the customer can retry safely (until when, and what "
            "that\n"
            "rests on: the server's eviction policy, persistence and start time). A receipt "
            "that\n"
            "expires within --warn-within seconds is flagged WARNING (JSON: expiring_soon).\n"
            "Exit codes: 0 ok (found or not), 1 the search failed or was incomplete, 2 bad\n"
            "arguments, 3 could not connect."));
        parser.addPositionalArgument(QStringLiteral("ORDER_ID"),
                                     QStringLiteral("The order id, exactly as in the receipt "
                                                    "key."));
        connection.addTo(parser);
        connection.addScanTo(parser);
        parser.addOption(json);
        parser.addOption(warnWithin);
        parser.addOption(auditLog);
    }
};

// The shared argument helper takes no positional arguments: ORDER_ID is lifted out first
// (the parser knows which options take values), leaving the rest and --help to it.
QByteArray liftOrderId(const OrderOptions &o, Context *rest)
{
    QCommandLineParser probe;
    for (const QCommandLineOption &option : {o.json, o.warnWithin, o.auditLog})
        probe.addOption(option);
    ConnectionArgs probeConnection;
    probeConnection.addTo(probe);
    probeConnection.addScanTo(probe);
    probe.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    if (!probe.parse(rest->arguments) || probe.positionalArguments().isEmpty())
        return QByteArray();
    const QString id = probe.positionalArguments().first();
    const qsizetype at = rest->arguments.lastIndexOf(id);
    if (at > 0)
        rest->arguments.removeAt(at);
    return id.toUtf8();
}

// With no receipt found, what this console's audit log says about the order instead.
QString auditNote(const QCommandLineParser &parser, const OrderOptions &o,
                  const QByteArray &orderId, const browse::OrderEvidence &evidence)
{
    const auto audit = inventory::AuditLog::read(
        parser.isSet(o.auditLog) ? parser.value(o.auditLog) : inventory::AuditLog::defaultPath());
    return audit.records.isEmpty() && !audit.problems.isEmpty()
               ? QStringLiteral("Could not read this console's audit log: %1")
                     .arg(audit.problems.first())
               : browse::orderAuditNote(inventory::pairAttempts(audit.records), orderId,
                                        evidence.nodes);
}

// A report is only as good as what retry safety rests on: a server that could not be read
// fails the run even though the receipts were found.
int evidenceExit(Context &context, const browse::OrderEvidence &evidence)
{
    QList<browse::ServerEvidence> read = evidence.nodes + evidence.byReceipt.values();
    for (const browse::ServerEvidence &e : read)
        if (!e.known())
            return context.fail(
                ExitFailed,
                QStringLiteral("could not read what retry safety rests on: %1").arg(e.readError));
    return ExitOk;
}

} // namespace

int runOrder(Context &context)
{
    QCommandLineParser parser;
    OrderOptions o;
    o.addTo(parser);
    Context rest = context;
    const QByteArray orderId = liftOrderId(o, &rest);
    if (auto code = parseArguments(parser, rest))
        return *code;
    if (orderId.isEmpty())
        return context.fail(
            ExitUsage,
            QStringLiteral("give the order id (see %1 --help)").arg(context.commandName));
    const auto warnSeconds = wholeNumber(parser.value(o.warnWithin), 0, 31536000);
    if (!warnSeconds)
        return context.fail(ExitUsage,
                            QStringLiteral("--warn-within takes seconds, from 0 to 31536000"));
    browse::InventoryScan::Options options;
    options.orderId = orderId;
    options.count = 0; // the pace's sparse COUNT: one pattern, few hits, big pages
    int exitCode = ExitUsage;
    const auto run = scanInventory(o.connection, parser, context, options, &exitCode);
    if (!run)
        return exitCode;

    const browse::KeyspaceStore &store = run->scan->store();
    // What "safe to retry" and "no receipt" rest on: each holding server's eviction policy,
    // persistence and start time, read now.
    browse::OrderEvidence evidence =
        browse::readOrderEvidence(*run->client, store, run->target.profile.timeoutMs);
    if (evidence.byReceipt.isEmpty())
        evidence.auditNote = auditNote(parser, o, orderId, evidence);
    const qint64 now = browse::KeyspaceScanner::nowMs();
    if (parser.isSet(o.json))
        context.out << compactJson(
            browse::orderReportJson(store, orderId, run->facts, evidence, now, *warnSeconds * 1000))
                    << '\n';
    else
        context.out << browse::orderReportText(store, orderId, run->facts, evidence, now,
                                               *warnSeconds * 1000);
    context.out.flush();
    if (const int code = run->exitCode(context, QStringLiteral("search")); code != ExitOk)
        return code;
    return evidenceExit(context, evidence);
}

namespace {
const Registration orderRegistration{"order",
                                     "Find an order's receipts in every SKU and explain each "
                                     "(deducted, left, safe to retry until when)",
                                     &runOrder};
} // namespace

} // namespace cli
