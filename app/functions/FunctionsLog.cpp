// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionsLog.h"

Q_LOGGING_CATEGORY(lcFunctions, "console.functions")
