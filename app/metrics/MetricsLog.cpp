#include "MetricsLog.h"

Q_LOGGING_CATEGORY(lcMetrics, "console.metrics")
