// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class QChart;

namespace ui {

// Every value a chart draws, as CSV: line and area series as "series,time,value" rows (time in
// ISO 8601 UTC when `timeAxis`, else the x value), bar series as "set,category,value". What is
// drawn is what is exported, so a CSV never disagrees with its PNG.
QByteArray chartCsv(const QChart &chart, bool timeAxis = true);

} // namespace ui
