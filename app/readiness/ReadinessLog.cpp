// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadinessLog.h"

Q_LOGGING_CATEGORY(lcReadiness, "console.readiness")
