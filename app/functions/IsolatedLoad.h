#pragma once

// Internal to the inspector: the Lua load run in a child process that is killed at a deadline.
// The sandbox's instruction hook cannot stop a single long C call (a backtracking
// string.find, a huge string.rep): no hook fires inside it, so the budget would be checked
// only after it returns, seconds or minutes later. Redis has the same blind spot and would be
// blocked as long; a process can always be killed.

#include "Inspection.h"

namespace functions::detail {

// What the load run found (see SandboxContext): the first problem, the functions it
// registered (in registration order) and what it logged.
struct LoadRun
{
    std::optional<InspectionProblem> problem;
    QList<InspectedFunction> functions;
    QStringList log;
};

// Runs `code`'s top level in a forked child and waits at most options.wallClockLimitMs (never
// less than the time budget plus a margin). A child past the deadline is killed and the run is
// a TimeBudget problem. Results are memoised by code and options: a change asks for the same
// library many times.
LoadRun runLoadIsolated(const QByteArray &code, const InspectOptions &options);

} // namespace functions::detail
