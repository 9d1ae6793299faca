// inventory-cli order: the key browser's order lookup on the command line (see
// OrderCommand.h).
#include "OrderCommand.h"

#include "ConnectionArgs.h"
#include "browse/InventoryScan.h"
#include "browse/OrderReport.h"
#include "redis/RedisClient.h"

#include <QEventLoop>
#include <QJsonDocument>

namespace cli {

int runOrder(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Finds every receipt of one order across SKUs (SCAN MATCH over the receipt family of\n"
        "the profile's key schema, never KEYS) and says, for each, what was deducted, what was\n"
        "left, when the receipt expires and what a retry would do.\n"
        "Exit codes: 0 ok (found or not), 1 the search failed or was incomplete, 2 bad\n"
        "arguments, 3 could not connect."));
    parser.addPositionalArgument(QStringLiteral("ORDER_ID"),
                                 QStringLiteral("The order id, exactly as in the receipt key."));
    ConnectionArgs connection;
    connection.addTo(parser);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(json);

    // The shared argument helper takes no positional arguments: lift ORDER_ID out first
    // (the parser knows which options take values), then let it handle the rest and --help.
    QCommandLineParser probe;
    for (const QCommandLineOption &o : {json})
        probe.addOption(o);
    ConnectionArgs probeConnection;
    probeConnection.addTo(probe);
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
    int exitCode = ExitUsage;
    const auto target = connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;
    const session::ConnectionProfile &profile = target->profile;
    const auto schema =
        inventory::KeySchema::fromTemplates(profile.stockKeyTemplate, profile.receiptKeyTemplate);
    if (!schema.ok())
        return context.fail(ExitUsage, schema.error());

    redis::RedisClient client(profile.toConnectionOptions(target->password));
    client.open();
    if (!client.waitUntilReady(profile.timeoutMs + 1000))
        return context.fail(ExitConnection, scrub(client.stateDetail(), target->password));

    browse::InventoryScan scan(client, schema.value());
    browse::InventoryScan::Options options;
    options.orderId = orderId;
    options.count = 5000; // one pattern, few hits: big pages, few round trips
    options.timeoutMs = qMax(30000, profile.timeoutMs);
    QEventLoop loop;
    QObject::connect(&scan, &browse::InventoryScan::finished, &loop, &QEventLoop::quit);
    scan.start(options);
    loop.exec();

    const browse::ScanFacts facts = browse::ScanFacts::of(scan);
    const qint64 now = browse::KeyspaceScanner::nowMs();
    if (parser.isSet(json))
        context.out << QJsonDocument(browse::orderReportJson(scan.store(), orderId, facts, now))
                           .toJson(QJsonDocument::Compact)
                    << '\n';
    else
        context.out << browse::orderReportText(scan.store(), orderId, facts, now);
    context.out.flush();
    if (!facts.complete)
        return context.fail(
            ExitFailed,
            QStringLiteral("the search did not finish: %1")
                .arg(scrub(facts.error.isEmpty() ? QStringLiteral("cancelled") : facts.error,
                           target->password)));
    return ExitOk;
}

namespace {
const Registration registration{"order",
                                "Find an order's receipts in every SKU and explain each "
                                "(deducted, left, expiry, retry)",
                                &runOrder};
} // namespace

} // namespace cli
