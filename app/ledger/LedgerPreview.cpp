// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerPreview.h"

#include "LedgerReader.h"

namespace ledger {

LedgerPreview previewLedger(const LedgerSpec &spec, const QString &password, int limit)
{
    LedgerPreview p;
    auto source = openLedger(spec, password);
    if (!source) {
        p.openError = source.error().text;
        return p;
    }
    p.hasTime = source.value()->hasTime();
    // One row past the limit says whether there are more, without keeping it.
    const ReadOutcome out = readLedger(*source.value(), [&](const LedgerRow &row) {
        if (p.rows.size() == limit) {
            p.more = true;
            return false;
        }
        p.rows << row;
        return true;
    });
    if (out.end == ReadOutcome::End::Failed)
        p.rowError = out.error.text;
    return p;
}

} // namespace ledger
