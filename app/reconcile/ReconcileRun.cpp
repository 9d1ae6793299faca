// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileRun.h"

#include "redis/ResultReads.h"

namespace reconcile {

namespace {

// Reads whether each release key exists; the error (naming the key) when any read failed.
std::optional<QString> readReleased(redis::CommandSender &sender, const QList<QByteArray> &keys,
                                    int timeoutMs, std::vector<bool> *out)
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
        const auto n =
            i < replies.size()
                ? redis::integerOf(replies.at(i))
                : redis::Decoded<qint64>(redis::RedisError::unexpected(QStringLiteral("no reply")));
        if (!n || (n.value() != 0 && n.value() != 1))
            return QStringLiteral("could not read the release keys: EXISTS %1: %2")
                .arg(QString::fromUtf8(keys.at(i)),
                     n ? QStringLiteral("answered %1").arg(n.value()) : n.error().toString());
        (*out)[size_t(i)] = n.value() == 1;
    }
    return std::nullopt;
}

} // namespace

RunOutcome runReconcile(ledger::LedgerSource &source, const browse::KeyspaceStore &store,
                        redis::CommandSender &sender, const ReceiptPolicy &policy,
                        const RunOptions &options, const Reconciler::Sink &sink)
{
    RunOutcome out;
    const inventory::KeySchema &schema = store.schema();
    Reconciler rec(store, options.scope, policy, sink);

    struct Held
    {
        ledger::LedgerRow row;
        uint32_t receipt;
    };
    std::vector<Held> held;
    std::vector<bool> released;
    const auto flush = [&]() -> bool {
        QList<QByteArray> keys;
        for (const Held &h : held)
            keys << schema.releaseKey(h.row.sku, h.row.orderId);
        if (auto problem = readReleased(sender, keys, options.timeoutMs, &released)) {
            out.redisError = *problem;
            return false;
        }
        for (size_t i = 0; i < held.size(); ++i)
            rec.addRow(held[i].row, held[i].receipt, released[i]);
        held.clear();
        return true;
    };
    out.ledger = ledger::readLedger(
        source,
        [&](const ledger::LedgerRow &row) {
            if (!rec.inScope(row))
                return true;
            held.push_back({row, rec.receiptOf(row)});
            return int(held.size()) < options.batch || flush();
        },
        options.read);
    if (out.ledger.end == ledger::ReadOutcome::End::Complete && !held.empty())
        flush();
    if (out.couldNotCheck()) {
        out.tally = rec.tally();
        return out;
    }
    // Every receipt, in row order, a batch at a time: those no ledger row spoke of need their
    // release key read first.
    std::vector<uint32_t> batch;
    QList<QByteArray> keys;
    for (uint32_t r = 0; r <= store.receiptRows() && out.redisError.isEmpty(); ++r) {
        if (r < store.receiptRows() && store.receiptAlive(r)) {
            batch.push_back(r);
            if (rec.needsReleaseRead(r))
                keys << schema.releaseKey(store.skuName(store.skuOfReceipt(r)).toByteArray(),
                                          store.orderId(r).toByteArray());
        }
        if (int(batch.size()) < options.batch && r < store.receiptRows())
            continue;
        if (auto problem = readReleased(sender, keys, options.timeoutMs, &released)) {
            out.redisError = *problem;
            break;
        }
        size_t next = 0;
        for (uint32_t id : batch)
            rec.judgeReceipt(id, rec.needsReleaseRead(id) && released[next++]);
        batch.clear();
        keys.clear();
    }
    out.tally = rec.tally();
    if (out.redisError.isEmpty())
        out.skus = rec.balances();
    return out;
}

} // namespace reconcile
