// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

namespace redis {

constexpr int SlotCount = 16384;

// The Redis Cluster slot of a key: CRC16 (XMODEM) of the hash tag, if the key has a non-empty
// {...} section, else of the whole key; modulo 16384.
int keySlot(const QByteArray &key);

// The part of the key that is hashed (the hash tag content, or the whole key).
QByteArray hashTagOf(const QByteArray &key);

} // namespace redis
