// SPDX-License-Identifier: GPL-3.0-or-later
#include "SkuDirectory.h"

#include <algorithm>
#include <vector>

namespace inventory {

int skuDistance(QByteArrayView typed, QByteArrayView candidate)
{
    const QByteArray a = typed.toByteArray().toLower();
    const QByteArray b = candidate.toByteArray().toLower();
    // Containment ranks by how much the name adds; everything else comes after every
    // containing name, by edit distance.
    if (!a.isEmpty() && b.contains(a))
        return int(b.size() - a.size());
    std::vector<int> row(size_t(b.size()) + 1);
    for (size_t j = 0; j < row.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int up = row[size_t(j)];
            row[size_t(j)] = std::min(
                {up + 1, row[size_t(j - 1)] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    constexpr int NotContained = 1 << 16;
    return NotContained + row.back();
}

} // namespace inventory
