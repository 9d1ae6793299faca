// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace ui {

// Says why the console cannot start: one line on stderr, and a message box, because a console
// started from a desktop launcher has no terminal to read the line from.
void reportStartupError(const QString &summary, const QString &detail);

} // namespace ui
