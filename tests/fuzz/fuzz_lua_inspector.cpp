// SPDX-License-Identifier: GPL-3.0-or-later
// Lua source into the offline inspector, as a user's library file reaches it. The console
// runs the inspection in a child process killed after 2 s; here it runs in this process
// (isolate = false) with a small instruction and memory budget, so that each input is fast
// and a crash is the sandbox's, not a timeout of a long C call (which the child's wall clock,
// not this target, covers: tst_inspector_deadline).

#include "FuzzSupport.h"
#include "functions/Inspection.h"

#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0; // a library's top level, not a stress test of Lua's parser
    const QByteArray code(reinterpret_cast<const char *>(data), qsizetype(size));
    functions::InspectOptions options;
    options.isolate = false;
    options.instructionBudget = 20'000;
    options.memoryBudget = 4 * 1024 * 1024;
    const functions::Inspection in =
        functions::inspectLibrary(code, QStringLiteral("fuzz.lua"), options);
    if (in.ok()) {
        // What the inspector accepts must read as a library FUNCTION LOAD would register.
        FUZZ_CHECK(functions::isValidName(in.library));
        FUZZ_CHECK(!in.functions.isEmpty());
        for (const functions::InspectedFunction &f : in.functions) {
            FUZZ_CHECK(functions::isValidName(f.info.name));
            FUZZ_CHECK(in.function(f.info.name) != nullptr);
        }
        (void)in.toLibraryInfo();
    } else {
        (void)in.problem->toString();
        (void)functions::problemKindName(in.problem->kind);
    }
    return 0;
}
