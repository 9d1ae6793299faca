// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reply.h"

#include <QString>

namespace redis {

// A reply's shape in words ("an integer", "an array of 3 elements"), for sentences that explain
// an unexpected reply: a raw dump (Reply::debugString) belongs in a record, not in a sentence.
// Translated: a sentence the window shows takes `.text`, one that stays English `.english`.
core::Sentence replyShape(const Reply &reply);

} // namespace redis
