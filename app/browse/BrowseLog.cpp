#include "BrowseLog.h"

Q_LOGGING_CATEGORY(lcBrowse, "console.browse")
