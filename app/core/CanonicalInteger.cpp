// SPDX-License-Identifier: GPL-3.0-or-later
#include "CanonicalInteger.h"

#include <limits>

namespace core {

bool hasCanonicalIntegerShape(QByteArrayView b)
{
    const bool negative = !b.isEmpty() && b.front() == '-';
    const QByteArrayView digits = negative ? b.sliced(1) : b;
    if (digits.isEmpty() || (digits.front() == '0' && (digits.size() > 1 || negative)))
        return false;
    for (char c : digits)
        if (c < '0' || c > '9')
            return false;
    return true;
}

std::optional<qint64> parseCanonicalInteger(QByteArrayView b)
{
    // 19 digits hold every qint64; more always overflow, and the loop below must not wrap.
    const bool negative = !b.isEmpty() && b.front() == '-';
    if (!hasCanonicalIntegerShape(b) || b.size() - (negative ? 1 : 0) > 19)
        return std::nullopt;
    quint64 v = 0;
    for (char c : negative ? b.sliced(1) : b)
        v = v * 10 + quint64(c - '0');
    const quint64 limit = negative ? quint64(std::numeric_limits<qint64>::max()) + 1
                                   : quint64(std::numeric_limits<qint64>::max());
    if (v > limit)
        return std::nullopt;
    return negative ? qint64(0 - v) : qint64(v);
}

} // namespace core
