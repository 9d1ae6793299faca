// inventory-cli deduct: one manual deduction, as the console's deduction panel runs it, with
// the same audit record. The logic lives in the core (inventory/Deducer); this file parses
// options and prints.
#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "inventory/Deducer.h"
#include "inventory/RetryProtection.h"
#include "redis/ClusterRouter.h"
#include "session/GatedSender.h"
#include "session/WriteGate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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

QJsonValue optionalNumber(const std::optional<qint64> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QJsonValue readingJson(const KeyReading &k)
{
    if (!k.read)
        return QJsonValue();
    if (!k.error.isEmpty())
        return QJsonObject{{QStringLiteral("error"), k.error}};
    return k.value ? QJsonValue(QString::fromUtf8(*k.value)) : QJsonValue();
}

QJsonObject receiptJson(const ReceiptStatus &s)
{
    QJsonObject o{{QStringLiteral("key"), QString::fromUtf8(s.key)},
                  {QStringLiteral("verdict"), s.verdictName()},
                  {QStringLiteral("exists"), s.exists},
                  {QStringLiteral("ttl"), double(s.ttlSeconds)},
                  {QStringLiteral("remaining"), optionalNumber(s.remaining)},
                  {QStringLiteral("quantity"), optionalNumber(s.quantity)},
                  {QStringLiteral("source"), s.source},
                  {QStringLiteral("message"), s.verdict()}};
    if (!s.ok())
        o.insert(QStringLiteral("error"), s.error);
    return o;
}

QJsonObject resultJson(const DeductionResult &r, const QString &auditPath)
{
    const DeductionPlan &p = r.plan;
    const DeductionOutcome &o = r.outcome;
    QJsonArray command;
    for (const QByteArray &a : p.command)
        command.append(QString::fromUtf8(a));
    QJsonArray problems;
    for (const QString &a : r.auditProblems)
        problems.append(a);
    QJsonObject j{{QStringLiteral("outcome"), outcomeName(o.kind)},
                  {QStringLiteral("mode"), modeName(p.request.mode)},
                  {QStringLiteral("remaining"), optionalNumber(o.remaining)},
                  {QStringLiteral("stock"), optionalNumber(o.stock)},
                  {QStringLiteral("stock_key"), QString::fromUtf8(p.stockKey)},
                  {QStringLiteral("server"), r.server},
                  {QStringLiteral("run_id"), r.runId},
                  {QStringLiteral("slot"), p.stockSlot},
                  {QStringLiteral("command"), command},
                  {QStringLiteral("stock_before"), readingJson(r.stockBefore)},
                  {QStringLiteral("stock_after"), readingJson(r.stockAfter)},
                  {QStringLiteral("message"), resultMeaning(r)},
                  {QStringLiteral("next_step"), resultNextStep(r)},
                  {QStringLiteral("duration_ms"), double(r.durationMs)},
                  {QStringLiteral("script_loaded"), r.scriptLoaded},
                  {QStringLiteral("audit_log"), auditPath},
                  {QStringLiteral("audit_problems"), problems}};
    if (p.request.mode == DeductionMode::Function) {
        j.insert(QStringLiteral("receipt_key"), QString::fromUtf8(p.receiptKey));
        j.insert(QStringLiteral("receipt_slot"), p.receiptSlot);
        // Whether the receipt read back still stands behind "a retry returns Already applied".
        j.insert(QStringLiteral("retry_protection"), retryProtectionName(retryProtection(r)));
    }
    if (o.recordedQuantity)
        j.insert(QStringLiteral("recorded_quantity"), double(*o.recordedQuantity));
    if (o.kind == OutcomeKind::Rejected
        || (o.kind == OutcomeKind::MayHaveWritten && !o.outsideContract()))
        j.insert(QStringLiteral("error"), o.serverError);
    if (!o.stockMoved.isEmpty())
        j.insert(QStringLiteral("stock_moved"), o.stockMoved);
    if (!o.anomaly.isEmpty()) {
        j.insert(QStringLiteral("anomaly"), o.anomaly);
        j.insert(QStringLiteral("reply"), o.replyText); // as it came, for whoever investigates
    }
    if (o.kind == OutcomeKind::Unknown || o.kind == OutcomeKind::NotSent)
        j.insert(QStringLiteral("error"), o.transportError);
    if (r.receiptAfter) {
        QJsonObject receipt = receiptJson(*r.receiptAfter);
        receipt.insert(QStringLiteral("message"), receiptVerdict(r, *r.receiptAfter));
        j.insert(QStringLiteral("receipt"), receipt);
    }
    return j;
}

void printText(QTextStream &out, const DeductionResult &r, const DeductionContext &ctx)
{
    const DeductionPlan &p = r.plan;
    const DeductionMode mode = p.request.mode;
    const auto line = [&](const QString &label, const QString &value) {
        out << (label + QLatin1Char(':')).leftJustified(14) << value << '\n';
    };
    line(QStringLiteral("outcome"), r.outcome.summary());
    line(QStringLiteral("meaning"), resultMeaning(r));
    line(QStringLiteral("next step"), resultNextStep(r));
    if (!r.server.isEmpty())
        line(QStringLiteral("server"),
             r.runId.isEmpty() ? r.server
                               : QStringLiteral("%1 (run_id %2)").arg(r.server, r.runId.left(12)));
    line(QStringLiteral("stock key"),
         QStringLiteral("%1 (slot %2)").arg(QString::fromUtf8(p.stockKey)).arg(p.stockSlot));
    if (mode == DeductionMode::Function)
        line(
            QStringLiteral("receipt key"),
            QStringLiteral("%1 (slot %2)").arg(QString::fromUtf8(p.receiptKey)).arg(p.receiptSlot));
    line(QStringLiteral("stock before"),
         r.stockBefore.text() + QStringLiteral(" (read just before)"));
    line(QStringLiteral("stock after"),
         r.stockAfter.read ? r.stockAfter.text() + QStringLiteral(" (read just after)")
                           : QStringLiteral("not read"));
    if (r.receiptAfter)
        line(QStringLiteral("receipt"),
             r.receiptAfter->exists
                 ? QStringLiteral("exists, value %1, TTL %2")
                       .arg(QString::fromUtf8(r.receiptAfter->rawValue), r.receiptAfter->ttlText())
                 : (r.receiptAfter->ok() ? QStringLiteral("missing") : r.receiptAfter->error));
    if (r.scriptLoaded)
        line(QStringLiteral("script"), QStringLiteral("was not loaded (NOSCRIPT): loaded it "
                                                      "and sent the call once more"));
    line(QStringLiteral("audit log"), ctx.auditLogPath);
    out.flush();
}

int runDeduct(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs one stock deduction and prints its outcome.\n"
        "  function mode: FCALL inventory_deduct_v1 2 <stock key> <receipt key> <quantity> <ttl>\n"
        "                 (idempotent per order: a retry with the same order id is safe)\n"
        "  script mode:   EVALSHA <sha1 of stock_decrement.lua> 1 <stock key> <quantity>\n"
        "                 (not idempotent; NOSCRIPT is answered by SCRIPT LOAD and one resend)\n"
        "Keys come from the profile's templates (default stock:{<sku>}:available and\n"
        "idem:{<sku>}:<order>). Every write is appended to the audit log, fsynced, before\n"
        "the outcome is printed. A production session is read-only unless --unlock names it.\n"
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
    ConnectionArgs connection;
    connection.addTo(parser);
    const QCommandLineOption sku(QStringLiteral("sku"), QStringLiteral("The SKU."),
                                 QStringLiteral("SKU"));
    const QCommandLineOption order(QStringLiteral("order"),
                                   QStringLiteral("The order id (required in function mode)."),
                                   QStringLiteral("ID"));
    const QCommandLineOption quantity(QStringLiteral("quantity"),
                                      QStringLiteral("How much to deduct: 1 to 1000000."),
                                      QStringLiteral("N"));
    const QCommandLineOption ttl(QStringLiteral("ttl"),
                                 QStringLiteral("Receipt TTL in seconds, 1 to 31536000 (default: "
                                                "the profile's, else 604800 = 7 days)."),
                                 QStringLiteral("S"));
    const QCommandLineOption mode(QStringLiteral("mode"),
                                  QStringLiteral("function (default) or script."),
                                  QStringLiteral("MODE"), QStringLiteral("function"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print the outcome as one JSON object."));
    const QCommandLineOption check(QStringLiteral("check"),
                                   QStringLiteral("Do not deduct: read the order's receipt and "
                                                  "say whether its deduction happened."));
    const QCommandLineOption audit(QStringLiteral("audit-log"),
                                   QStringLiteral("Audit log file (default: the console's)."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption unlock(QStringLiteral("unlock"),
                                    QStringLiteral("Allow writes on a read-only (production) "
                                                   "session: the profile name (host:port with "
                                                   "--url)."),
                                    QStringLiteral("NAME"));
    parser.addOptions({sku, order, quantity, ttl, mode, json, check, audit, unlock});
    if (auto code = parseArguments(parser, context))
        return *code;

    const auto parsedMode = parseMode(parser.value(mode));
    if (!parsedMode)
        return context.fail(ExitUsage, QStringLiteral("--mode: give function or script"));
    for (const QCommandLineOption *required : {&sku, &quantity})
        if (!parser.isSet(*required) && !parser.isSet(check))
            return context.fail(ExitUsage,
                                QStringLiteral("--%1 is required (see %2 --help)")
                                    .arg(required->names().first(), context.commandName));
    int exitCode = ExitUsage;
    const auto target = connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;
    session::ConnectionProfile profile = target->profile;
    // As in `inventory-cli functions`: a URL has no profile name to type for an unlock, so its
    // address stands in (and names the session in the audit log). Through --ssh the address
    // as written was put there already (the profile's own is the forward's).
    if (parser.isSet(QStringLiteral("url")) && !target->tunnel)
        profile.name = QStringLiteral("%1:%2").arg(profile.host).arg(profile.port);
    const auto schema = keySchema(profile, context, &exitCode);
    if (!schema)
        return exitCode;

    DeductionContext ctx;
    ctx.schema = *schema;
    ctx.defaultTtlSeconds = profile.receiptTtlSeconds;
    ctx.profileName = profile.name;
    ctx.timeoutMs = profile.timeoutMs;
    if (parser.isSet(audit))
        ctx.auditLogPath = parser.value(audit);

    DeductionRequest request;
    request.mode = *parsedMode;
    request.sku = parser.value(sku).toUtf8();
    request.orderId = parser.value(order).toUtf8();
    request.quantity = parser.value(quantity).toUtf8();
    request.ttlSeconds =
        parser.isSet(ttl) ? parser.value(ttl).toUtf8() : QByteArray::number(ctx.defaultTtlSeconds);
    if (parser.isSet(check)) {
        request.mode = DeductionMode::Function;
        request.quantity = "1"; // a check only needs the keys
    }
    const DeductionPlan plan = planDeduction(request, ctx.schema);
    if (!plan.ok()) {
        QStringList why;
        for (const FieldProblem &p : plan.problems)
            why << QStringLiteral("--%1: %2")
                       .arg(p.field == QLatin1String("keys") ? QStringLiteral("sku") : p.field,
                            p.message);
        return context.fail(ExitUsage,
                            QStringLiteral("nothing sent: %1").arg(why.join(QStringLiteral("; "))));
    }

    const auto client = connectRouter(profile.toConnectionOptions(target->password), context,
                                      ExitConnection, &exitCode, profile.addressMap());
    if (!client)
        return exitCode;
    ctx.serverAddress = client->address();
    // On a cluster the seed is not who runs the deduction: the record names the slot's owner.
    ctx.nodeForSlot = slotOwnerLookup(client->topologySource());

    if (parser.isSet(check)) {
        const ReceiptStatus s = checkReceiptBlocking(*client, plan.receiptKey, ctx.timeoutMs);
        if (parser.isSet(json))
            context.out << QJsonDocument(receiptJson(s)).toJson(QJsonDocument::Compact) << '\n';
        else
            context.out << s.verdict() << '\n';
        context.out.flush();
        if (!s.ok())
            return ExitConnection;
        if (s.form == ReceiptForm::Invalid)
            return ExitRejected; // what a retry would meet
        return s.exists ? int(ExitOk) : int(ExitStockMissing);
    }

    session::WriteGate gate(*client, profile);
    if (parser.isSet(audit))
        gate.setAuditLogPath(ctx.auditLogPath);
    // The label rests on what the server says: the proof of a Local claim, and the run_id an
    // unlock is recorded with.
    gate.waitForServer(ctx.timeoutMs + 1000);
    if (parser.isSet(unlock) && !gate.unlock(parser.value(unlock)))
        return context.fail(ExitUsage, QStringLiteral("--unlock: %1").arg(gate.unlockError()));
    session::GatedSender sender(*client, gate);
    const DeductionResult result = deductBlocking(sender, ctx, plan);
    for (const QString &p : result.auditProblems)
        context.err << context.commandName << ": warning: " << p << '\n';
    context.err.flush();
    if (parser.isSet(json))
        context.out << scrub(
            QString::fromUtf8(
                QJsonDocument(resultJson(result, ctx.auditLogPath)).toJson(QJsonDocument::Compact)),
            target->password)
                    << '\n';
    else
        printText(context.out, result, ctx);
    context.out.flush();
    return exitCodeFor(result.outcome.kind);
}

const Registration deductRegistration{"deduct",
                                      "Deduct stock once (FCALL or the EVAL script) and print the "
                                      "outcome; --check reads an order's receipt",
                                      &runDeduct};

} // namespace
} // namespace cli
