// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace functions {

// One row of a side-by-side view. Lines are 1-based; 0 where a side has no line.
struct DiffRow
{
    enum class Kind { Same, Removed, Added, Changed };
    Kind kind = Kind::Same;
    int leftLine = 0;
    int rightLine = 0;
    QString left;
    QString right;
};

// A line diff (libdtl's shortest edit script) of two versions of a library.
struct CodeDiff
{
    // "loaded on 127.0.0.1:6379 (1.0.0)", "functions/inventory_lib_v1.lua (1.1.0)": the
    // unified diff keeps the English, the window shows its own copy.
    core::Sentence leftLabel;
    core::Sentence rightLabel;
    QList<DiffRow> rows; // every line of both sides, aligned
    QString unified;     // "--- left\n+++ right\n@@ -a,b +c,d @@\n..." (3 lines of context)
    int added = 0;
    int removed = 0;
    bool identical = true; // byte-identical (rows can be all Same while a final newline differs)
    core::Sentence note;   // e.g. "only the final newline differs"
};

// An empty `before` (a library not loaded yet) shows every line as added.
CodeDiff diffCode(const QByteArray &before, const QByteArray &after,
                  const core::Sentence &leftLabel, const core::Sentence &rightLabel);

} // namespace functions
