#include "GateLog.h"

Q_LOGGING_CATEGORY(lcGate, "console.gate")
