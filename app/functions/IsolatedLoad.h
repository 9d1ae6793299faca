// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to the inspector: the Lua load run in a helper process that is killed at a limit.
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

// Runs `code`'s top level in the helper process (inventory-load-run), which may use
// options.cpuLimitMs of CPU time (never less than the time budget plus a margin); past it the child
// is killed and the run is a TimeBudget problem. CPU time, not the wall clock, so that a busy
// machine does not refuse a library Redis would load. A child that has not finished by
// options.wallClockCeilingMs is killed too, and the run is NotInspected: no verdict. Verdicts are
// memoised by code and options (a change asks for the same library many times); NotInspected never
// is.
LoadRun runLoadIsolated(const QByteArray &code, const InspectOptions &options);

inline constexpr const char *LoadRunHelperName = "inventory-load-run";
// Where the helper is: $INVENTORY_LOAD_RUN, else next to this program (a build tree), else in
// the libexec folder of the prefix this program is installed in; empty if none is there.
QString loadRunHelperPath();
// The helper's whole main(): reads one request on stdin, writes the run on stdout.
int loadRunHelperMain();

} // namespace functions::detail
