#include "SessionLog.h"

Q_LOGGING_CATEGORY(lcSession, "console.session")
