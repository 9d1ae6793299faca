// SPDX-License-Identifier: GPL-3.0-or-later
#include "OutcomeBuckets.h"

#include "inventory/AuditIndex.h"
#include "inventory/DeductionHistory.h"

namespace metrics {

using inventory::OutcomeKind;

int OutcomeBucket::total() const
{
    int n = 0;
    for (int c : counts)
        n += c;
    return n;
}

std::vector<OutcomeBucket> bucketOutcomes(const std::vector<OutcomeEvent> &events, qint64 fromMs,
                                          qint64 toMs, qint64 bucketMs)
{
    bucketMs = qMax<qint64>(1, bucketMs);
    const qint64 start = fromMs - (fromMs % bucketMs + bucketMs) % bucketMs;
    if (toMs < start)
        return {};
    std::vector<OutcomeBucket> out(size_t((toMs - start) / bucketMs + 1));
    for (size_t i = 0; i < out.size(); ++i)
        out[i].startMs = start + qint64(i) * bucketMs;
    for (const OutcomeEvent &e : events) {
        if (e.timeMs < fromMs || e.timeMs > toMs)
            continue;
        ++out[size_t((e.timeMs - start) / bucketMs)].counts[size_t(e.kind)];
    }
    return out;
}

std::vector<OutcomeEvent> sessionOutcomes(const inventory::DeductionHistory &history)
{
    std::vector<OutcomeEvent> out;
    out.reserve(size_t(history.rowCount()));
    for (int row = 0; row < history.rowCount(); ++row) {
        const auto *e = history.entryAt(row);
        if (e)
            out.push_back({e->result.startedUtc.toMSecsSinceEpoch(), e->result.outcome.kind});
    }
    return out;
}

std::optional<OutcomeKind> outcomeOfAuditResult(const QString &result, bool outcomeUnknown)
{
    if (outcomeUnknown)
        return OutcomeKind::Unknown;
    // The openings of DeductionOutcome::summary(), longest first where one begins another.
    static const std::pair<const char *, OutcomeKind> openings[] = {
        {"deducted", OutcomeKind::Deducted},
        {"already applied", OutcomeKind::AlreadyApplied},
        {"insufficient", OutcomeKind::Insufficient},
        {"stock missing", OutcomeKind::StockMissing},
        {"rejected", OutcomeKind::Rejected},
        {"error, may have written", OutcomeKind::MayHaveWritten},
        {"outcome unknown", OutcomeKind::Unknown},
        {"no outcome recorded", OutcomeKind::Unknown},
        {"not sent", OutcomeKind::NotSent},
    };
    for (const auto &[opening, kind] : openings)
        if (result.startsWith(QLatin1String(opening), Qt::CaseInsensitive))
            return kind;
    return std::nullopt;
}

std::vector<OutcomeEvent> auditOutcomes(const inventory::AuditIndex &index, qint64 fromMs,
                                        qint64 toMs)
{
    std::vector<OutcomeEvent> out;
    const QString deduct = QStringLiteral("deduct");
    for (const inventory::AuditEntry &e : index.entries()) {
        // A hidden entry is an attempt whose outcome follows as its own entry.
        if (e.hidden || e.timeMs < fromMs || e.timeMs > toMs)
            continue;
        if (index.strings().at(e.action) != deduct)
            continue;
        const bool noOutcome = e.phase == inventory::AuditRecord::Phase::Attempt;
        const auto kind =
            noOutcome ? std::optional(OutcomeKind::Unknown)
                      : outcomeOfAuditResult(index.strings().at(e.result), e.outcomeUnknown);
        if (kind)
            out.push_back({e.timeMs, *kind});
    }
    return out;
}

} // namespace metrics
