#pragma once

#include "LabResult.h"
#include "LabSettings.h"
#include "inventory/KeySchema.h"
#include "redis/ConnectionOptions.h"

#include <QList>
#include <atomic>
#include <functional>

namespace redis {
class RedisClient;
}

namespace lab {

// Where a lab runs. The caller has already applied the label rule (LabAccess.h).
struct LabTarget
{
    redis::ConnectionOptions options;
    inventory::KeySchema schema;
};

struct LabReport
{
    QString failure; // non-empty: the lab could not run at all (no connection, a cluster)
    bool cancelled = false;
    QList<StrategyResult> results; // one per strategy asked for, in order
};

// A whole lab run, on the calling thread (blocking, with local event loops): checks the server
// (standalone, functions loaded, the script loaded), then for each strategy a fresh SKU
// stock:{lab-<random>-<strategy>} set to the initial stock, its storm, the final stock and
// receipts read back, and its keys removed, also after a cancel or a failure.
class LabRun
{
public:
    LabRun(LabSettings settings, LabTarget target);

    // Called with the strategy running and its attempts done so far (from the running thread).
    using Progress = std::function<void(int strategyIndex, qint64 attemptsDone)>;
    void setProgress(Progress progress) { m_progress = std::move(progress); }
    // Set from any thread to stop: running storms stop sending and the keys are removed.
    void setCancelFlag(const std::atomic<bool> *cancel) { m_cancel = cancel; }

    LabReport run();

    // The prefix of every SKU the lab makes ("lab-"); their keys are the lab's to remove.
    static QByteArray skuPrefix();

private:
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    QString preflight(redis::RedisClient &control, QStringList *functions, QByteArray *sha);
    void runOne(redis::RedisClient &control, StrategyResult &result, const QByteArray &sha,
                int index);
    // Removes the SKU's stock key and receipts; returns the receipts it found (-1: the scan
    // failed, *problem says why).
    qint64 removeKeys(redis::RedisClient &control, const QByteArray &sku, QString *problem);

    LabSettings m_settings;
    LabTarget m_target;
    Progress m_progress;
    const std::atomic<bool> *m_cancel = nullptr;
};

} // namespace lab
