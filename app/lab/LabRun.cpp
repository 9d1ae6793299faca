#include "LabRun.h"

#include "StormRunner.h"
#include "inventory/DeductionRequest.h"
#include "redis/LibraryList.h"
#include "redis/RedisClient.h"
#include "redis/ResultReads.h"

#include <QRandomGenerator>

namespace lab {

using redis::ReplyResult;

LabRun::LabRun(LabSettings settings, LabTarget target)
    : m_settings(std::move(settings))
    , m_target(std::move(target))
{}

QByteArray LabRun::skuPrefix()
{
    return "lab-";
}

// What the server must offer before any key is written: a standalone server (the lab's keys
// are not spread over a cluster's primaries), the functions, the script.
QString LabRun::preflight(redis::RedisClient &control, QStringList *functions, QByteArray *sha)
{
    const ReplyResult info = control.call({"INFO", "cluster"});
    const auto text = redis::stringOf(info);
    if (!text.ok())
        return QStringLiteral("could not read INFO cluster: %1").arg(text.error().readFailure());
    if (text->contains("cluster_enabled:1"))
        return QStringLiteral("this server is a cluster node (cluster_enabled:1); the lab runs "
                              "against a standalone server only: point it at a standalone test "
                              "server or the demo");
    const ReplyResult list = control.call({"FUNCTION", "LIST"});
    if (list.ok()) {
        const auto libraries = redis::decodeFunctionList(*list);
        if (libraries.ok())
            for (const redis::LibraryInfo &l : libraries.value())
                for (const redis::FunctionInfo &f : l.functions)
                    functions->append(f.name.toLower());
    }
    const ReplyResult loaded = control.call({"SCRIPT", "LOAD", inventory::deductScriptSource()});
    const auto s = redis::stringOf(loaded);
    if (s.ok())
        *sha = *s;
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
    options.commandTimeoutMs = std::max(options.commandTimeoutMs, m_settings.pauseMs + 5000);
    redis::RedisClient control(options);
    control.open();
    if (!control.waitUntilReady(options.connectTimeoutMs + 1000)) {
        report.failure = QStringLiteral("could not connect to %1: %2")
                             .arg(options.address(), control.stateDetail());
        return report;
    }
    QStringList functions;
    QByteArray sha;
    report.failure = preflight(control, &functions, &sha);
    if (!report.failure.isEmpty())
        return report;

    const QByteArray runId =
        QByteArray::number(QRandomGenerator::global()->generate(), 16).rightJustified(8, '0');
    for (int i = 0; i < m_settings.strategies.size(); ++i) {
        StrategyResult result;
        result.strategy = m_settings.strategies.at(i);
        result.initialStock = m_settings.initialStock;
        result.sku = skuPrefix() + runId + '-' + strategyName(result.strategy).toUtf8();
        result.stockKey = m_target.schema.stockKey(result.sku);
        if (cancelled()) {
            result.skipped = QStringLiteral("cancelled before it started");
        } else if (result.strategy == Strategy::Script && sha.isEmpty()) {
            result.skipped = QStringLiteral("SCRIPT LOAD of stock_decrement.lua was refused");
        } else if ((result.strategy == Strategy::FunctionV1
                    && !functions.contains(QStringLiteral("inventory_deduct_v1")))
                   || (result.strategy == Strategy::FunctionV2
                       && !functions.contains(QStringLiteral("inventory_deduct_v2")))) {
            result.skipped = QStringLiteral("%1 is not loaded on this server (load "
                                            "functions/inventory_lib_v1.lua from the Libraries "
                                            "tab or with inventory-cli functions)")
                                 .arg(result.strategy == Strategy::FunctionV1
                                          ? QStringLiteral("inventory_deduct_v1")
                                          : QStringLiteral("inventory_deduct_v2"));
        } else {
            runOne(control, result, sha, i);
        }
        report.results.append(result);
    }
    report.cancelled = cancelled();
    return report;
}

void LabRun::runOne(redis::RedisClient &control, StrategyResult &result, const QByteArray &sha,
                    int index)
{
    // NX: a key that exists is not the lab's to overwrite (the random part makes that rare).
    const ReplyResult set =
        control.call({"SET", result.stockKey, QByteArray::number(m_settings.initialStock), "NX"});
    if (!set.ok() || set->isNil()) {
        result.failure = set.ok()
                             ? QStringLiteral("%1 already exists; run the lab again")
                                   .arg(QString::fromUtf8(result.stockKey))
                             : QStringLiteral("could not create %1: %2")
                                   .arg(QString::fromUtf8(result.stockKey), set.error().toString());
        if (!set.ok() && set.error().outcomeUnknown())
            removeKeys(control, result.sku, &result.cleanupProblem);
        return;
    }
    StormTarget target{m_target.options, m_target.schema, result.sku, sha};
    {
        StormRunner storm(m_settings, result.strategy, target, m_cancel,
                          [this, index](qint64 done) {
                              if (m_progress)
                                  m_progress(index, done);
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
            result.failure = QStringLiteral("the final stock is not a number: %1")
                                 .arg(QString::fromUtf8(stock->left(40)));
    } else if (result.failure.isEmpty()) {
        result.failure =
            QStringLiteral("could not read the final stock: %1").arg(stock.error().readFailure());
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
            *problem = QStringLiteral("could not list the lab's receipts %1: %2")
                           .arg(QString::fromUtf8(pattern),
                                page.ok() ? QStringLiteral("unexpected SCAN reply")
                                          : page.error().readFailure());
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
                    QStringLiteral("could not remove receipts: %1").arg(r.error().toString());
        }
    } while (cursor != "0");
    if (const ReplyResult r = control.call({"DEL", m_target.schema.stockKey(sku)}); !r.ok())
        *problem = QStringLiteral("could not remove %1: %2")
                       .arg(QString::fromUtf8(m_target.schema.stockKey(sku)), r.error().toString());
    return problem->isEmpty() ? found : -1;
}

} // namespace lab
