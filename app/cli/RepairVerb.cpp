// SPDX-License-Identifier: GPL-3.0-or-later
// The sequence `release` and `adjust` share (RepairVerb.h). The logic is the core's
// (inventory/Repairer); this file parses options, runs it and prints through RepairReport.
#include "RepairVerb.h"

#include "DeductReport.h"
#include "RepairReport.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "inventory/Repairer.h"
#include "redis/ClusterRouter.h"

namespace cli {
namespace {

using namespace inventory;

// "With --apply: how long ..." beside another option, "How long ..." alone.
QString writeHelp(const QString &condition, const QString &text)
{
    return condition.isEmpty() ? text.at(0).toUpper() + text.mid(1)
                               : QStringLiteral("%1: %2").arg(condition, text);
}

// The verb's options, built once so that parsing and reading them name the same objects.
struct RepairOptions
{
    explicit RepairOptions(RepairKind kind)
        : release(kind == RepairKind::Release)
        , id(release ? QStringLiteral("order") : QStringLiteral("id"),
             release ? QStringLiteral("The order whose deduction is released.")
                     : QStringLiteral("The adjustment id: a second adjustment with the same id "
                                      "changes nothing."),
             QStringLiteral("ID"))
        , amount(release ? QStringLiteral("quantity") : QStringLiteral("delta"),
                 release ? QStringLiteral("How much the order deducted: 1 to 1000000 (a v2 "
                                          "receipt must record the same).")
                         : QStringLiteral("The correction: 1 to 1000000, with a leading - for a "
                                          "decrease (give it as --delta=-5)."),
                 QStringLiteral("N"))
        , reason(QStringLiteral("reason"),
                 release ? QStringLiteral("Why, for the audit log (optional).")
                         : QStringLiteral("Why the stock is corrected, for the audit log "
                                          "(required)."),
                 QStringLiteral("TEXT"))
    {}

    bool release;
    ConnectionArgs connection;
    QCommandLineOption sku{QStringLiteral("sku"), QStringLiteral("The SKU."),
                           QStringLiteral("SKU")};
    QCommandLineOption id;
    QCommandLineOption amount;
    QCommandLineOption reason;
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print the outcome as one JSON object.")};
    RepairWriteOptions write;

