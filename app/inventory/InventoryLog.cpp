#include "InventoryLog.h"

Q_LOGGING_CATEGORY(lcInventory, "console.inventory")
