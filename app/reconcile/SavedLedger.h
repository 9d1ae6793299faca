// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "ledger/LedgerSpec.h"
#include "profiles/ConnectionProfile.h"

namespace reconcile {

// Which field of a ledger's settings is wrong, and why in the parser's words.
struct LedgerSettingsProblem
{
    enum class Field { Source, Query, Columns, States };
    Field field = Field::Source;
    core::Sentence why;
};

// Ledger settings (a profile's, or the Reconcile tab's fields) as a spec to open: the source,
// then the query or table, the columns and the states, checked in that order, as the command
// line's --ledger, --ledger-query, --ledger-table, --ledger-columns and --ledger-states are.
core::Result<ledger::LedgerSpec, LedgerSettingsProblem>
ledgerSpecOf(const profiles::LedgerSettings &settings);

// The ledger a profile remembers, as ledgerSpecOf() reads it, with an error that names the
// saved field. The password is not part of it: the caller reads it from the keyring.
core::Result<ledger::LedgerSpec, QString> savedLedgerSpec(const profiles::LedgerSettings &saved);

} // namespace reconcile
