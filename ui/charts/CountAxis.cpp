// SPDX-License-Identifier: GPL-3.0-or-later
#include "CountAxis.h"

#include <QValueAxis>
#include <cmath>

namespace ui {

void setCountRange(QValueAxis *axis, double maxValue)
{
    const double wanted = std::max(1.0, std::ceil(maxValue * 1.1));
    // Steps of 1, 2, 5, 10, 20, 50...: the smallest that needs at most five intervals.
    double step = 1;
    while (wanted / step > 5) {
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        step *= mantissa > 1.5 && mantissa < 2.5 ? 2.5 : 2;
    }
    const int ticks = int(std::ceil(wanted / step));
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setRange(0, step * ticks);
    axis->setTickCount(ticks + 1);
    axis->setMinorTickCount(0);
}

} // namespace ui
