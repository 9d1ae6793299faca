// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QtGlobal>
#include <optional>

namespace core {

// A base-10 integer written the one way Redis and Lua write it: optional '-', digits, no
// leading zero, no '+', no spaces; "-0" is not canonical. nullopt for anything else or for a
// value outside qint64. The one parser for replies, stored values, CSV cells and typed input.
std::optional<qint64> parseCanonicalInteger(QByteArrayView bytes);

// The same shape without the range: a spreadsheet reads "-99999999999999999999" as a number
// too, so the CSV writer asks only this.
bool hasCanonicalIntegerShape(QByteArrayView bytes);

} // namespace core
