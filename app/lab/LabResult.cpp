// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabResult.h"

#include <QJsonArray>
#include <algorithm>

namespace lab {

qint64 StrategyResult::sold() const
{
    return finalStock ? initialStock - *finalStock : 0;
}

qint64 StrategyResult::oversold() const
{
    return std::max<qint64>(0, sold() - initialStock);
}

// A function leaves one receipt per order it deducted, so every unit sold beyond the receipts
// went to an order a second time. The script and the naive way leave nothing behind: the
// distinct orders the server acknowledged are what was meant to be sold, and an order whose
// outcome stayed unknown may account for one more unit (so it is not counted as a double).
qint64 StrategyResult::doubleDeductions() const
{
    if (!finalStock)
        return 0;
    const qint64 distinct = receipts ? *receipts : successes + unresolved;
    return std::max<qint64>(0, sold() - distinct);
}

double StrategyResult::opsPerSec() const
{
    return elapsedMs > 0 ? double(commands) * 1000.0 / elapsedMs : 0;
}

QString StrategyResult::verdict() const
{
    if (!skipped.isEmpty())
        return QStringLiteral("not run: %1").arg(skipped);
    if (!failure.isEmpty())
        return QStringLiteral("broke off: %1").arg(failure);
    QStringList parts;
    if (cancelled)
        parts << QStringLiteral("cancelled after %1 attempts").arg(attempts);
    if (!finalStock)
        parts << QStringLiteral("final stock not read");
    else if (oversold() > 0)
        parts
            << QStringLiteral("oversold %1 unit%2").arg(oversold()).arg(oversold() == 1 ? "" : "s");
    else if (strategy == Strategy::Naive)
        // One run without an oversell proves nothing about the naive strategy: its storm
        // oversells once the stock runs out with attempts left (StormRunner), so this run's
        // stock lasted, or its reads failed.
        parts << QStringLiteral("no oversell this run (the naive race shows once the stock runs "
                                "out with attempts left: give more attempts than units; it is "
                                "not safe)");
    else
        parts << QStringLiteral("no oversell");
    if (doubleDeductions() > 0)
        parts << QStringLiteral("%1 double deduction%2 from retries")
                     .arg(doubleDeductions())
                     .arg(doubleDeductions() == 1 ? "" : "s");
    if (retriesAnswered > 0)
        parts << QStringLiteral("%1 retr%2 answered from receipts")
                     .arg(retriesAnswered)
                     .arg(retriesAnswered == 1 ? "y" : "ies");
    if (unresolved > 0)
        parts << QStringLiteral("%1 order%2 still unknown")
                     .arg(unresolved)
                     .arg(unresolved == 1 ? "" : "s");
    if (errors > 0)
        parts << QStringLiteral("%1 error repl%2 (%3)")
                     .arg(errors)
                     .arg(errors == 1 ? "y" : "ies")
                     .arg(firstError);
    return parts.join(QStringLiteral(", "));
}

QJsonObject StrategyResult::toJson()
{
    const auto optional = [](const std::optional<qint64> &v) {
        return v ? QJsonValue(double(*v)) : QJsonValue();
    };
    QJsonArray buckets;
    for (int i = 0; i < latency.buckets().size(); ++i)
        buckets.append(
            QJsonObject{{QStringLiteral("le_ms"), i < LatencyHistogram::bounds().size()
                                                      ? QJsonValue(LatencyHistogram::bounds().at(i))
                                                      : QJsonValue()},
                        {QStringLiteral("count"), double(latency.buckets().at(i))}});
    QJsonObject o{{QStringLiteral("strategy"), strategyName(strategy)},
                  {QStringLiteral("sku"), QString::fromUtf8(sku)},
                  {QStringLiteral("stock_key"), QString::fromUtf8(stockKey)},
                  {QStringLiteral("node"), node},
                  {QStringLiteral("initial_stock"), double(initialStock)},
                  {QStringLiteral("attempts"), double(attempts)},
                  {QStringLiteral("reused_ids"), double(reusedIds)},
                  {QStringLiteral("commands"), double(commands)},
                  {QStringLiteral("successes"), double(successes)},
                  {QStringLiteral("duplicate_acks"), double(duplicateAcks)},
                  {QStringLiteral("retries_answered"), double(retriesAnswered)},
                  {QStringLiteral("insufficient"), double(insufficient)},
                  {QStringLiteral("stock_missing"), double(stockMissing)},
                  {QStringLiteral("errors"), double(errors)},
                  {QStringLiteral("unknown_outcomes"), double(unknownOutcomes)},
                  {QStringLiteral("retries_after_unknown"), double(retriesAfterUnknown)},
                  {QStringLiteral("unresolved"), double(unresolved)},
                  {QStringLiteral("final_stock"), optional(finalStock)},
                  {QStringLiteral("receipts"), optional(receipts)},
                  {QStringLiteral("sold"), double(sold())},
                  {QStringLiteral("oversold"), double(oversold())},
                  {QStringLiteral("double_deductions"), double(doubleDeductions())},
                  {QStringLiteral("elapsed_ms"), elapsedMs},
                  {QStringLiteral("ops_per_sec"), opsPerSec()},
                  {QStringLiteral("p50_ms"), p50Ms()},
                  {QStringLiteral("p99_ms"), p99Ms()},
                  {QStringLiteral("latency_buckets"), buckets},
                  {QStringLiteral("cancelled"), cancelled},
                  {QStringLiteral("verdict"), verdict()}};
    if (!firstError.isEmpty())
        o.insert(QStringLiteral("first_error"), firstError);
    if (!faultNote.isEmpty())
        o.insert(QStringLiteral("fault"), faultNote);
    if (!skipped.isEmpty())
        o.insert(QStringLiteral("skipped"), skipped);
    if (!failure.isEmpty())
        o.insert(QStringLiteral("failure"), failure);
    if (!cleanupProblem.isEmpty())
        o.insert(QStringLiteral("cleanup_problem"), cleanupProblem);
    return o;
}

} // namespace lab
