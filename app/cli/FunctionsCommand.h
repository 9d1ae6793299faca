// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// inventory-cli functions: status | check | diff | load | rollback | delete. The logic lives
// in the core (functions/LibraryChange.h); these files parse arguments and print.

#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "functions/ClusterNodes.h"
#include "functions/LibraryChange.h"
#include "gate/WriteGate.h"
#include "redis/RedisClient.h"

#include <memory>

namespace cli::functionscmd {

// `diff` and `check` answer with the verdict as exit code (0 no change or accepted,
// 1 compatible, 2 breaking, 3 refused), so their own failures need other numbers.
enum DiffExit { DiffUsage = 4, DiffConnection = 5 };
// load, rollback, delete: 0 done and verified, 1 refused or failed (nothing changed),
// 2 bad arguments, 3 could not connect, 4 verification failed or outcome unknown (look!).
enum ChangeExit { ChangeUnverified = 4 };

// A subcommand's parser with --help, accepting `positional` positional arguments (names for
// the help text). nullopt to go on, or the exit code to return now.
std::optional<int> parse(QCommandLineParser &parser, Context &context,
                         const QStringList &positional, int usageExit = ExitUsage);

// The connection(s) of a change: the main one, and the release user's when the profile has
// one. The gate carries the profile's environment label. On a Redis Cluster node (INFO
// cluster says so), a router as the library user finds every node: a change then runs on
// every primary, and status reads every primary and replica (on a standalone server, the
// replication group INFO replication names: see functions::StandaloneGroup).
struct Session
{
    ConnectionArgs::Resolved target;
    std::unique_ptr<redis::RedisClient> client;
    std::unique_ptr<redis::RedisClient> releaseClient;
    std::unique_ptr<redis::ClusterRouter> router; // only on a cluster
    std::unique_ptr<functions::ClusterNodes> nodes;
    // Standalone: the server's replicas or primary, once status has read them.
    std::unique_ptr<functions::StandaloneGroup> group;
    std::unique_ptr<gate::WriteGate> gate;
    QString loadUser;
    functions::ChangeContext context() const;
    // The connection every library step uses on the seed (ChangeTarget::loadVia()).
    redis::RedisClient &libraryClient() const { return releaseClient ? *releaseClient : *client; }
    QList<functions::MatrixNode> matrixNodes() const;
};

// Connects; on failure prints one line and returns nullopt with *exitCode set.
std::unique_ptr<Session> connect(const ConnectionArgs &args, const QCommandLineParser &parser,
                                 Context &context, int usageExit, int connectionExit,
                                 int *exitCode);

// The library file named on the command line, inspected offline (also ":/functions/...").
std::optional<functions::Inspection> readFile(const QString &path, Context &context, int failExit,
                                              int *exitCode,
                                              const functions::InspectOptions &options = {});

// The inspection's warnings (what loads here but not on every server), one line each on stderr.
void printWarnings(Context &context, const functions::Inspection &file);
void printJson(Context &context, const QJsonObject &object);
QJsonObject preflightJson(const functions::PreflightReport &report);
QString stateName(functions::PreflightCheck::State state); // passed | warning | failed

int runStatus(Context &context);
int runCheck(Context &context);
int runDiff(Context &context);
int runLoad(Context &context);
int runRollback(Context &context);
int runDelete(Context &context);
int runAlign(Context &context);

// The change verbs' options and their shared sequence (FunctionsCommandChange.cpp), also
// used by align.
struct ChangeOptions
{
    ConnectionArgs connection;
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("One JSON object.")};
    QCommandLineOption confirm{QStringLiteral("confirm"),
                               QStringLiteral("The library name, typed out: required."),
                               QStringLiteral("LIBNAME")};
    QCommandLineOption allowBreaking{QStringLiteral("allow-breaking"),
                                     QStringLiteral("Acknowledge a breaking change (functions "
                                                    "removed, flags changed).")};
    QCommandLineOption unlock{QStringLiteral("unlock"),
                              QStringLiteral("Unlock a production session: the profile name "
                                             "(host:port with --url)."),
                              QStringLiteral("NAME")};
    QCommandLineOption backupDir{QStringLiteral("backup-dir"),
                                 QStringLiteral("Where the backup goes (default: the app data "
                                                "directory's function-backups)."),
                                 QStringLiteral("DIR")};
    void addTo(QCommandLineParser &parser);
};
// `first`: nodes to put first (their state is the one the contract diff is shown against).
int drive(Context &context, QCommandLineParser &parser, ChangeOptions &o, Session &session,
          const functions::ChangeSpec &spec, const QStringList &first = {});
// The matrix as a table readable at 80 columns, its drift and unreadable nodes, and a last
// line saying whether the nodes are in line.
// `connection`: the options the suggested align command line names ("--url redis://...").
void printMatrix(Context &context, const functions::LibraryMatrix &matrix,
                 const QString &connection);
// 0 in line, 1 drift, 3 a node could not be read (and nothing drifts among the others).
int matrixExit(const functions::LibraryMatrix &matrix);

} // namespace cli::functionscmd
