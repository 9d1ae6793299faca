// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli ping: test a connection the way the console's "Test" button does.
#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "session/ConnectionProbe.h"

namespace cli {
namespace {

int runPing(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Connects, then reports the server version, mode and role, the ACL user,\n"
                       "the PING latency, the eviction policy, and whether the user (and the\n"
                       "profile's release user) may call inventory_deduct_v1 and load function\n"
                       "libraries, by ACL DRYRUN ('unknown' when the dry run is not allowed).\n"
                       "With --release-password-stdin it also logs in as the release user and\n"
                       "dry-runs, as that user, what a library change sends.\n"
                       "Exit codes: 0 ok, 1 the server refused, 2 bad arguments, 3 could not\n"
                       "connect (host, port, TLS, password)."));
    ConnectionArgs connection;
    connection.addTo(parser);
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print the report as one JSON object."));
    parser.addOption(json);
    if (auto code = parseArguments(parser, context))
        return *code;
    int exitCode = ExitUsage;
    const auto target = connection.resolve(parser, context, &exitCode);
    if (!target)
        return exitCode;

    const session::ProbeResult result =
        session::ConnectionProbe::run(target->profile, target->password, target->releasePassword);
    if (!result.ok()) {
        const auto kind = result.error().kind;
        const int code = kind == session::ProbeFailure::Kind::Server ? ExitFailed : ExitConnection;
        return context.fail(code, scrub(result.error().message.english, target->password));
    }
    const session::ProbeReport &report = result.value();
    if (parser.isSet(json)) {
        context.out << scrub(compactJson(report.toJson()), target->password) << '\n';
        return ExitOk;
    }
    const QList<session::ProbeRow> rows = report.rows();
    qsizetype width = 0;
    for (const auto &row : rows)
        width = std::max(width, row.label.size());
    for (const auto &row : rows)
        context.out << scrub(row.label.leftJustified(width + 2) + row.value, target->password)
                    << '\n';
    return ExitOk;
}

const Registration pingRegistration{"ping",
                                    "Test a connection: version, mode, role, user, latency, "
                                    "permissions",
                                    &runPing};

} // namespace
} // namespace cli
