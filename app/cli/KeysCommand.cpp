// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli keys: the key browser's SKU view on the command line (see KeysCommand.h).
#include "KeysCommand.h"

#include "ConnectionArgs.h"
#include "browse/CsvExport.h"
#include "browse/Glob.h"
#include "browse/KeysReport.h"
#include "browse/SkuTableModel.h"

#include <QJsonArray>

namespace cli {

namespace {

// The verb's options, built once so that parsing and reading them name the same objects.
struct KeysOptions
{
    ConnectionArgs connection;
    QCommandLineOption sku{QStringLiteral("sku"),
                           QStringLiteral("Only SKUs matching this Redis glob "
                                          "(e.g. 'sku-10*')."),
                           QStringLiteral("GLOB")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print one JSON object: {\"skus\": [...], "
                                           "\"summary\": {...}}.")};
    QCommandLineOption csv{QStringLiteral("csv"),
                           QStringLiteral("Print CSV (exact key bytes, TTLs in ms; a cell "
                                          "that a spreadsheet would run as a formula "
                                          "starts with ').")};
    QCommandLineOption summary{QStringLiteral("summary"),
                               QStringLiteral("Print only totals, anomaly counts and the "
                                              "elapsed time.")};
    QCommandLineOption count{QStringLiteral("count"),
                             QStringLiteral("SCAN COUNT per page (default: the scan "
                                            "pace's, 1000 fast, 250 gentle)."),
                             QStringLiteral("N")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Scans the stock and receipt keys of the profile's key schema (SCAN, never KEYS;\n"
            "PTTL and GET pipelined per page) and prints one line per SKU: stock, stock TTL,\n"
            "receipts, soonest receipt expiry and anomalies, in natural SKU order.\n"
            "--summary prints only totals, anomaly counts and the elapsed time.\n"
            "Exit codes: 0 ok, 1 the scan failed or was incomplete, 2 bad arguments,\n"
            "3 could not connect."));
        connection.addTo(parser);
        connection.addScanTo(parser);
        parser.addOptions({sku, json, csv, summary, count});
    }
};

// The scan's options from --sku and --count, or the usage error to print.
std::optional<QString> readScanOptions(const QCommandLineParser &parser, const KeysOptions &o,
                                       browse::InventoryScan::Options *options)
{
    if (parser.isSet(o.json) && parser.isSet(o.csv))
        return QStringLiteral("give --json or --csv, not both");
    const auto pageCount =
        parser.isSet(o.count) ? wholeNumber(parser.value(o.count), 1, 1000000) : qint64(0);
    if (!pageCount)
        return QStringLiteral("--count: give a number from 1 to 1000000");
    if (const auto problem = browse::globProblem(parser.value(o.sku).toUtf8()))
        return QStringLiteral("--sku: %1").arg(*problem);
    options->skuGlob = parser.value(o.sku).toUtf8();
    options->count = int(*pageCount);
    return std::nullopt;
}

void printSummary(Context &context, const QCommandLineParser &parser, const KeysOptions &o,
                  const browse::InventorySummary &totals, const browse::ScanFacts &facts)
{
    if (parser.isSet(o.csv))
        context.out << browse::summaryCsv(totals, facts);
    else if (parser.isSet(o.json))
        context.out << compactJson(browse::summaryJson(totals, facts)) << '\n';
    else
        context.out << browse::summaryText(totals, facts);
}

// One line per SKU in the format asked for; the exit code when the CSV could not be written.
std::optional<int> printSkus(Context &context, const QCommandLineParser &parser,
                             const KeysOptions &o, const browse::KeyspaceStore &store,
                             const browse::InventorySummary &totals, const browse::ScanFacts &facts)
{
    browse::SkuTableModel model(store);
    if (parser.isSet(o.csv)) {
        context.exactBytesOnStdout(); // the CSV keeps every key's bytes (formulas neutralised)
        QString error;
        if (!browse::writeCsv(*context.out.device(), model, &error))
            return context.fail(ExitFailed, QStringLiteral("writing CSV: %1").arg(error));
    } else if (parser.isSet(o.json)) {
        // Streamed row by row: a million SKUs never sit in one QJsonArray.
        context.out << "{\"skus\":[";
        for (int r = 0; r < model.rowCount(); ++r)
            context.out << (r ? "," : "") << compactJson(browse::jsonRow(model, r));
        context.out << "],\"summary\":" << compactJson(browse::summaryJson(totals, facts)) << "}\n";
    } else {
        browse::writeTable(context.out, model);
    }
    return std::nullopt;
}

} // namespace

int runKeys(Context &context)
{
    QCommandLineParser parser;
    KeysOptions o;
    if (auto code = parseArguments(parser, o, context))
        return *code;
    browse::InventoryScan::Options options;
    if (auto problem = readScanOptions(parser, o, &options))
        return context.fail(ExitUsage, *problem);
    int exitCode = ExitUsage;
    const auto run = scanInventory(o.connection, parser, context, options, &exitCode);
    if (!run)
        return exitCode;

    const browse::ScanFacts &facts = run->facts;
    const browse::InventorySummary totals = run->scan->store().totals();
    if (parser.isSet(o.summary))
        printSummary(context, parser, o, totals, facts);
    else if (auto code = printSkus(context, parser, o, run->scan->store(), totals, facts))
        return *code;
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
