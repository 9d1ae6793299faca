// SPDX-License-Identifier: GPL-3.0-or-later
#include "SavedLedger.h"

namespace reconcile {

core::Result<ledger::LedgerSpec, QString> savedLedgerSpec(const profiles::LedgerSettings &saved)
{
    if (!saved.enabled())
        return core::err(QStringLiteral("no ledger is saved in this profile"));
    auto spec = ledger::LedgerSpec::parse(saved.source.trimmed());
    if (!spec)
        return core::err(QStringLiteral("the saved ledger: %1").arg(spec.error()));
    ledger::LedgerSpec s = spec.value();
    s.query = saved.query.trimmed();
    s.table = saved.table.trimmed();
    const auto columns = ledger::Columns::parse(saved.columns.trimmed());
    if (!columns)
        return core::err(QStringLiteral("the saved ledger's columns: %1").arg(columns.error()));
    s.columns = columns.value();
    const auto states = ledger::StateMap::parse(saved.states.trimmed());
    if (!states)
        return core::err(QStringLiteral("the saved ledger's states: %1").arg(states.error()));
    s.states = states.value();
    if (const auto problem = s.problem())
        return core::err(QStringLiteral("the saved ledger: %1").arg(*problem));
    return s;
}

} // namespace reconcile
