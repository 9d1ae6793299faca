// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileRun.h"

#include "redis/ResultReads.h"

namespace reconcile {

namespace {

core::Sentence runSaid(const char *source)
{
    return core::Sentence::translated("reconcile::ReconcileRun", source);
}

// Reads whether each release key exists; the error (naming the key) when any read failed.
std::optional<core::Sentence> readReleased(redis::CommandSender &sender,
                                           const QList<QByteArray> &keys, int timeoutMs,
                                           std::vector<bool> *out)
{
    out->assign(size_t(keys.size()), false);
    if (keys.isEmpty())
        return std::nullopt;
    QList<redis::Command> commands;
    commands.reserve(keys.size());
    for (const QByteArray &k : keys)
        commands << redis::Command{"EXISTS", k};
    const QList<redis::ReplyResult> replies = sender.callBatch(commands, timeoutMs);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const auto n = i < replies.size() ? redis::integerOf(replies.at(i))
                                          : redis::Decoded<qint64>(redis::RedisError::unexpected(
                                              redis::RedisError::noReply()));
        if (!n || (n.value() != 0 && n.value() != 1))
            return runSaid(QT_TRANSLATE_NOOP("reconcile::ReconcileRun",
                                             "could not read the release keys: EXISTS %1: %2"))
                .arg(QString::fromUtf8(keys.at(i)),
                     n ? runSaid(QT_TRANSLATE_NOOP("reconcile::ReconcileRun", "answered %1"))
                             .arg(n.value())
                       : n.error().toString());
        (*out)[size_t(i)] = n.value() == 1;
    }
    return std::nullopt;
}

// One run: the ledger's rows, then the store's receipts, each release key taken from the scan
// where it speaks for it and read otherwise.
class Comparison
{
public:
    Comparison(const browse::KeyspaceStore &store, redis::CommandSender &sender,
               const ReceiptPolicy &policy, const RunOptions &options, const Reconciler::Sink &sink,
               RunOutcome &out)
        : m_store(store)
        , m_schema(store.schema())
        , m_sender(sender)
        , m_options(options)
        , m_out(out)
        , m_rec(store, options.scope, policy, sink)
    {
        m_rec.setSentences(options.sentences);
    }

    void rows(ledger::LedgerSource &source);
    void receipts();
    const Reconciler &reconciler() const { return m_rec; }

private:
    // What the scan says of this order's release key; nullopt: it must be read.
    std::optional<bool> listed(const QByteArray &sku, const QByteArray &order) const
    {
        if (!m_options.releaseKeys)
            return std::nullopt;
        return m_options.releaseKeys->listed(m_schema.releaseKey(sku, order));
    }
    QByteArray releaseKeyOf(uint32_t r) const
    {
        return m_schema.releaseKey(m_store.skuName(m_store.skuOfReceipt(r)).toByteArray(),
                                   m_store.orderId(r).toByteArray());
    }
    bool exists(const QList<QByteArray> &keys, std::vector<bool> *found)
    {
        m_out.releaseReads += keys.size();
        if (auto problem = readReleased(m_sender, keys, m_options.timeoutMs, found)) {
            m_out.redisError = *problem;
            return false;
        }
        return true;
    }
    bool flushRows();
    bool addRow(const ledger::LedgerRow &row);
    bool judgeBatch(const std::vector<uint32_t> &batch);

    struct Held
    {
        ledger::LedgerRow row;
        uint32_t receipt;
    };
    const browse::KeyspaceStore &m_store;
    const inventory::KeySchema &m_schema;
    redis::CommandSender &m_sender;
    const RunOptions &m_options;
    RunOutcome &m_out;
    Reconciler m_rec;
    std::vector<Held> m_held; // rows waiting for their release keys' EXISTS
};

bool Comparison::flushRows()
{
    QList<QByteArray> keys;
    for (const Held &h : m_held)
        keys << m_schema.releaseKey(h.row.sku, h.row.orderId);
    std::vector<bool> released;
    if (!exists(keys, &released))
        return false;
    for (size_t i = 0; i < m_held.size(); ++i)
        m_rec.addRow(m_held[i].row, m_held[i].receipt, released[i]);
    m_held.clear();
    return true;
}

bool Comparison::addRow(const ledger::LedgerRow &row)
{
    if (!m_rec.inScope(row))
        return true;
    const uint32_t receipt = m_rec.receiptOf(row);
    if (const auto known = listed(row.sku, row.orderId)) {
        m_rec.addRow(row, receipt, *known);
        return true;
    }
    m_held.push_back({row, receipt});
    return int(m_held.size()) < m_options.batch || flushRows();
}

void Comparison::rows(ledger::LedgerSource &source)
{
    m_out.ledger = ledger::readLedger(
        source, [&](const ledger::LedgerRow &row) { return addRow(row); }, m_options.read);
    if (m_out.ledger.end == ledger::ReadOutcome::End::Complete && !m_held.empty())
        flushRows();
}

// Judges a batch of live receipts: those no ledger row spoke of need their release key, from
// the scan or read; then the release candidates that rest on the scan alone are read again.
bool Comparison::judgeBatch(const std::vector<uint32_t> &batch)
{
    std::vector<int8_t> known(batch.size(), -1); // -1: read below
    QList<QByteArray> keys;
    for (size_t i = 0; i < batch.size(); ++i) {
        if (!m_rec.needsReleaseRead(batch[i]))
            continue;
        const QByteArray key = releaseKeyOf(batch[i]);
        if (const auto l =
                m_options.releaseKeys ? m_options.releaseKeys->listed(key) : std::nullopt)
            known[i] = *l;
        else
            keys << key;
    }
    std::vector<bool> read;
    if (!exists(keys, &read))
        return false;
    const bool fromScan = m_options.releaseKeys != nullptr;
    std::vector<uint32_t> unproven; // would be candidates on the scan's word alone
    size_t next = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
        const bool released = known[i] >= 0                      ? known[i] == 1
                              : m_rec.needsReleaseRead(batch[i]) ? bool(read[next++])
                                                                 : false;
        if (!m_rec.judgeReceipt(batch[i], released, !fromScan))
            unproven.push_back(batch[i]);
    }
    keys.clear();
    for (uint32_t r : unproven)
        keys << releaseKeyOf(r);
    if (!exists(keys, &read))
        return false;
    for (size_t i = 0; i < unproven.size(); ++i)
        m_rec.judgeReceipt(unproven[i], read[i], true);
    return true;
}

void Comparison::receipts()
{
    std::vector<uint32_t> batch;
    for (uint32_t r = 0; r < m_store.receiptRows(); ++r) {
        if (!m_store.receiptAlive(r))
            continue;
        batch.push_back(r);
        if (int(batch.size()) >= m_options.batch) {
            if (!judgeBatch(batch))
                return;
            batch.clear();
        }
    }
    judgeBatch(batch);
}

} // namespace

RunOutcome runReconcile(ledger::LedgerSource &source, const browse::KeyspaceStore &store,
                        redis::CommandSender &sender, const ReceiptPolicy &policy,
                        const RunOptions &options, const Reconciler::Sink &sink)
{
    RunOutcome out;
    Comparison run(store, sender, policy, options, sink, out);
    run.rows(source);
    // Every receipt, in row order, a batch at a time, once both sides were read.
    if (!out.couldNotCheck())
        run.receipts();
    out.tally = run.reconciler().tally();
    if (!out.couldNotCheck() && options.balances)
        out.skus = run.reconciler().balances();
    return out;
}

} // namespace reconcile
