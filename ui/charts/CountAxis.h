// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QValueAxis;

namespace ui {

// A value axis for counts: from 0 to a round number above `maxValue`, ticks on whole
// numbers (1, 2, 5, 10, 20, 50... apart), at most six of them, labels without decimals.
void setCountRange(QValueAxis *axis, double maxValue);

} // namespace ui
