// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli functions on a Redis Cluster: the matrix of libraries by node that status
// prints, and align, which brings drifted primaries in line with one node's library.
#include "FunctionsCommand.h"

#include "functions/AlignNodes.h"
#include "functions/LibraryVersion.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace cli::functionscmd {

QList<functions::MatrixNode> Session::matrixNodes() const
{
    if (nodes)
        return nodes->matrixNodes();
    if (group)
        return group->nodes();
    return {functions::MatrixNode{client->address(), true, {}, &libraryClient()}};
}

int matrixExit(const functions::LibraryMatrix &matrix)
{
    switch (matrix.state()) {
    case functions::LibraryMatrix::State::InLine:
        return ExitOk;
    case functions::LibraryMatrix::State::Drift:
        return ExitFailed;
    case functions::LibraryMatrix::State::Unreadable:
        return ExitConnection;
    }
    return ExitFailed;
}

namespace {

QString driftLabel(functions::DriftKind kind)
{
    switch (kind) {
    case functions::DriftKind::Missing:
        return QStringLiteral("MISSING");
    case functions::DriftKind::DifferentVersion:
        return QStringLiteral("DIFFERENT VERSION");
    case functions::DriftKind::DifferentCode:
        return QStringLiteral("DIFFERENT CODE");
    }
    return {};
}

} // namespace

void printMatrix(Context &context, const functions::LibraryMatrix &matrix,
                 const QString &connection)
{
    const QList<functions::NodeLibraries> &nodes = matrix.nodes();
    int width = 16;
    int primaries = 0;
    for (const functions::NodeLibraries &n : nodes) {
        width = std::max(width, int(n.address.size()) + 1);
        primaries += n.primary ? 1 : 0;
    }
    const auto row = [&](const QString &address, const QString &role, const QString &version,
                         const QString &sha, const QString &state) {
        context.out << "  " << address.leftJustified(width) << ' ' << role.leftJustified(8) << ' '
                    << version.leftJustified(11) << ' ' << sha.leftJustified(12) << "  " << state
                    << '\n';
    };
    const auto count = [](qsizetype n, const char *one, const char *many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    context.out << "\nLibraries by node (" << count(primaries, "primary", "primaries") << ", "
                << count(nodes.size() - primaries, "replica", "replicas") << "):\n";
    for (const QString &name : matrix.libraries()) {
        context.out << name << '\n';
        row(QStringLiteral("node"), QStringLiteral("role"), QStringLiteral("version"),
            QStringLiteral("sha256"), QStringLiteral("state"));
        for (int i = 0; i < nodes.size(); ++i) {
            const functions::NodeLibraries &n = nodes.at(i);
            const QString role = n.primary ? QStringLiteral("primary") : QStringLiteral("replica");
            if (!n.error.isEmpty()) {
                row(n.address, role, QStringLiteral("?"), QStringLiteral("?"),
                    QStringLiteral("COULD NOT READ"));
                continue;
            }
            const redis::LibraryInfo *l = n.library(name);
            const auto drift = matrix.driftAt(name, i);
            row(n.address, role,
                l ? functions::versionLabel(functions::libraryVersion(l->code))
                  : QStringLiteral("-"),
                l ? functions::shortFingerprint(functions::codeFingerprint(l->code))
                  : QStringLiteral("-"),
                drift ? driftLabel(*drift) : QStringLiteral("in line"));
        }
    }
    for (const functions::LibraryDrift &d : matrix.drift())
        context.out << "drift: " << d.detail.english << '\n';
    for (const QString &u : matrix.unreadable())
        context.out << u << '\n';
    switch (matrix.state()) {
    case functions::LibraryMatrix::State::InLine:
        context.out << "in line: " << nodes.size() << " nodes hold the same libraries\n";
        break;
    case functions::LibraryMatrix::State::Drift: {
        if (const QStringList apart = matrix.replicasApartFromPrimary(); !apart.isEmpty())
            context.out << "drift: " << functions::LibraryMatrix::apartFromPrimarySentence(apart)
                        << '\n';
        const functions::LibraryDrift *d = matrix.firstPrimaryDrift();
        if (!d)
            break;
        const int ref = matrix.referenceNode(d->library);
        context.out << "drift: to bring the primaries in line with "
                    << matrix.nodes().at(ref).address
                    << ":\n  inventory-cli functions align --from "
                    << matrix.nodes().at(ref).address << " --library " << d->library
                    << " --confirm " << d->library << ' ' << connection << '\n';
        break;
    }
    case functions::LibraryMatrix::State::Unreadable:
        context.out << "could not check every node: " << matrix.unreadable().size() << " of "
                    << nodes.size() << " could not be read\n";
        break;
    }
}

int runAlign(Context &context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Brings the primaries of a Redis Cluster in line: loads the library as the --from node\n"
        "holds it onto every primary whose copy differs (missing, other version, other code),\n"
        "behind the same guards as load: offline inspection, contract diff, preflight on every\n"
        "primary before anything is written, a backup of every primary, --confirm, then node by\n"
        "node with a verification each. If a node fails, the nodes already loaded get their\n"
        "backed-up code back and a table says where each node ended. Replicas follow their\n"
        "primaries. Exit codes: 0 in line (or already was), 1 refused or failed (nothing\n"
        "left changed), 2 bad arguments, 3 could not connect or read a node, 4 verification\n"
        "failed or outcome unknown."));
    ChangeOptions o;
    o.addTo(parser);
    const QCommandLineOption from(QStringLiteral("from"),
                                  QStringLiteral("The node whose library is right (host:port, as "
                                                 "'functions status' lists it)."),
                                  QStringLiteral("HOST:PORT"));
    const QCommandLineOption library(QStringLiteral("library"),
                                     QStringLiteral("The library to align."),
                                     QStringLiteral("LIBNAME"));
    parser.addOptions({from, library});
    if (auto code = parse(parser, context, {}))
        return *code;
    if (!parser.isSet(from) || !parser.isSet(library))
        return context.fail(ExitUsage, QStringLiteral("--from HOST:PORT and --library LIBNAME are "
                                                      "required (see %1 --help)")
                                           .arg(context.commandName));
    int exitCode = ExitUsage;
    auto s = connect(o.connection, parser, context, ExitUsage, ExitConnection, &exitCode);
    if (!s)
        return exitCode;
    const functions::LibraryMatrix matrix =
        functions::readLibraryMatrixBlocking(s->matrixNodes(), s->target.timeoutFor(10000));
    const QString name = parser.value(library);
    const auto spec = functions::alignSpec(matrix, parser.value(from), name);
    if (!spec)
        return context.fail(ExitUsage, spec.error());
    const QStringList targets = functions::primariesToAlign(matrix, parser.value(from), name);
    for (const QString &u : matrix.unreadable())
        if (!parser.isSet(o.json))
            context.out << "warning: " << u << '\n';
    if (targets.isEmpty() && matrix.unreadable().isEmpty()) {
        if (!parser.isSet(o.json))
            context.out << "in line: every primary already holds " << name << " as "
                        << parser.value(from) << " does\n";
        else
            printJson(context, {{QStringLiteral("action"), QStringLiteral("align")},
                                {QStringLiteral("library"), name},
                                {QStringLiteral("succeeded"), true},
                                {QStringLiteral("targets"), QJsonArray()}});
        return ExitOk;
    }
    if (!parser.isSet(o.json))
        context.out << "aligning " << name << " with " << parser.value(from) << " on "
                    << targets.join(QStringLiteral(", ")) << '\n';
    return drive(context, parser, o, *s, *spec, targets);
}

} // namespace cli::functionscmd
