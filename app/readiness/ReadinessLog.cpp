#include "ReadinessLog.h"

Q_LOGGING_CATEGORY(lcReadiness, "console.readiness")
