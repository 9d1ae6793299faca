// inventory-cli keys: the key browser's SKU view on the command line (see KeysCommand.h).
#include "KeysCommand.h"

#include "ConnectionArgs.h"
#include "browse/CsvExport.h"
#include "browse/Glob.h"
#include "browse/KeysReport.h"
#include "browse/SkuTableModel.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace cli {

int runKeys(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Scans the stock and receipt keys of the profile's key schema (SCAN, never KEYS;\n"
        "PTTL and GET pipelined per page) and prints one line per SKU: stock, stock TTL,\n"
        "receipts, soonest receipt expiry and anomalies, in natural SKU order.\n"
        "--summary prints only totals, anomaly counts and the elapsed time.\n"
        "Exit codes: 0 ok, 1 the scan failed or was incomplete, 2 bad arguments,\n"
        "3 could not connect."));
    ConnectionArgs connection;
    connection.addTo(parser);
    connection.addScanTo(parser);
    const QCommandLineOption sku(QStringLiteral("sku"),
                                 QStringLiteral("Only SKUs matching this Redis glob "
                                                "(e.g. 'sku-10*')."),
                                 QStringLiteral("GLOB"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print one JSON object: {\"skus\": [...], "
                                                 "\"summary\": {...}}."));
    const QCommandLineOption csv(QStringLiteral("csv"),
                                 QStringLiteral("Print CSV (exact key bytes, TTLs in ms; a cell "
                                                "that a spreadsheet would run as a formula "
                                                "starts with ')."));
    const QCommandLineOption summary(QStringLiteral("summary"),
                                     QStringLiteral("Print only totals, anomaly counts and the "
                                                    "elapsed time."));
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("SCAN COUNT per page (default: the scan "
                                                  "pace's, 1000 fast, 250 gentle)."),
                                   QStringLiteral("N"));
    parser.addOptions({sku, json, csv, summary, count});
    if (auto code = parseArguments(parser, context))
        return *code;
    if (parser.isSet(json) && parser.isSet(csv))
        return context.fail(ExitUsage, QStringLiteral("give --json or --csv, not both"));
    bool countOk = !parser.isSet(count);
    const int pageCount = countOk ? 0 : parser.value(count).toInt(&countOk);
    if (!countOk || (parser.isSet(count) && (pageCount < 1 || pageCount > 1000000)))
        return context.fail(ExitUsage, QStringLiteral("--count: give a number from 1 to 1000000"));
    if (const auto problem = browse::globProblem(parser.value(sku).toUtf8()))
        return context.fail(ExitUsage, QStringLiteral("--sku: %1").arg(*problem));
    browse::InventoryScan::Options options;
    options.skuGlob = parser.value(sku).toUtf8();
    options.count = pageCount;
    int exitCode = ExitUsage;
    const auto run = scanInventory(connection, parser, context, options, &exitCode);
    if (!run)
        return exitCode;

    const browse::ScanFacts &facts = run->facts;
    const browse::InventorySummary totals = run->scan->store().totals();
    if (parser.isSet(summary)) {
        if (parser.isSet(csv))
            context.out << browse::summaryCsv(totals, facts);
        else if (parser.isSet(json))
            context.out
                << QJsonDocument(browse::summaryJson(totals, facts)).toJson(QJsonDocument::Compact)
                << '\n';
        else
            context.out << browse::summaryText(totals, facts);
    } else {
        browse::SkuTableModel model(run->scan->store());
        if (parser.isSet(csv)) {
            context.exactBytesOnStdout(); // the CSV keeps every key's bytes (formulas neutralised)
            QString error;
            if (!browse::writeCsv(*context.out.device(), model, &error))
                return context.fail(ExitFailed, QStringLiteral("writing CSV: %1").arg(error));
        } else if (parser.isSet(json)) {
            // Streamed row by row: a million SKUs never sit in one QJsonArray.
            context.out << "{\"skus\":[";
            for (int r = 0; r < model.rowCount(); ++r)
                context.out
                    << (r ? "," : "")
                    << QJsonDocument(browse::jsonRow(model, r)).toJson(QJsonDocument::Compact);
            context.out
                << "],\"summary\":"
                << QJsonDocument(browse::summaryJson(totals, facts)).toJson(QJsonDocument::Compact)
                << "}\n";
        } else {
            browse::writeTable(context.out, model);
        }
    }
    context.out.flush();
    return run->exitCode(context, QStringLiteral("scan"));
}

namespace {
const Registration keysRegistration{"keys",
                                    "Scan stock keys and receipts: SKUs with stock, TTLs, receipt "
                                    "counts and anomalies",
                                    &runKeys};
} // namespace

} // namespace cli
