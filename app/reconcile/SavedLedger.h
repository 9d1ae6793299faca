// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "ledger/LedgerSpec.h"
#include "profiles/ConnectionProfile.h"

namespace reconcile {

// The ledger a profile remembers (profiles::LedgerSettings) as a spec to open, checked as the
// command line's --ledger, --ledger-query, --ledger-columns and --ledger-states are; the error
// names the field. The password is not part of it: the caller reads it from the keyring.
core::Result<ledger::LedgerSpec, QString> savedLedgerSpec(const profiles::LedgerSettings &saved);

} // namespace reconcile
