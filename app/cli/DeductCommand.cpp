// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli deduct: one manual deduction, as the console's deduction panel runs it, with
// the same audit record. The logic lives in the core (inventory/Deducer); this file parses
// options and runs it, DeductReport prints.
#include "ConnectionArgs.h"
#include "DeductReport.h"
#include "Subcommand.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "inventory/Deducer.h"
#include "redis/ClusterRouter.h"

namespace cli {
namespace {

using namespace inventory;

// Exit codes beyond the shared ones (Subcommand.h): one per outcome that needs attention.
enum DeductExit {
    ExitInsufficient = 4,
    ExitStockMissing = 5,
    ExitRejected = 6,
    ExitUnknown = 7,
};

int exitCodeFor(OutcomeKind kind)
{
    switch (kind) {
    case OutcomeKind::Deducted:
    case OutcomeKind::AlreadyApplied:
        return ExitOk;
    case OutcomeKind::Insufficient:
        return ExitInsufficient;
    case OutcomeKind::StockMissing:
        return ExitStockMissing;
    case OutcomeKind::Rejected:
        return ExitRejected;
    case OutcomeKind::MayHaveWritten: // like a lost reply: check before anything else
    case OutcomeKind::Unknown:
        return ExitUnknown;
    case OutcomeKind::NotSent:
        return ExitConnection;
    }
    return ExitFailed;
}

// The verb's options, built once so that parsing and reading them name the same objects.
struct DeductOptions
{
    ConnectionArgs connection;
    QCommandLineOption sku{QStringLiteral("sku"), QStringLiteral("The SKU."),
                           QStringLiteral("SKU")};
    QCommandLineOption order{QStringLiteral("order"),
                             QStringLiteral("The order id (required in function mode)."),
                             QStringLiteral("ID")};
    QCommandLineOption quantity{QStringLiteral("quantity"),
                                QStringLiteral("How much to deduct: 1 to 1000000."),
                                QStringLiteral("N")};
    QCommandLineOption ttl{QStringLiteral("ttl"),
                           QStringLiteral("Receipt TTL in seconds, 1 to 31536000 (default: "
                                          "the profile's, else 604800 = 7 days)."),
                           QStringLiteral("S")};
    QCommandLineOption mode{QStringLiteral("mode"), QStringLiteral("function (default) or script."),
                            QStringLiteral("MODE"), QStringLiteral("function")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print the outcome as one JSON object.")};
    QCommandLineOption check{QStringLiteral("check"),
                             QStringLiteral("Do not deduct: read the order's receipt and "
                                            "say whether its deduction happened.")};
    QCommandLineOption audit{QStringLiteral("audit-log"),
                             QStringLiteral("Audit log file (default: the console's)."),
                             QStringLiteral("FILE")};
    QCommandLineOption unlock{QStringLiteral("unlock"),
                              QStringLiteral("Allow writes on a read-only (production) "
                                             "session: the profile name (host:port with "
                                             "--url)."),
                              QStringLiteral("NAME")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Runs one stock deduction and prints its outcome.\n"
            "  function mode: FCALL inventory_deduct_v1 2 <stock key> <receipt key> <quantity> "
            "<ttl>\n"
            "                 (idempotent per order: a retry with the same order id is safe)\n"
            "  script mode:   EVALSHA <sha1 of stock_decrement.lua> 1 <stock key> <quantity>\n"
            "                 (not idempotent; NOSCRIPT is answered by SCRIPT LOAD and one "
            "resend)\n"
            "Keys come from the profile's templates (default stock:{<sku>}:available and\n"
            "idem:{<sku>}:<order>). Every write is appended to the audit log, fsynced, before\n"
            "the outcome is printed. A production session is read-only unless --unlock names "
            "it.\n"
            "Exit codes:\n"
            "  0  deducted, or already applied (nothing to do)\n"
            "  2  bad arguments, or a value the contract refuses (nothing sent)\n"
            "  3  could not connect, or nothing sent (disconnected, read-only session)\n"
            "  4  insufficient stock (nothing written)\n"
            "  5  stock key missing (nothing written)\n"
            "  6  rejected by the server (its error is printed; nothing written)\n"
            "  7  outcome unknown: sent, but no reply (timeout, connection lost), an error that\n"
            "     may have come after a write, or a reply the contract never gives. Run again\n"
            "     with --check to read the receipt before doing anything else.\n"
            "With --check: 0 the deduction happened, 5 no receipt, 3 the check failed,\n"
            "6 the receipt key holds something the functions refuse (an anomaly: whether the\n"
            "deduction happened cannot be told, and a retry fails)."));
        connection.addTo(parser);
        parser.addOptions({sku, order, quantity, ttl, mode, json, check, audit, unlock});
    }
};

DeductionContext deductionContext(const profiles::ConnectionProfile &profile,
                                  const KeySchema &schema, const QCommandLineParser &parser,
                                  const DeductOptions &o)
{
    DeductionContext ctx;
    ctx.schema = schema;
    ctx.defaultTtlSeconds = profile.receiptTtlSeconds;
    ctx.profileName = profile.name;
    ctx.timeoutMs = profile.timeoutMs;
    if (parser.isSet(o.audit))
        ctx.auditLogPath = parser.value(o.audit);
    return ctx;
}

DeductionRequest deductionRequest(const QCommandLineParser &parser, const DeductOptions &o,
                                  DeductionMode mode, qint64 defaultTtlSeconds)
{
    DeductionRequest request;
    request.mode = mode;
    request.sku = parser.value(o.sku).toUtf8();
    request.orderId = parser.value(o.order).toUtf8();
    request.quantity = parser.value(o.quantity).toUtf8();
    request.ttlSeconds =
        parser.isSet(o.ttl) ? parser.value(o.ttl).toUtf8() : QByteArray::number(defaultTtlSeconds);
    if (parser.isSet(o.check)) {
        request.mode = DeductionMode::Function;
        request.quantity = "1"; // a check only needs the keys
    }
    return request;
}

int checkReceipt(Context &context, redis::ClusterRouter &client, const DeductionPlan &plan,
                 int timeoutMs, bool json)
{
    const ReceiptStatus s = checkReceiptBlocking(client, plan.receiptKey, timeoutMs);
    if (json)
        context.out << compactJson(receiptJson(s)) << '\n';
    else
        context.out << s.verdict() << '\n';
    context.out.flush();
    if (!s.ok())
        return ExitConnection;
    if (s.form == ReceiptForm::Invalid)
        return ExitRejected; // what a retry would meet
    return s.exists ? int(ExitOk) : int(ExitStockMissing);
}

void printResult(Context &context, const DeductionResult &result, const DeductionContext &ctx,
                 bool json, const QString &password)
{
    for (const core::Sentence &p : result.auditProblems)
        context.err << context.commandName << ": warning: " << p.english << '\n';
    context.err.flush();
    if (json)
        context.out << scrub(compactJson(resultJson(result, ctx.auditLogPath)), password) << '\n';
    else
        printResultText(context.out, result, ctx);
    context.out.flush();
}

int deductOnce(Context &context, redis::ClusterRouter &client,
               const profiles::ConnectionProfile &profile, const DeductionContext &ctx,
               const DeductionPlan &plan, const QCommandLineParser &parser, const DeductOptions &o,
               const QString &password)
{
    gate::WriteGate gate(client, profile);
    if (parser.isSet(o.audit))
        gate.setAuditLogPath(ctx.auditLogPath);
    // The label rests on what the server says: the proof of a Local claim, and the run_id an
    // unlock is recorded with.
    gate.waitForServer(ctx.timeoutMs + 1000);
    if (parser.isSet(o.unlock) && !gate.unlock(parser.value(o.unlock)))
        return context.fail(ExitUsage, QStringLiteral("--unlock: %1").arg(gate.unlockError()));
    gate::GatedSender sender(client, gate);
    const DeductionResult result = deductBlocking(sender, ctx, plan);
    printResult(context, result, ctx, parser.isSet(o.json), password);
    return exitCodeFor(result.outcome.kind);
}

int runDeduct(Context &context)
{
    QCommandLineParser parser;
    DeductOptions o;
    if (auto code = parseArguments(parser, o, context))
        return *code;

    const auto parsedMode = parseMode(parser.value(o.mode));
    if (!parsedMode)
        return context.fail(ExitUsage, QStringLiteral("--mode: give function or script"));
    for (const QCommandLineOption *required : {&o.sku, &o.quantity})
        if (!parser.isSet(*required) && !parser.isSet(o.check))
            return context.fail(ExitUsage,
                                QStringLiteral("--%1 is required (see %2 --help)")
                                    .arg(required->names().first(), context.commandName));
    int exitCode = ExitUsage;
    const auto target = o.connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;
    profiles::ConnectionProfile profile = target->profile;
    nameUrlTargetByAddress(parser, profile);
    const auto schema = keySchema(profile, context, &exitCode);
    if (!schema)
        return exitCode;

    DeductionContext ctx = deductionContext(profile, *schema, parser, o);
    const DeductionPlan plan =
        planDeduction(deductionRequest(parser, o, *parsedMode, ctx.defaultTtlSeconds), ctx.schema);
    if (!plan.ok())
        return context.fail(ExitUsage, planProblemsLine(plan.problems));

    const auto client = connectRouter(profile.toConnectionOptions(target->password), context,
                                      ExitConnection, &exitCode, profile.addressMap());
    if (!client)
        return exitCode;
    ctx.serverAddress = client->address();
    // On a cluster the seed is not who runs the deduction: the record names the slot's owner.
    ctx.nodeForSlot = slotOwnerLookup(client->topologySource());

    if (parser.isSet(o.check))
        return checkReceipt(context, *client, plan, ctx.timeoutMs, parser.isSet(o.json));
    return deductOnce(context, *client, profile, ctx, plan, parser, o, target->password);
}

const Registration deductRegistration{"deduct",
                                      "Deduct stock once (FCALL or the EVAL script) and print the "
                                      "outcome; --check reads an order's receipt",
                                      &runDeduct};

} // namespace
} // namespace cli
