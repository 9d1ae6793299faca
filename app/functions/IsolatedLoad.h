// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to the inspector: the Lua load run in a helper process that is killed at a limit.
// The sandbox's instruction hook cannot stop a single long C call (a backtracking
// string.find, a huge string.rep): no hook fires inside it, so the budget would be checked
// only after it returns, seconds or minutes later. Redis has the same blind spot and would be
// blocked as long; a process can always be killed.

#include "Inspection.h"

namespace functions::detail {

// A problem of the load run as words still to translate. The run happens in the helper
// process, which installs no translator, and its problem crosses the pipe: the helper sends the
// source text and its arguments, and this side translates them with the translator it has (the
// window's, or none in the CLI). Sending both copies would send the English twice; a code per
// message would need every text listed twice. Kept untranslated in the memo too, so that a
// verdict remembered before a change of language is said in the new one.
struct RunProblem
{
    InspectionProblem::Kind kind = InspectionProblem::Kind::RuntimeError;
    // Marked QT_TRANSLATE_NOOP("functions::Inspection", ...) where it is written. Empty when the
    // words are not ours (Lua's own error): args' one element, the same in both copies.
    QByteArray source;
    QStringList args; // at most three, filled in at once
    int line = 0;

    core::Sentence message() const;
    InspectionProblem problem() const { return {kind, message(), line}; }
};

// What the load run found (see SandboxContext): the first problem, the functions it
// registered (in registration order) and what it logged.
struct LoadRun
{
    std::optional<RunProblem> problem;
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
