#include "FunctionsLog.h"

Q_LOGGING_CATEGORY(lcFunctions, "console.functions")
