// SPDX-License-Identifier: GPL-3.0-or-later
#include "BrowseLog.h"

Q_LOGGING_CATEGORY(lcBrowse, "console.browse")
