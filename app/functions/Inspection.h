// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ServerAlias.h"
#include "core/Result.h"
#include "core/Wording.h"
#include "redis/LibraryList.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace functions {

// One function a library registers during its load run.
struct InspectedFunction
{
    redis::FunctionInfo info; // name, description (nullopt when none), flags (canonical, sorted)
    int line = 0;             // the line of the register_function call
    int firstLine = 0;        // the callback's definition, in file lines (0 for a C function)
    int lastLine = 0;
    // SHA-256 (hex) of the callback's text and of everything it closes over (helper
    // functions, constants), recursively: equal behaviour fingerprints mean the function's
    // code did not change, even when other parts of the file did.
    QByteArray behaviour;
};

// Why a library was refused offline. The messages say what Redis's own FUNCTION LOAD error
// says (Redis 7.0 wording), with the Lua line number where there is one.
struct InspectionProblem
{
    enum class Kind {
        NotText,           // not UTF-8, or holds a NUL byte
        TooLarge,          // above maxLibrarySize
        MissingMetadata,   // no "#!" first line
        InvalidMetadata,   // shebang without newline or unreadable, duplicate name
        UnknownMetadata,   // a shebang field other than name=
        MissingName,       // no name= in the shebang
        BadLibraryName,    // not [A-Za-z0-9_]+
        UnknownEngine,     // not lua
        CompileError,      // Lua syntax
        NonexistentGlobal, // read of a global the load run does not have
        ReadOnlyGlobal,    // assignment to a global (or to redis.*)
        BadArguments,      // wrong register_function or redis.log arguments
        BadFunctionName,   // not [A-Za-z0-9_]+
        UnknownFlag,       // a flag Redis does not know
        DuplicateFunction, // two functions whose names differ at most in case
        NoFunctions,       // the load run registered nothing
        RuntimeError,      // any other error of the top level
        TimeBudget,        // the top level ran too long
        MemoryBudget,      // the top level allocated too much
        // Not a verdict on the code: the inspection itself could not start or finish (no
        // process, or a machine too busy to give it CPU). Never remembered; try again.
        NotInspected,
    };
    Kind kind = Kind::RuntimeError;
    // English as Redis words it (the CLI, --json, the log); the text in the window's language.
    // Lua's own error text is the same in both.
    core::Sentence message;
    int line = 0; // 1-based file line; 0 when the error has no position

    // "line 3: Attempt to modify a readonly table (global 'x')": the English of sentence().
    QString toString() const;
    // "line 3: " and the message, in both copies.
    core::Sentence sentence() const;
    // A verdict on the code (Redis would refuse it), not a failure to inspect it.
    bool judged() const { return kind != Kind::NotInspected; }
    // What the CLI says after the subject ("the file ", "library x "): "was refused offline:
    // …", or "could not be inspected offline, …" when the problem is not a verdict on the code.
    // English.
    QString refusal() const;
};
QString problemKindName(InspectionProblem::Kind kind); // "read-only-global", ...

// What the offline load run of one library file found.
struct Inspection
{
    QString fileName; // for messages; may be empty
    QByteArray code;
    QByteArray fingerprint; // SHA-256 hex of the exact bytes
    QString version;        // the "-- version:" line, empty when unversioned
    QString library;        // from the shebang (empty when the shebang was refused)
    QString engine;
    QList<InspectedFunction> functions; // sorted by name
    QStringList log;                    // redis.log lines written during the load run
    std::optional<InspectionProblem> problem;
    ServerAliasUse serverAlias; // where it uses Valkey's `server` (found whatever the target)
    // What loads here but not everywhere: "lines 4, 9 use `server`, Valkey's name for `redis`:
    // ...". Empty when there is nothing to say.
    core::Sentences warnings;

    bool ok() const { return !problem.has_value(); }
    // As FUNCTION LIST would show the library once loaded (without the code).
    redis::LibraryInfo toLibraryInfo() const;
    const InspectedFunction *function(const QString &name) const; // case-insensitive
};

struct InspectOptions
{
    // What redis.REDIS_VERSION and redis.REDIS_VERSION_NUM say during the run.
    QString redisVersion = QStringLiteral("7.0.0");
    // The target is Valkey: its Lua has `server` as an alias of `redis`, so the load run
    // accepts it (a Redis target refuses it as the server would).
    bool valkey = false;
    // Redis stops a load run after 500 ms; an instruction budget makes the offline verdict
    // the same on a fast and a slow machine, CPU time catches anything else. CPU time, not
    // the wall clock: a library must not be refused because the console's machine is busy.
    qint64 instructionBudget = 50'000'000;
    int timeBudgetMs = 500;
    qsizetype memoryBudget = 64 * 1024 * 1024;
    // The hook that checks both budgets never fires inside one long C call (a backtracking
    // string.find): the load run happens in a child process, killed after this much CPU time.
    int cpuLimitMs = 2000;
    // A child that has not finished after this long, whatever CPU it had, was not judged
    // (NotInspected): the machine did not give it the time to run.
    int wallClockCeilingMs = 60000;
    bool isolate = true; // false: in this process, without the child's limits (fuzzing)
    qsizetype maxLibrarySize = 1024 * 1024; // our policy, not Redis's
};

// Runs the library's top level in a Lua 5.1 sandbox that behaves like Redis's load run.
// Never touches a server.
Inspection inspectLibrary(const QByteArray &code, const QString &fileName = {},
                          const InspectOptions &options = {});
// Reads a file (a path or a ":/" resource) and inspects it; an unreadable file is an error.
// A file that could not be read (not a regular file, unreadable) is an error in both
// languages; one that was read but is no library is an Inspection with a problem.
using InspectedFile = core::Result<Inspection, core::Sentence>;
InspectedFile inspectFile(const QString &path, const InspectOptions &options = {});

// Library and function names: letters, digits and underscores, at least one.
bool isValidName(const QString &name);

} // namespace functions
