// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerSource.h"

#include <atomic>
#include <functional>

namespace ledger {

// How a read of a whole ledger ended. A read that did not reach the end says why and after how
// many rows, and nothing read before is presented as the whole ledger.
struct ReadOutcome
{
    enum class End { Complete, Failed, Cancelled, Stopped };
    End end = End::Complete;
    qint64 rows = 0;
    // Failed: "could not read the ledger orders.csv: line 17: ... after 16 rows"
    core::Sentence error;
    bool complete() const { return end == End::Complete; }
};

struct ReadOptions
{
    // Called every progressEvery rows and at the end (once), with the rows read so far.
    std::function<void(qint64 rows)> progress;
    qint64 progressEvery = 100000;
    // Checked between rows; set from another thread (or a signal handler) to stop.
    const std::atomic_bool *cancel = nullptr;
};

// Reads every row of `source` into onRow, one at a time (memory: one row). onRow returns
// false to stop (Stopped: the consumer has said why).
ReadOutcome readLedger(LedgerSource &source, const std::function<bool(const LedgerRow &)> &onRow,
                       const ReadOptions &options = {});

} // namespace ledger
