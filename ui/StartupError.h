// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

namespace ui {

// Says why the console cannot start: one line on stderr (English, as the logs), and a message
// box in the window's language, because a console started from a desktop launcher has no
// terminal to read the line from.
void reportStartupError(const core::Sentence &summary, const core::Sentence &detail);

} // namespace ui
