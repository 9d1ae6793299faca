#include "ProfilesLog.h"

Q_LOGGING_CATEGORY(lcProfiles, "console.profiles")
