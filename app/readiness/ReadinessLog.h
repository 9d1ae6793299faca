// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// The readiness audit's log category: console.readiness.
Q_DECLARE_LOGGING_CATEGORY(lcReadiness)
