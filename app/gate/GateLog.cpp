// SPDX-License-Identifier: GPL-3.0-or-later
#include "GateLog.h"

Q_LOGGING_CATEGORY(lcGate, "console.gate")
