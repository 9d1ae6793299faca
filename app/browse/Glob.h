// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QString>
#include <optional>

namespace browse {

// Redis's MATCH glob (* ? [abc] [^a-z] and \ escapes) over raw bytes, so a SKU filter applied
// on the console side means exactly what the same pattern would mean in SCAN MATCH.
bool globMatch(QByteArrayView pattern, QByteArrayView text);

// Why a pattern is not what its author meant, or nullopt: a '[' never closed (Redis then takes
// the rest of the pattern as one class) or a lone '\' at the end. Such a pattern matches
// little or nothing, and "0 rows" would not say why.
std::optional<QString> globProblem(QByteArrayView pattern);

} // namespace browse
