// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProfilesLog.h"

Q_LOGGING_CATEGORY(lcProfiles, "console.profiles")
