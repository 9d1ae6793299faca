// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/CanonicalInteger.h"
#include "core/Wording.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <optional>

namespace browse {

// The deduction functions refuse stock above this (docs/contracts.md).
constexpr qint64 MaxStock = 1000000000;

// Stored values are read with the one canonical-integer parser (core/CanonicalInteger.h).
using core::parseCanonicalInteger;

// "6 d 23 h", "5 h 12 min", "3 min 20 s", "42 s", "0.4 s": the two largest units, so a
// support person reads it at a glance. Negative durations read as "0 s".
// "39 min 5 s", "1 h": English by default (records, the CLI, --json); tables and sentences in
// the window pass Wording::Translated.
QString formatDuration(qint64 ms, core::Wording wording = core::Wording::English);

// Local date and time with the UTC offset: "2024-06-01 14:03:22 +02:00".
QString formatExpiry(qint64 epochMs);

// A receipt hash's "time" field: seconds or milliseconds since the epoch, shown as a local
// date; anything else is shown escaped as it is.
QString formatReceiptTime(const QByteArray &raw);

} // namespace browse
