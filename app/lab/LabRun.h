// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LabPlacement.h"
#include "LabResult.h"
#include "LabSettings.h"
#include "inventory/KeySchema.h"
#include "redis/ClusterTopology.h"
#include "redis/ConnectionOptions.h"

#include <QList>
#include <atomic>
#include <functional>
#include <memory>

namespace redis {
class RedisClient;
}

namespace lab {

// Where a lab runs: a standalone server or any node of a Redis Cluster. The caller has
// already applied the label rule (LabAccess.h).
struct LabTarget
{
    redis::ConnectionOptions options;
    inventory::KeySchema schema;
    redis::AnnouncedAddressMap addressMap = {}; // a cluster's announced addresses, mapped
};

struct LabReport
{
    QString failure; // non-empty: the lab could not run at all (no connection, no functions)
    bool connectFailed = false; // the failure is that a node could not be reached
    bool cancelled = false;
    QList<StrategyResult> results; // one per strategy asked for, in order
};

// A whole lab run, on the calling thread (blocking, with local event loops): finds out whether
// the server is a cluster node (LabPlacement), picks each strategy a fresh SKU
// lab-<random>-<strategy> and so the node its keys live on (on a cluster, the primary owning
// the slot, a different primary per strategy while there are some left), checks each node
// used (its functions, the script loaded), then per strategy sets the stock, runs its storm
// on that node, reads the final stock and receipts back from it and removes the keys there,
// also after a cancel or a failure.
class LabRun
{
public:
    LabRun(LabSettings settings, LabTarget target);

    // Called with the strategy running and its attempts done so far (from the running thread).
    // node: the server the strategy's storm runs on (a cluster's owning primary), named as in
    // StrategyResult::node.
    using Progress =
        std::function<void(int strategyIndex, qint64 attemptsDone, const QString &node)>;
    void setProgress(Progress progress) { m_progress = std::move(progress); }
    // Set from any thread to stop: running storms stop sending and the keys are removed.
    void setCancelFlag(const std::atomic<bool> *cancel) { m_cancel = cancel; }

    LabReport run();

private:
    // A node a storm runs on: the lab's control connection to it (the stock, the read-back,
    // the cleanup) and what it offers.
    struct NodeCheck
    {
        std::unique_ptr<redis::RedisClient> control;
        QStringList functions; // lower case
        QByteArray sha;        // of stock_decrement.lua, empty when SCRIPT LOAD was refused
        bool connectFailed = false;
    };
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    // Connects to the node and reads what it offers; the reason when the lab cannot run.
    QString prepare(const LabPlacement &placement, const LabNode &node, NodeCheck &check);
    // Why a strategy cannot run on this node (its function or the script missing), or empty.
    static QString skipReason(Strategy strategy, const NodeCheck &check, const QString &node,
                              bool cluster);
    void runOne(const LabNode &node, NodeCheck &check, StrategyResult &result, int index);
    // Removes the SKU's stock key and receipts; returns the receipts it found (-1: the scan
    // failed, *problem says why).
    qint64 removeKeys(redis::RedisClient &control, const QByteArray &sku, QString *problem);

    LabSettings m_settings;
    LabTarget m_target;
    Progress m_progress;
    const std::atomic<bool> *m_cancel = nullptr;
};

} // namespace lab
