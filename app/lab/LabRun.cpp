// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabRun.h"

#include "StormRunner.h"
#include "inventory/DeductionRequest.h"
#include "redis/LibraryList.h"
#include "redis/RedisClient.h"
#include "redis/ResultReads.h"
#include "redis/Slot.h"

#include <QCoreApplication>
#include <QRandomGenerator>

namespace lab {

namespace {
// Why a strategy was skipped or failed, in the window's language (the CLI prints the English).
struct LabRunText
{
    Q_DECLARE_TR_FUNCTIONS(lab::LabRun)
};
} // namespace

using redis::ReplyResult;

LabRun::LabRun(LabSettings settings, LabTarget target)
    : m_settings(std::move(settings))
    , m_target(std::move(target))
{}

// What a node must offer before any key is written on it: the functions, the script. A server
// that calls itself a cluster node although the topology could not be read (a user who may not
// run CLUSTER SHARDS) is refused: which primary owns the lab's keys would be a guess.
QString LabRun::prepare(const LabPlacement &placement, const LabNode &node, NodeCheck &check)
{
    redis::ConnectionOptions options = node.options;
    options.onCallerThread = true;
    options.clientName = "inventory-lab";
    options.commandTimeoutMs = std::max(options.commandTimeoutMs, m_settings.pauseMs + 5000);
    check.control = std::make_unique<redis::RedisClient>(options);
    redis::RedisClient &control = *check.control;
    control.open();
    if (!control.waitUntilReady(options.connectTimeoutMs + 1000)) {
        check.connectFailed = true;
        return LabRunText::tr("could not connect to %1: %2")
            .arg(node.name, control.stateDetail().text);
    }
    if (!placement.isCluster()) {
        const ReplyResult info = control.call({"INFO", "cluster"});
        const auto text = redis::stringOf(info);
        if (!text.ok())
            return LabRunText::tr("could not read INFO cluster: %1")
                .arg(text.error().readFailure().text);
        if (text->contains("cluster_enabled:1"))
            return LabRunText::tr(
                "this server is a cluster node (cluster_enabled:1) but refused CLUSTER SHARDS "
                "and CLUSTER SLOTS, so the lab cannot tell which primary holds its keys: let "
                "this user run them (ACL +cluster|shards +cluster|slots) and run the lab again");
    }
    const ReplyResult list = control.call({"FUNCTION", "LIST"});
    if (list.ok()) {
        const auto libraries = redis::decodeFunctionList(*list);
        if (libraries.ok())
            for (const redis::LibraryInfo &l : libraries.value())
                for (const redis::FunctionInfo &f : l.functions)
                    check.functions.append(f.name.toLower());
    }
    // Scripts are cached per node: each node a storm runs on loads it.
    const auto s =
        redis::stringOf(control.call({"SCRIPT", "LOAD", inventory::deductScriptSource()}));
    if (s.ok())
        check.sha = *s;
    return {};
}

QString LabRun::skipReason(Strategy strategy, const NodeCheck &check, const QString &node,
                           bool cluster)
{
    if (strategy == Strategy::Script && check.sha.isEmpty())
        return LabRunText::tr("SCRIPT LOAD of stock_decrement.lua was refused on %1").arg(node);
    const QString function =
        strategy == Strategy::FunctionV1   ? QStringLiteral("inventory_deduct_v1")
        : strategy == Strategy::FunctionV2 ? QStringLiteral("inventory_deduct_v2")
                                           : QString();
    if (!function.isEmpty() && !check.functions.contains(function))
        return (cluster ? LabRunText::tr("%1 is not loaded on %2 (load "
                                         "functions/inventory_lib_v1.lua from the Libraries tab "
                                         "or with inventory-cli functions, on every primary)")
                        : LabRunText::tr("%1 is not loaded on %2 (load "
                                         "functions/inventory_lib_v1.lua from the Libraries tab "
                                         "or with inventory-cli functions)"))
            .arg(function, node);
    return {};
}

LabReport LabRun::run()
{
    LabReport report;
    if (const QStringList p = m_settings.problems(); !p.isEmpty()) {
        report.failure = p.join(QStringLiteral("; "));
        return report;
    }
    redis::ConnectionOptions options = m_target.options;
    options.onCallerThread = true;
    options.clientName = "inventory-lab";
    const LabPlacement placement = LabPlacement::discover(options, m_target.addressMap);
    if (!placement.failure().isEmpty()) {
        report.failure = placement.failure();
        report.connectFailed = placement.connectFailed();
        return report;
    }
    QRandomGenerator random = QRandomGenerator::securelySeeded();
    const QList<LabPlacement::Pick> picks =
        placement.pickSkus(m_settings.strategies, m_target.schema, random);

    // Every node a storm will use is checked before the first key is written anywhere.
    std::vector<NodeCheck> checks(size_t(placement.nodes().size()));
    for (const LabPlacement::Pick &pick : picks) {
        if (pick.node < 0 || checks[size_t(pick.node)].control)
            continue;
        NodeCheck &check = checks[size_t(pick.node)];
        report.failure = prepare(placement, placement.nodes().at(pick.node), check);
        report.connectFailed = check.connectFailed;
        if (!report.failure.isEmpty())
            return report;
    }

    for (int i = 0; i < m_settings.strategies.size(); ++i) {
        const LabPlacement::Pick &pick = picks.at(i);
        StrategyResult result;
        result.strategy = m_settings.strategies.at(i);
        result.initialStock = m_settings.initialStock;
        result.sku = pick.sku;
        result.stockKey = m_target.schema.stockKey(result.sku);
        if (pick.node >= 0)
            result.node = placement.nodes().at(pick.node).name;
        const bool function =
            result.strategy == Strategy::FunctionV1 || result.strategy == Strategy::FunctionV2;
        if (cancelled()) {
            result.skipped = LabRunText::tr("cancelled before it started");
        } else if (pick.node < 0) {
            result.skipped = LabRunText::tr("no primary of the cluster serves slot %1 of %2; "
                                            "the cluster is not fully covered")
                                 .arg(redis::keySlot(result.stockKey))
                                 .arg(QString::fromUtf8(result.stockKey));
        } else if (function && placement.isCluster() && !m_target.schema.sharesSlot(result.sku)) {
            result.skipped = LabRunText::tr("the key schema puts the stock key and the receipts "
                                            "in different cluster slots, so FCALL would be "
                                            "refused (CROSSSLOT): keep {<sku>} in both templates");
        } else if (const QString why = skipReason(result.strategy, checks[size_t(pick.node)],
                                                  result.node, placement.isCluster());
                   !why.isEmpty()) {
            result.skipped = why;
        } else {
            runOne(placement.nodes().at(pick.node), checks[size_t(pick.node)], result, i);
        }
        report.results.append(result);
    }
    report.cancelled = cancelled();
    return report;
}

void LabRun::runOne(const LabNode &node, NodeCheck &check, StrategyResult &result, int index)
{
    redis::RedisClient &control = *check.control;
    // NX: a key that exists is not the lab's to overwrite (the random part makes that rare).
    const ReplyResult set =
        control.call({"SET", result.stockKey, QByteArray::number(m_settings.initialStock), "NX"});
    if (!set.ok() || set->isNil()) {
        result.failure =
            set.ok() ? LabRunText::tr("%1 already exists; run the lab again")
                           .arg(QString::fromUtf8(result.stockKey))
                     : LabRunText::tr("could not create %1: %2")
                           .arg(QString::fromUtf8(result.stockKey), set.error().toString().text);
        if (!set.ok() && set.error().mayHaveRun())
            removeKeys(control, result.sku, &result.cleanupProblem);
        return;
    }
    // The storm, its fault (CLIENT PAUSE) included, talks to the node holding the SKU's slot.
    StormTarget target{node.options, m_target.schema, result.sku, check.sha};
    {
        StormRunner storm(m_settings, result.strategy, target, m_cancel,
                          [this, index, &node](qint64 done) {
                              if (m_progress)
                                  m_progress(index, done, node.name);
                          });
        storm.run(result);
    }
    result.cancelled = cancelled();
    const auto stock = redis::stringOf(control.call({"GET", result.stockKey}));
    if (stock.ok()) {
        bool ok = false;
        const qint64 v = stock->toLongLong(&ok);
        if (ok)
            result.finalStock = v;
        else if (result.failure.isEmpty())
            result.failure = LabRunText::tr("the final stock is not a number: %1")
                                 .arg(QString::fromUtf8(stock->left(40)));
    } else if (result.failure.isEmpty()) {
        result.failure = LabRunText::tr("could not read the final stock: %1")
                             .arg(stock.error().readFailure().text);
    }
    const qint64 receipts = removeKeys(control, result.sku, &result.cleanupProblem);
    if (result.strategy == Strategy::FunctionV1 || result.strategy == Strategy::FunctionV2) {
        if (receipts >= 0)
            result.receipts = receipts;
        else if (result.failure.isEmpty())
            result.failure = result.cleanupProblem;
    }
}

qint64 LabRun::removeKeys(redis::RedisClient &control, const QByteArray &sku, QString *problem)
{
    const QByteArray pattern = m_target.schema.receiptPatternForSku(sku);
    QByteArray cursor = "0";
    qint64 found = 0;
    do {
        const auto page =
            redis::arrayOf(control.call({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"}));
        if (!page.ok() || page->size() != 2) {
            *problem = LabRunText::tr("could not list the lab's receipts %1: %2")
                           .arg(QString::fromUtf8(pattern),
                                page.ok() ? LabRunText::tr("unexpected SCAN reply")
                                          : page.error().readFailure().text);
            break;
        }
        cursor = page->at(0).bytes();
        redis::Command unlink{"UNLINK"};
        for (const redis::Reply &k : page->at(1).elements())
            unlink.append(k.bytes());
        if (unlink.size() > 1) {
            found += unlink.size() - 1;
            if (const ReplyResult r = control.call(unlink); !r.ok())
                *problem =
                    LabRunText::tr("could not remove receipts: %1").arg(r.error().toString().text);
        }
    } while (cursor != "0");
    if (const ReplyResult r = control.call({"DEL", m_target.schema.stockKey(sku)}); !r.ok())
        *problem =
            LabRunText::tr("could not remove %1: %2")
                .arg(QString::fromUtf8(m_target.schema.stockKey(sku)), r.error().toString().text);
    return problem->isEmpty() ? found : -1;
}

} // namespace lab
