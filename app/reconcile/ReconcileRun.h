// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reconciler.h"
#include "ScannedReleaseKeys.h"
#include "inventory/KeySchema.h"
#include "ledger/LedgerReader.h"
#include "redis/CommandSender.h"

namespace reconcile {

struct RunOptions
{
    Scope scope;
    int timeoutMs = 5000;
    int batch = 500; // EXISTS per round trip, and ledger rows held while it is out
    ledger::ReadOptions read;
    // The release keys the store's scan listed (not owned). Null, or a key it cannot speak
    // for: that key is read with EXISTS.
    const ScannedReleaseKeys *releaseKeys = nullptr;
    // What the caller reads besides each finding's class and counts (--raw reads neither).
    bool sentences = true; // Finding::sentence
    bool balances = true;  // RunOutcome::skus
};

struct RunOutcome
{
    ledger::ReadOutcome ledger;
    core::Sentence redisError; // "could not read the release keys: ..."
    Tally tally;
    std::vector<SkuBalance> skus;
    qint64 releaseReads = 0; // release keys read with EXISTS (the rest: as the scan listed them)
    // A side could not be read: nothing may be concluded from the findings so far.
    bool couldNotCheck() const { return !ledger.complete() || !redisError.isEmpty(); }
    // Why, when it could not, in English: Redis's error first (a failed EXISTS also stops the
    // ledger). The window words its own (ui::ReconcileResult::problem).
    QString problem() const
    {
        if (!redisError.isEmpty())
            return redisError.english;
        if (ledger.end == ledger::ReadOutcome::End::Cancelled)
            return QStringLiteral("cancelled after %1 ledger rows").arg(ledger.rows);
        return ledger.error.english;
    }
};

// Streams the ledger through a Reconciler over a finished scan's store. Whether an order's
// release key exists (the store's schema names it: the profile's release template,
// rel:{<sku>}:<order> by default, as inventory_release_v1 writes it) is taken from the keys
// the scan listed (options.releaseKeys) where that scan speaks for the key, else read with
// EXISTS, pipelined `batch` at a time, routed per key on a cluster. A release candidate is
// only reported once its key was read with EXISTS: the scan's "not listed" is as of its walk.
// Memory: the store, the Reconciler's 9 bytes per receipt, one batch of rows. Stops at the
// first failed read of either side and says which.
RunOutcome runReconcile(ledger::LedgerSource &source, const browse::KeyspaceStore &store,
                        redis::CommandSender &sender, const ReceiptPolicy &policy,
                        const RunOptions &options, const Reconciler::Sink &sink);

} // namespace reconcile
