#include "Log.h"

Q_LOGGING_CATEGORY(lcRedis, "console.redis")