    void addTo(QCommandLineParser &parser)
    {
        connection.addTo(parser);
        parser.addOptions({sku, id, amount, write.ttl, reason, json, write.audit, write.confirm});
    }
};

int exitCodeFor(RepairOutcomeKind kind)
{
    switch (kind) {
    case RepairOutcomeKind::Applied:
    case RepairOutcomeKind::AlreadyApplied:
        return ExitOk;
    case RepairOutcomeKind::NoReceipt:
    case RepairOutcomeKind::OtherQuantity:
    case RepairOutcomeKind::OutOfBounds:
        return RepairExitRefused;
    case RepairOutcomeKind::StockMissing:
        return RepairExitStockMissing;
    case RepairOutcomeKind::Rejected:
        return RepairExitRejected;
    case RepairOutcomeKind::MayHaveWritten:
    case RepairOutcomeKind::Unknown:
        return RepairExitUnknown;
    case RepairOutcomeKind::NotSent:
        return ExitConnection;
    }
    return ExitFailed;
}

} // namespace

RepairWriteOptions::RepairWriteOptions(const QString &condition)
    : confirm(QStringList{QStringLiteral("confirm"), QStringLiteral("unlock")},
              writeHelp(condition, QStringLiteral("allow the write on a read-only (production) "
                                                  "session: the connection's name (the profile "
                                                  "name, host:port with --url).")),
              QStringLiteral("NAME"))
    , ttl(QStringLiteral("ttl"),
          writeHelp(condition, QStringLiteral("how long each release or adjustment key lives, in "
                                              "seconds, 1 to 31536000: a second call within it "
                                              "changes nothing (default: the profile's receipt "
                                              "TTL, else 604800).")),
          QStringLiteral("S"))
    , audit(QStringLiteral("audit-log"),
            writeHelp(condition, QStringLiteral("the audit log file (default: the console's).")),
            QStringLiteral("FILE"))
{}

RecordReading settleOnFreshConnection(const profiles::ConnectionProfile &profile,
                                      const QString &password, const RepairPlan &plan,
                                      Context &context)
{
    int ignored = 0;
    const auto reader = connectRouter(profile.toConnectionOptions(password), context,
                                      ExitConnection, &ignored, profile.addressMap());
    if (!reader) {
        RecordReading r;
        r.read = true;
        // The command line's own words: it loads no translation.
        r.error = core::Sentence::plain(QStringLiteral("could not connect to read it"));
        return r;
    }
    return readRecordBlocking(*reader, plan.recordKey, profile.timeoutMs);
}

QString repairExitCodesHelp(RepairKind kind)
{
    const bool release = kind == RepairKind::Release;
    return QStringLiteral(
               "Exit codes:\n"
               "  0  %1\n"
               "  2  bad arguments, or a value the contract refuses (nothing sent)\n"
               "  3  could not connect, or nothing sent (disconnected, read-only session)\n"
               "  4  %2 (nothing written); also when the %3 key exists\n"
               "     with another amount than asked (that amount was not applied)\n"
               "  5  stock key missing (nothing written)\n"
               "  6  rejected by the server (its error is printed; nothing written)\n"
               "  7  outcome unknown: sent, but no reply, an error that may have come after a\n"
               "     write, or a reply the contract never gives. It is never resent; the %3\n"
               "     key is read at once and what it proves is printed.\n")
        .arg(
            release
                ? QStringLiteral("released, or already released with this quantity (nothing to do)")
                : QStringLiteral("adjusted, or already applied with this delta (nothing to do)"),
            release ? QStringLiteral("refused: no receipt (no deduction proven), or the "
                                     "receipt records another quantity")
                    : QStringLiteral("refused: the stock would leave 0..1000000000"),
            release ? QStringLiteral("release") : QStringLiteral("adjustment"));
}

namespace {

// The repair the command line asks for; the TTL defaults to the profile's receipt TTL, so
// that a release outlives the receipt it answers for.
RepairRequest requestFrom(const QCommandLineParser &parser, const RepairOptions &o, RepairKind kind,
                          const profiles::ConnectionProfile &profile)
{
    RepairRequest request;
    request.kind = kind;
    request.sku = parser.value(o.sku).toUtf8();
    request.id = parser.value(o.id).toUtf8();
    request.amount = parser.value(o.amount).toUtf8();
    request.ttlSeconds = parser.isSet(o.write.ttl) ? parser.value(o.write.ttl).toUtf8()
                                                   : QByteArray::number(profile.receiptTtlSeconds);
    request.reason = parser.value(o.reason);
    return request;
}

} // namespace

int runRepair(Context &context, RepairKind kind, const QString &description)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description + repairExitCodesHelp(kind));
    RepairOptions o(kind);
    if (auto code = parseArguments(parser, o, context))
        return *code;
    if (auto repeated = repeatedOption(parser))
        return context.fail(ExitUsage, *repeated);
    QList<const QCommandLineOption *> required{&o.sku, &o.id, &o.amount};
    if (!o.release)
        required << &o.reason;
    for (const QCommandLineOption *option : required)
        if (!parser.isSet(*option))
            return context.fail(ExitUsage, QStringLiteral("--%1 is required (see %2 --help)")
                                               .arg(option->names().first(), context.commandName));
    int exitCode = ExitUsage;
    const auto target = o.connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;
    profiles::ConnectionProfile profile = target->profile;
    nameUrlTargetByAddress(parser, profile);
    const auto schema = keySchema(profile, context, &exitCode);
    if (!schema)
        return exitCode;

    DeductionContext ctx;
    ctx.schema = *schema;
    ctx.profileName = profile.name;
    ctx.timeoutMs = profile.timeoutMs;
    if (parser.isSet(o.write.audit))
        ctx.auditLogPath = parser.value(o.write.audit);
    const RepairPlan plan = planRepair(requestFrom(parser, o, kind, profile), ctx.schema);
    if (!plan.ok())
        return context.fail(ExitUsage, planProblemsLine(plan.problems));

    const auto client = connectRouter(profile.toConnectionOptions(target->password), context,
                                      ExitConnection, &exitCode, profile.addressMap());
    if (!client)
        return exitCode;
    ctx.serverAddress = client->address();
    ctx.nodeForSlot = slotOwnerLookup(client->topologySource());

    gate::WriteGate gate(*client, profile);
    if (parser.isSet(o.write.audit))
        gate.setAuditLogPath(ctx.auditLogPath);
    // The label rests on what the server says: the proof of a Local claim, and the run_id an
    // unlock is recorded with.
    gate.waitForServer(ctx.timeoutMs + 1000);
    if (parser.isSet(o.write.confirm) && !gate.unlock(parser.value(o.write.confirm)))
        return context.fail(ExitUsage, QStringLiteral("--confirm: %1").arg(gate.unlockError()));
    gate::GatedSender sender(*client, gate);
    const RepairResult result = repairBlocking(sender, ctx, plan);
    // Never resent: what the record key holds says whether the repair was applied.
    std::optional<RepairSettlement> settlement;
    if (result.outcome.kind == RepairOutcomeKind::Unknown)
        settlement =
            settleRepair(plan, settleOnFreshConnection(profile, target->password, plan, context));
    else if (result.outcome.kind == RepairOutcomeKind::MayHaveWritten)
        settlement = settleRepair(plan, result.recordAfter); // read just after the reply

    for (const core::Sentence &p : result.auditProblems)
        context.err << context.commandName << ": warning: " << p.english << '\n';
    context.err.flush();
    if (parser.isSet(o.json))
        context.out << scrub(compactJson(repairJson(result, settlement, ctx.auditLogPath)),
                             target->password)
                    << '\n';
    else
        printRepairText(context.out, result, settlement, ctx.auditLogPath);
    context.out.flush();
    // "Already applied" under another amount, or a lost reply whose key holds another amount:
    // what was asked was not done.
    if (result.otherRecordedAmount() || (settlement && settlement->otherAmount))
        return RepairExitRefused;
    return exitCodeFor(result.outcome.kind);
}

} // namespace cli
