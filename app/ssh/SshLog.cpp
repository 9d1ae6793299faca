// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshLog.h"

Q_LOGGING_CATEGORY(lcSsh, "console.ssh")
