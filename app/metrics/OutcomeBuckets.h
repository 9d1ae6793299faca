// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionOutcome.h"

#include <array>
#include <optional>
#include <vector>

namespace inventory {
class AuditIndex;
class DeductionHistory;
} // namespace inventory

namespace metrics {

constexpr int OutcomeKindCount = int(inventory::OutcomeKind::NotSent) + 1;

// One deduction: when it was sent and how it ended.
struct OutcomeEvent
{
    qint64 timeMs = 0;
    inventory::OutcomeKind kind = inventory::OutcomeKind::Unknown;
};

// How many deductions of each outcome started in [startMs, startMs + width).
struct OutcomeBucket
{
    qint64 startMs = 0;
    std::array<int, OutcomeKindCount> counts{};
    int total() const;
};

// Buckets of `bucketMs` from `fromMs` (rounded down to a bucket boundary) up to `toMs`; events
// outside are left out. Empty buckets are kept, so the time axis has no holes.
std::vector<OutcomeBucket> bucketOutcomes(const std::vector<OutcomeEvent> &events, qint64 fromMs,
                                          qint64 toMs, qint64 bucketMs);

// The deductions of this session.
std::vector<OutcomeEvent> sessionOutcomes(const inventory::DeductionHistory &history);
// The "deduct" records of an audit log in [fromMs, toMs]. An attempt with no outcome recorded
// counts as Unknown: the process died before it knew.
std::vector<OutcomeEvent> auditOutcomes(const inventory::AuditIndex &index, qint64 fromMs,
                                        qint64 toMs);
// The outcome a deduct record's result text names (DeductionOutcome::summary()), if any.
std::optional<inventory::OutcomeKind> outcomeOfAuditResult(const QString &result,
                                                           bool outcomeUnknown);

} // namespace metrics
