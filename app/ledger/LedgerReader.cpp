// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerReader.h"

#include <QCoreApplication>

namespace ledger {

ReadOutcome readLedger(LedgerSource &source, const std::function<bool(const LedgerRow &)> &onRow,
                       const ReadOptions &options)
{
    ReadOutcome out;
    LedgerRow row;
    for (;;) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            out.end = ReadOutcome::End::Cancelled;
            break;
        }
        const auto status = source.next(&row);
        if (status == LedgerSource::Status::End)
            break;
        if (status == LedgerSource::Status::Error) {
            out.end = ReadOutcome::End::Failed;
            out.error = core::Sentence::translated(
                            "ledger::LedgerReader",
                            QT_TRANSLATE_NOOP("ledger::LedgerReader",
                                              "could not read the ledger %1: %2 after %3 rows"))
                            .arg(source.description(), source.error(), source.rowsRead());
            break;
        }
        if (!onRow(row)) {
            out.end = ReadOutcome::End::Stopped;
            break;
        }
        if (options.progress && options.progressEvery > 0
            && source.rowsRead() % options.progressEvery == 0)
            options.progress(source.rowsRead());
    }
    out.rows = source.rowsRead();
    // Once at the end, unless the last row's count was just reported.
    if (options.progress
        && (options.progressEvery <= 0 || out.rows == 0 || out.rows % options.progressEvery != 0))
        options.progress(out.rows);
    return out;
}

} // namespace ledger
