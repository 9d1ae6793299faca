// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/Environment.h"

#include <QString>
#include <optional>

namespace lab {

// The lab writes storms of deductions, so it runs only where that harms nobody: a session
// labelled local or test, which includes the embedded demo (always local). The label is the
// one rule of profiles/Environment.h: an unlabelled server is local only when its host is
// written as loopback, else production. Staging and production (and a label this version
// cannot read) are refused, whether or not the session's writes are unlocked.
bool labAllowed(std::optional<profiles::Environment> environment);
// Why the lab refuses this session, in a sentence that says what to do instead; nullopt
// when it may run. `label` is the label as shown ("production", "staging", "qa?").
std::optional<QString> labRefusal(std::optional<profiles::Environment> environment,
                                  const QString &label);

} // namespace lab
