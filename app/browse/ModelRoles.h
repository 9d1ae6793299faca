// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVariant>
#include <Qt>

namespace browse {

// Roles every browse model answers besides Qt's. Display text is always escaped and
// truncated (core::escapeBytes); these carry what copy, export and delegates need.
enum Role {
    RawBytesRole = Qt::UserRole + 1, // QByteArray: a key or value cell's exact bytes
    ExportRole,                      // CSV/JSON: ms, epoch ms, exact bytes, plain numbers
    KeyRole,                         // QByteArray: the Redis key the row is about
    AnomalyRole,                     // int: the row's Anomaly bits (0: none)
    SortRole,                        // never used by views; reserved for proxies
    ExpiringSoonRole,                // bool: a receipt's expiry cell within the warning window
    ExpiryRole, // qint64: the row key's absolute expiry, ms since the epoch; NoExpiry (-1): none
};

// ExportRole's "no value": an empty CSV cell, JSON null. (An invalid QVariant would fall back
// to the display text, a state such as "(missing)" that a value could also read.)
inline QVariant noExportValue()
{
    return QVariant::fromValue(nullptr);
}

// One "now" for a whole repaint, so every TTL on screen counts down in step.
qint64 modelNowMs();
void setModelClockForTests(qint64 (*clock)()); // nullptr: the system clock

} // namespace browse
