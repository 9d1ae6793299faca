// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// Library inspection, diffs, guarded loads, backups and rollbacks. Logs what was decided and
// why; never a password, and never a library's code (that goes to backups and the audit log).
Q_DECLARE_LOGGING_CATEGORY(lcFunctions)
