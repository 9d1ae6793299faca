// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionLog.h"

Q_LOGGING_CATEGORY(lcSession, "console.session")
