// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabResult.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>

namespace lab {

namespace {
// The verdict the Lab panel shows is translated there; the CLI (text and --json) installs no
// translator and prints the English.
struct LabResultText
{
    Q_DECLARE_TR_FUNCTIONS(lab::StrategyResult)
};
} // namespace

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
        return LabResultText::tr("not run: %1").arg(skipped);
    if (!failure.isEmpty())
        return LabResultText::tr("broke off: %1").arg(failure);
    QStringList parts;
    if (cancelled)
        parts << LabResultText::tr("cancelled after %1 attempts").arg(attempts);
    if (!finalStock)
        parts << LabResultText::tr("final stock not read");
    else if (oversold() > 0)
        parts << (oversold() == 1 ? LabResultText::tr("oversold %1 unit")
                                  : LabResultText::tr("oversold %1 units"))
                     .arg(oversold());
    else if (strategy == Strategy::Naive)
        // One run without an oversell proves nothing about the naive strategy: its storm
        // oversells once the stock runs out with attempts left (StormRunner), so this run's
        // stock lasted, or its reads failed.
        parts << LabResultText::tr("no oversell this run (the naive race shows once the stock "
                                   "runs out with attempts left: give more attempts than units; "
                                   "it is not safe)");
    else
        parts << LabResultText::tr("no oversell");
    parts << countParts();
    return parts.join(LabResultText::tr(", ", "between the parts of a verdict"));
}

// The counts that went wrong or were answered from receipts. The English plural is chosen
// here (not with %n) so that the CLI's English stays as it was.
QStringList StrategyResult::countParts() const
{
    QStringList parts;
    if (doubleDeductions() > 0)
        parts << (doubleDeductions() == 1 ? LabResultText::tr("%1 double deduction from retries")
                                          : LabResultText::tr("%1 double deductions from retries"))
                     .arg(doubleDeductions());
    if (retriesAnswered > 0)
        parts << (retriesAnswered == 1 ? LabResultText::tr("%1 retry answered from receipts")
                                       : LabResultText::tr("%1 retries answered from receipts"))
                     .arg(retriesAnswered);
    if (unresolved > 0)
        parts << (unresolved == 1 ? LabResultText::tr("%1 order still unknown")
                                  : LabResultText::tr("%1 orders still unknown"))
                     .arg(unresolved);
    if (errors > 0)
        parts << (errors == 1 ? LabResultText::tr("%1 error reply (%2)")
                              : LabResultText::tr("%1 error replies (%2)"))
                     .arg(errors)
                     .arg(firstError);
    return parts;
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
