// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// Connections, profiles, secrets, the probe and the write gate. Never logs a password or a
// command's arguments.
Q_DECLARE_LOGGING_CATEGORY(lcSession)
