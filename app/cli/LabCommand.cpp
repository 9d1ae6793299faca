// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli lab: a storm of deductions against throwaway SKUs, one strategy at a time, and
// the accounting that shows an oversell or a double deduction. The logic lives in the core
// (lab/LabRun); this file parses options and prints.
#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "gate/WriteGate.h"
#include "lab/LabAccess.h"
#include "lab/LabRun.h"
#include "redis/RedisClient.h"

namespace cli {
namespace {

using namespace lab;

enum LabExit {
    ExitRefused = 4, // the session's label does not allow the lab
};

// A whole number option within bounds, or a sentence for the user.
std::optional<QString> readNumber(const QCommandLineParser &parser, const QCommandLineOption &o,
                                  qint64 *out)
{
    if (!parser.isSet(o))
        return std::nullopt;
    bool ok = false;
    const qint64 v = parser.value(o).toLongLong(&ok);
    if (!ok)
        return QStringLiteral("--%1: give a whole number, not '%2'")
            .arg(o.names().first(), parser.value(o));
    *out = v;
    return std::nullopt;
}

void printText(QTextStream &out, StrategyResult &r)
{
    const auto line = [&](const QString &label, const QString &value) {
        out << "  " << (label + QLatin1Char(':')).leftJustified(20) << value << '\n';
    };
    out << strategyTitle(r.strategy) << '\n';
    line(QStringLiteral("verdict"), r.verdict());
    if (!r.node.isEmpty())
        line(QStringLiteral("node"), r.node);
    if (r.ran()) {
        line(QStringLiteral("stock key"),
             QString::fromUtf8(r.stockKey) + QStringLiteral(" (removed)"));
        line(QStringLiteral("initial / final"),
             QStringLiteral("%1 / %2")
                 .arg(r.initialStock)
                 .arg(r.finalStock ? QString::number(*r.finalStock) : QStringLiteral("not read")));
        line(QStringLiteral("attempts"),
             QStringLiteral("%1 (%2 reused an earlier order id)").arg(r.attempts).arg(r.reusedIds));
        line(QStringLiteral("successes"), QString::number(r.successes));
        line(QStringLiteral("retries answered"), QString::number(r.retriesAnswered));
        line(QStringLiteral("insufficient"), QString::number(r.insufficient));
        line(QStringLiteral("oversold"), QString::number(r.oversold()));
        line(QStringLiteral("double deductions"), QString::number(r.doubleDeductions()));
        if (r.receipts)
            line(QStringLiteral("receipts"), QString::number(*r.receipts));
        if (r.unknownOutcomes > 0)
            line(QStringLiteral("outcome unknown"), QStringLiteral("%1 (retried %2, unresolved %3)")
                                                        .arg(r.unknownOutcomes)
                                                        .arg(r.retriesAfterUnknown)
                                                        .arg(r.unresolved));
        if (!r.faultNote.isEmpty())
            line(QStringLiteral("fault"), r.faultNote);
        line(QStringLiteral("throughput"), QStringLiteral("%1 commands/s (%2 commands in %3 ms)")
                                               .arg(qRound64(r.opsPerSec()))
                                               .arg(r.commands)
                                               .arg(r.elapsedMs, 0, 'f', 1));
        line(QStringLiteral("latency"), QStringLiteral("p50 %1 ms, p99 %2 ms")
                                            .arg(r.p50Ms(), 0, 'f', 3)
                                            .arg(r.p99Ms(), 0, 'f', 3));
    }
    if (!r.cleanupProblem.isEmpty())
        line(QStringLiteral("cleanup"), r.cleanupProblem);
}

// The lab's options, built once so that parsing and reading them name the same objects.
struct LabOptions
{
    ConnectionArgs connection;
    QCommandLineOption strategy{
        QStringLiteral("strategy"),
        QStringLiteral("naive, script, fcall-v1 or fcall-v2; repeat or separate with commas."),
        QStringLiteral("NAME")};
    QCommandLineOption stock{QStringLiteral("stock"),
                             QStringLiteral("Initial stock, 0 to 1000000000 (default 100)."),
                             QStringLiteral("N")};
    QCommandLineOption connections{QStringLiteral("connections"),
                                   QStringLiteral("Connections, 1 to 200 (default 20)."),
                                   QStringLiteral("C")};
    QCommandLineOption attempts{QStringLiteral("attempts"),
                                QStringLiteral("Deduction attempts of one unit each, in "
                                               "all (default 1000)."),
                                QStringLiteral("A")};
    QCommandLineOption pipeline{QStringLiteral("pipeline"),
                                QStringLiteral("Commands in flight per connection, 1 to "
                                               "1000 (default 1)."),
                                QStringLiteral("P")};
    QCommandLineOption retryShare{QStringLiteral("retry-share"),
                                  QStringLiteral("Share of attempts, 0 to 1, that resend "
                                                 "an earlier acknowledged order id "
                                                 "(default 0)."),
                                  QStringLiteral("F")};
    QCommandLineOption fault{QStringLiteral("fault"),
                             QStringLiteral("none (default); pause: CLIENT PAUSE WRITE half "
                                            "way; timeout: the same pause with client "
                                            "timeouts shorter than it (lost replies, "
                                            "retried with the same order id)."),
                             QStringLiteral("FAULT")};
    QCommandLineOption pauseMs{QStringLiteral("pause-ms"),
                               QStringLiteral("The fault's pause (default 300)."),
                               QStringLiteral("MS")};
    QCommandLineOption clientTimeout{QStringLiteral("client-timeout-ms"),
                                     QStringLiteral("The storm's command timeout with "
                                                    "--fault timeout (default 50)."),
                                     QStringLiteral("MS")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print one JSON object per strategy, one a line.")};

    void addTo(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral(
            "Runs a storm of deductions against a throwaway SKU per strategy and counts what "
            "went\n"
            "wrong: oversold units (sold minus the initial stock) and double deductions from\n"
            "retries. Strategies:\n"
            "  naive     GET, compare on the client, DECRBY (the race the seeds warn about)\n"
            "  script    EVALSHA stock_decrement.lua (atomic, not idempotent)\n"
            "  fcall-v1  FCALL inventory_deduct_v1 (atomic, one deduction per order id)\n"
            "  fcall-v2  FCALL inventory_deduct_v2 (when the loaded library has it)\n"
            "Each strategy gets a fresh SKU lab-<random>-<strategy>; its keys are removed "
            "afterwards.\n"
            "On a Redis Cluster (give any node) each strategy's storm runs on the primary owning\n"
            "its SKU's slot, a different primary per strategy while there are some left; the\n"
            "node is printed (JSON: node). The function library must be loaded on every "
            "primary.\n"
            "Runs only on servers labelled local or test (see --environment).\n"
            "Exit codes: 0 every strategy ran, 1 a strategy could not run or broke off (the\n"
            "reason is printed), 2 bad arguments, 3 could not connect, 4 refused: the server is\n"
            "not labelled local or test."));
        connection.addTo(parser);
        parser.addOptions({strategy, stock, connections, attempts, pipeline, retryShare, fault,
                           pauseMs, clientTimeout, json});
    }
};

// --strategy, repeated or comma-separated, in the order given and without repeats.
std::optional<QString> readStrategies(const QCommandLineParser &parser, const LabOptions &o,
                                      const QString &commandName, LabSettings *settings)
{
    settings->strategies.clear();
    for (const QString &value : parser.values(o.strategy))
        for (const QString &name : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto s = parseStrategy(name);
            if (!s)
                return QStringLiteral("--strategy: '%1' is not a strategy; give "
                                      "naive, script, fcall-v1 or fcall-v2")
                    .arg(name);
            if (!settings->strategies.contains(*s))
                settings->strategies.append(*s);
        }
    if (settings->strategies.isEmpty())
        return QStringLiteral("--strategy is required: naive, script, "
                              "fcall-v1 or fcall-v2 (see %1 --help)")
            .arg(commandName);
    return std::nullopt;
}

std::optional<QString> readNumbers(const QCommandLineParser &parser, const LabOptions &o,
                                   LabSettings *settings)
{
    qint64 c = settings->connections, p = settings->pipeline, pause = settings->pauseMs,
           timeout = settings->clientTimeoutMs;
    for (const auto &[option, target] :
         {std::pair{&o.stock, &settings->initialStock}, std::pair{&o.connections, &c},
          std::pair{&o.attempts, &settings->attempts}, std::pair{&o.pipeline, &p},
          std::pair{&o.pauseMs, &pause}, std::pair{&o.clientTimeout, &timeout}})
        if (auto problem = readNumber(parser, *option, target))
            return problem;
    // Clamped only to fit an int, keeping the sign and the value a person typed (a -5 said
    // "not -1"); the range check in LabSettings::problems() names the real bounds.
    const auto fit = [](qint64 v) {
        return int(std::clamp<qint64>(v, -(1 << 30), 1 << 30));
    };
    settings->connections = fit(c);
    settings->pipeline = fit(p);
    settings->pauseMs = fit(pause);
    settings->clientTimeoutMs = fit(timeout);
    return std::nullopt;
}

std::optional<QString> readRetryAndFault(const QCommandLineParser &parser, const LabOptions &o,
                                         LabSettings *settings)
{
    if (parser.isSet(o.retryShare)) {
        bool ok = false;
        settings->retryShare = parser.value(o.retryShare).toDouble(&ok);
        if (!ok)
            return QStringLiteral("--retry-share: give a fraction from 0 to 1, not '%1'")
                .arg(parser.value(o.retryShare));
    }
    if (parser.isSet(o.fault)) {
        const auto f = parseFault(parser.value(o.fault));
        if (!f)
            return QStringLiteral("--fault: give none, pause or timeout, not '%1'")
                .arg(parser.value(o.fault));
        settings->fault = *f;
    }
    return std::nullopt;
}

// The storm's settings from the options, or the usage error to print.
std::optional<QString> readSettings(const QCommandLineParser &parser, const LabOptions &o,
                                    const QString &commandName, LabSettings *settings)
{
    if (auto problem = readStrategies(parser, o, commandName, settings))
        return problem;
    if (auto problem = readNumbers(parser, o, settings))
        return problem;
    if (auto problem = readRetryAndFault(parser, o, settings))
        return problem;
    if (const QStringList problems = settings->problems(); !problems.isEmpty())
        return QStringLiteral("nothing sent: %1").arg(problems.join(QStringLiteral("; ")));
    return std::nullopt;
}

// Whether the lab may run on this server: the exit code to return now, or nullopt to go on.
std::optional<int> refuseUnlessLab(const ConnectionArgs::Resolved &target, Context &context)
{
    const profiles::ConnectionProfile &profile = target.profile;
    if (auto refusal = labRefusal(profile.environmentKind(), profile.environmentLabel()))
        return context.fail(ExitRefused, QStringLiteral("nothing sent: %1").arg(*refusal));
    // The label the write gate would act on: a Local claim holds only once proven (a tunnel on
    // 127.0.0.1 to production is production), so the server is asked before any storm.
    if (profile.environmentKind() != profiles::Environment::Local)
        return std::nullopt;
    int exitCode = ExitUsage;
    const std::unique_ptr<redis::RedisClient> probe = connectClient(
        profile.toConnectionOptions(target.password), context, ExitConnection, &exitCode);
    if (!probe)
        return exitCode;
    gate::WriteGate gate(*probe, profile);
    gate.waitForServer(profile.timeoutMs + 1000);
    if (auto refusal = labRefusal(gate.environmentKind(), gate.environment()))
        return context.fail(
            ExitRefused,
            QStringLiteral("nothing sent: %1 (%2)").arg(*refusal, gate.environmentReason()));
    return std::nullopt;
}

int printReport(Context &context, LabReport &report, bool json)
{
    bool allRan = true;
    for (StrategyResult &r : report.results) {
        allRan = allRan && r.ran();
        if (json)
            context.out << compactJson(r.toJson()) << '\n';
        else
            printText(context.out, r);
    }
    context.out.flush();
    return allRan ? ExitOk : ExitFailed;
}

int runLab(Context &context)
{
    QCommandLineParser parser;
    LabOptions o;
    if (auto code = parseArguments(parser, o, context))
        return *code;
    if (auto repeated = repeatedOption(parser, {QStringLiteral("strategy")}))
        return context.fail(ExitUsage, *repeated);
    LabSettings settings;
    if (auto problem = readSettings(parser, o, context.commandName, &settings))
        return context.fail(ExitUsage, *problem);

    int exitCode = ExitUsage;
    const auto target = o.connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;
    if (auto code = refuseUnlessLab(*target, context))
        return *code;
    const profiles::ConnectionProfile &profile = target->profile;
    const auto schema = keySchema(profile, context, &exitCode);
    if (!schema)
        return exitCode;

    LabRun run(settings, LabTarget{profile.toConnectionOptions(target->password), *schema,
                                   profile.addressMap()});
    LabReport report = run.run();
    if (!report.failure.isEmpty()) {
        return context.fail(report.connectFailed ? ExitConnection : ExitFailed,
                            scrub(report.failure, target->password));
    }
    return printReport(context, report, parser.isSet(o.json));
}

const Registration labRegistration{
    "lab",
    "Storm a throwaway SKU with deductions, strategy by strategy, and "
    "count oversells and double deductions (local/test only)",
    &runLab};

} // namespace
} // namespace cli
