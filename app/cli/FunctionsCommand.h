#pragma once

// inventory-cli functions: status | check | diff | load | rollback | delete. The logic lives
// in the core (functions/LibraryChange.h); these files parse arguments and print.

#include "ConnectionArgs.h"
#include "Subcommand.h"
#include "functions/LibraryChange.h"
#include "redis/RedisClient.h"
#include "session/WriteGate.h"

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
// one. The gate carries the profile's environment label.
struct Session
{
    ConnectionArgs::Resolved target;
    std::unique_ptr<redis::RedisClient> client;
    std::unique_ptr<redis::RedisClient> releaseClient;
    std::unique_ptr<session::WriteGate> gate;
    QString loadUser;
    functions::ChangeContext context() const;
};

// Connects; on failure prints one line and returns nullopt with *exitCode set.
std::unique_ptr<Session> connect(const ConnectionArgs &args, const QCommandLineParser &parser,
                                 Context &context, int usageExit, int connectionExit,
                                 int *exitCode);

// The library file named on the command line, inspected offline (also ":/functions/...").
std::optional<functions::Inspection> readFile(const QString &path, Context &context, int failExit,
                                              int *exitCode);

void printJson(Context &context, const QJsonObject &object);
QJsonObject preflightJson(const functions::PreflightReport &report);
QString stateName(functions::PreflightCheck::State state); // passed | warning | failed

int runStatus(Context &context);
int runCheck(Context &context);
int runDiff(Context &context);
int runLoad(Context &context);
int runRollback(Context &context);
int runDelete(Context &context);

} // namespace cli::functionscmd
