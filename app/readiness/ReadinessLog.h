#pragma once

#include <QLoggingCategory>

// The readiness audit's log category: console.readiness.
Q_DECLARE_LOGGING_CATEGORY(lcReadiness)
