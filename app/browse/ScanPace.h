// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "InventoryScan.h"
#include "profiles/Environment.h"

#include <QString>
#include <optional>

namespace browse {

// How hard a scan may push the server. Fast (local, test, staging, the demo): several pages
// in flight and no cap, done as soon as the server can answer. Gentle (production): one page
// in flight, small pages and a keys/s cap, so that other clients of the server keep their
// latency; scripts/bench scan-impact measures both and chose the defaults (docs/performance.md).
struct ScanPace
{
    enum class Mode { Fast, Gentle };
    // The cap a production session starts with: 1,000,000 keys in 25 s (the target is 30 s),
    // with room for slow round trips; its cost to other clients is measured by
    // scripts/bench scan-impact (docs/performance.md).
    static constexpr qint64 DefaultGentleKeysPerSecond = 40000;
    static constexpr qint64 MinKeysPerSecond = 1000;
    static constexpr qint64 MaxKeysPerSecond = 10000000;

    Mode mode = Mode::Fast;
    int count = 1000;       // SCAN COUNT of a scan over every key
    int sparseCount = 5000; // of an order lookup: one pattern, few hits, fewer round trips
    int pagesInFlight = 4;
    qint64 keysPerSecond = 0; // 0: no cap

    static ScanPace fast();
    static ScanPace gentle(qint64 keysPerSecond = DefaultGentleKeysPerSecond);
    // Production → gentle; local, test, staging → fast.
    static ScanPace forEnvironment(profiles::Environment environment);

    bool isGentle() const { return mode == Mode::Gentle; }
    // Pages in flight and the cap; COUNT too when the options leave it 0.
    void applyTo(InventoryScan::Options &options) const;
    // "gentle: at most 50,000 keys/s, 1 page in flight" / "fast: no rate cap, 4 pages in flight"
    QString describe() const;
    // Seconds the cap alone makes a scan of dbSize keys last; -1 without a cap or a size.
    qint64 expectedSeconds(qint64 dbSize) const;
    // describe() and, when known, "; about 20 s for 1,000,000 keys".
    QString describeFor(qint64 dbSize) const;
};

// --scan-rate: a number of keys per second (MinKeysPerSecond..MaxKeysPerSecond, digits only)
// for a gentle scan with that cap, or "unlimited" for a fast one. nullopt with *error saying
// what to give instead.
std::optional<ScanPace> parseScanRate(const QString &text, QString *error);

} // namespace browse
