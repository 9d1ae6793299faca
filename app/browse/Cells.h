// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"

#include <QString>

namespace browse {

// How one value of the store reads on screen and in reports: one place, so the SKU view,
// the receipts, the anomaly list, the CLI and the CSV all say the same thing.
constexpr int DisplayBytes = 120; // escaped characters shown before an ellipsis

QString stockText(const KeyspaceStore &store, uint32_t sku);
QString remainingText(const KeyspaceStore &store, uint32_t receipt);
// "none" (no TTL), "expired", or the time left: "6 d 23 h".
QString ttlText(qint64 expiryMs, qint64 nowMs);
// Hash receipts: "hash: quantity 2, at 2024-06-01 14:03:22 +02:00"; strings: "string".
QString receiptKindText(const KeyspaceStore &store, uint32_t receipt);
// "1 receipt", "2 receipts", with the number grouped for the locale: no "receipt(s)".
QString countOf(qint64 n, const char *singular, const char *plural);
// Short names of the set bits, comma separated; empty for none.
QString anomalyShortText(uint8_t bits);
QString anomalyShortName(Anomaly a);
// Why a row has this anomaly, in a sentence that names the key.
QString anomalyDetail(const KeyspaceStore &store, Anomaly a, uint32_t id);

} // namespace browse
