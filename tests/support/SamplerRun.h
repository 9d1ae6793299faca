// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a metrics::ServerSampler until it has taken a number of samples, not for a time: a
// loaded machine makes the run longer, never shorter, and the budget of batches follows the
// time the run really took.
#include "metrics/ServerSampler.h"

#include <QElapsedTimer>
#include <QTest>

namespace testsupport {

// Starts `sampler` and stops it once it samples `nodes` nodes and each has taken `samples`
// samples. Returns how long it ran, in ms, or -1 when that did not happen within timeoutMs.
inline qint64 sampleUntil(metrics::ServerSampler &sampler, int nodes, int samples,
                          int timeoutMs = 60000)
{
    const auto enough = [&] {
        if (sampler.nodeCount() != nodes)
            return false;
        for (int i = 0; i < nodes; ++i)
            if (sampler.node(i).samples < samples)
                return false;
        return true;
    };
    QElapsedTimer clock;
    clock.start();
    sampler.start();
    const bool done = QTest::qWaitFor(enough, timeoutMs);
    sampler.stop();
    return done ? clock.elapsed() : -1;
}

// The most batches a node may get from a sampler that ran `elapsedMs` at `intervalMs`: one at
// the start, then one per interval. QTimer's default (coarse) timers may fire up to 5 % early,
// so each interval counts as 95 % of itself.
inline qint64 sampleBudget(qint64 elapsedMs, int intervalMs)
{
    return elapsedMs * 100 / (95LL * intervalMs) + 1;
}

} // namespace testsupport
