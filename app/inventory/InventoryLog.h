// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// The inventory domain: deductions, receipt checks, the audit viewer's queries. Logs keys and
// outcomes, never connection secrets.
Q_DECLARE_LOGGING_CATEGORY(lcInventory)
