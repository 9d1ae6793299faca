// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileJob.h"

#include "ledger/SqlLedger.h"

namespace ui {

QString ReconcileResult::problem() const
{
    if (!openError.isEmpty())
        return openError;
    if (cancelled)
        return QObject::tr("cancelled after %1 ledger rows").arg(outcome.ledger.rows);
    // Redis's or the ledger's reason in the window's language (RunOutcome::problem() keeps the
    // English).
    if (!outcome.redisError.isEmpty())
        return outcome.redisError.text;
    if (outcome.ledger.end == ledger::ReadOutcome::End::Failed && !outcome.ledger.error.isEmpty())
        return outcome.ledger.error.text;
    return outcome.problem();
}

ReconcileJob::ReconcileJob(redis::CommandSender &reads, QObject *parent)
    : QObject(parent)
    , m_reads(reads)
{}

ReconcileJob::~ReconcileJob()
{
    stopAndWait();
}

void ReconcileJob::stopAndWait()
{
    if (!m_thread)
        return;
    cancel();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

void ReconcileJob::cancel()
{
    m_cancel = true;
    if (m_hop)
        m_hop->close();
}

void ReconcileJob::post(std::function<void()> work)
{
    QMetaObject::invokeMethod(this, std::move(work), Qt::QueuedConnection);
}

void ReconcileJob::start(const ReconcileRequest &request, const browse::KeyspaceStore &store)
{
    stopAndWait(); // the caller's state says none is running: at most one that is ending
    m_cancel = false;
    // A new hop for each run: a cancelled one stays closed.
    m_hop = std::make_unique<ThreadHopSender>(m_reads, this);
    ThreadHopSender *hop = m_hop.get();
    m_thread = QThread::create([this, request, &store, hop] {
        ReconcileResult result;
        auto opened = ledger::openLedger(request.spec, request.password);
        if (!opened) {
            result.openError = tr("could not read the ledger: %1").arg(opened.error().text);
            post([this, result] { emit finished(result); });
            return;
        }
        const std::unique_ptr<ledger::LedgerSource> source = std::move(opened).value();
        result.ledger = source->description();
        if (const auto *sql = dynamic_cast<const ledger::SqlLedger *>(source.get()))
            result.queryText = sql->queryText();
        if (request.scope.hasWindow() && !source->hasTime()) {
            result.openError = tr("a time window needs the ledger's time column");
            post([this, result] { emit finished(result); });
            return;
        }
        result.policy =
            reconcile::readReceiptPolicy(*hop, request.receiptTtlSeconds, request.timeoutMs);
        reconcile::RunOptions options;
        options.scope = request.scope;
        options.timeoutMs = request.timeoutMs;
        options.read.cancel = &m_cancel;
        options.read.progressEvery = 20000;
        options.read.progress = [this](qint64 rows) {
            post([this, rows] { emit rowsRead(rows); });
        };
        QList<reconcile::Finding> pending;
        const auto flush = [&] {
            if (!pending.isEmpty())
                post([this, batch = std::exchange(pending, {})] { emit found(batch); });
        };
        result.outcome = reconcile::runReconcile(*source, store, *hop, result.policy, options,
                                                 [&](const reconcile::Finding &f) {
                                                     pending << f;
                                                     if (pending.size() >= 1000)
                                                         flush();
                                                 });
        flush();
        result.cancelled = m_cancel;
        post([this, result] { emit finished(result); });
    });
    m_thread->setObjectName(QStringLiteral("reconcile"));
    m_thread->start();
}

} // namespace ui
