// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoLog.h"

Q_LOGGING_CATEGORY(lcDemo, "console.demo")
