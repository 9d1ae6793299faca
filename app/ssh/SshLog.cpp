#include "SshLog.h"

Q_LOGGING_CATEGORY(lcSsh, "console.ssh")
