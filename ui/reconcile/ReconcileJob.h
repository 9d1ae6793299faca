// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ThreadHopSender.h"
#include "ledger/LedgerSpec.h"
#include "reconcile/ReconcileRun.h"

#include <QObject>
#include <QThread>
#include <atomic>

namespace ui {

// What one run is asked to compare.
struct ReconcileRequest
{
    ledger::LedgerSpec spec;
    QString password; // PostgreSQL only; held for the run, never stored
    reconcile::Scope scope;
    qint64 receiptTtlSeconds = 0; // the profile's: what explains a missing receipt
    int timeoutMs = 30000;
};

// How it ended. A ledger that could not be opened compared nothing.
struct ReconcileResult
{
    QString openError;
    QString ledger;    // the path or URL read (no password)
    QString queryText; // SQL ledgers: the query as sent
    reconcile::ReceiptPolicy policy;
    reconcile::RunOutcome outcome;
    bool cancelled = false;
    bool couldNotCheck() const { return !openError.isEmpty() || outcome.couldNotCheck(); }
    QString problem() const; // why it could not check
};

// Runs reconcile::runReconcile on a thread of its own, so that the window stays responsive
// over a million ledger rows: the ledger is opened and read there (a Qt SQL connection
// belongs to the thread that made it), and Redis is read through a ThreadHopSender over
// `reads`, on this object's thread. Findings arrive in batches as they are known.
class ReconcileJob : public QObject
{
    Q_OBJECT
public:
    // `reads` must only read (the session's scan reader) and outlive this object.
    explicit ReconcileJob(redis::CommandSender &reads, QObject *parent = nullptr);
    ~ReconcileJob() override; // stops a run and waits for its thread

    // `store` is a finished scan; it must not change until finished() (the caller holds it).
    void start(const ReconcileRequest &request, const browse::KeyspaceStore &store);
    // Stops between ledger rows, and answers the Redis read in flight at once.
    void cancel();
    bool isRunning() const { return m_thread && m_thread->isRunning(); }

signals:
    void rowsRead(qint64 rows);
    void found(const QList<reconcile::Finding> &batch);
    void finished(const ui::ReconcileResult &result);

private:
    void stopAndWait();
    // Posts `work` to this object's thread (dropped if it is gone by then).
    void post(std::function<void()> work);

    redis::CommandSender &m_reads;
    std::unique_ptr<ThreadHopSender> m_hop;
    QThread *m_thread = nullptr;
    std::atomic_bool m_cancel{false};
};

} // namespace ui
