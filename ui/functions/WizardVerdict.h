// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The verdict of a change as the LoadWizard's pages say it: words, and a badge's colour.

#include "functions/ContractDiff.h"

#include <QString>

namespace ui {

QString verdictText(functions::Verdict v);
QString verdictStyle(functions::Verdict v);

} // namespace ui
