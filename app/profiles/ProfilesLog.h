// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// Profiles and secrets. Never logs a password or a command's arguments.
Q_DECLARE_LOGGING_CATEGORY(lcProfiles)
