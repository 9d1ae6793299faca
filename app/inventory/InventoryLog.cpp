// SPDX-License-Identifier: GPL-3.0-or-later
#include "InventoryLog.h"

Q_LOGGING_CATEGORY(lcInventory, "console.inventory")
