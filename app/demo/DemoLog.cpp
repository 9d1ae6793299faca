#include "DemoLog.h"

Q_LOGGING_CATEGORY(lcDemo, "console.demo")
