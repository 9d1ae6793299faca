// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsLog.h"

Q_LOGGING_CATEGORY(lcMetrics, "console.metrics")
