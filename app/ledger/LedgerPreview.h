// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerRow.h"
#include "LedgerSpec.h"

#include <QList>

namespace ledger {

// The first rows of a ledger as the comparison will take them: the columns and states mapped,
// each row validated. What a mapping dialog shows before a run, so a wrong column or an
// unmapped state is seen on five rows, not after a million.
struct LedgerPreview
{
    // In the window's language: a preview is only shown in the window.
    QString openError;     // the ledger could not be opened: nothing was read
    QList<LedgerRow> rows; // at most the number asked for, each one valid
    QString rowError;      // a row that did not validate (or a read that failed) after `rows`
    bool more = false;     // the ledger has rows after these
    bool hasTime = false;  // a time column is mapped
};

// Reads at most `limit` rows of the ledger (read-only, as a run opens it) and closes it. Opens
// its own connection: call it on the thread that will use nothing else of it.
LedgerPreview previewLedger(const LedgerSpec &spec, const QString &password, int limit);

} // namespace ledger
