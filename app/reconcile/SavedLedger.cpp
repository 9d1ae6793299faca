// SPDX-License-Identifier: GPL-3.0-or-later
#include "SavedLedger.h"

namespace reconcile {

core::Result<ledger::LedgerSpec, LedgerSettingsProblem>
ledgerSpecOf(const profiles::LedgerSettings &settings)
{
    using Field = LedgerSettingsProblem::Field;
    auto spec = ledger::LedgerSpec::parse(settings.source.trimmed());
    if (!spec)
        return core::err(LedgerSettingsProblem{Field::Source, spec.error()});
    ledger::LedgerSpec s = spec.value();
    s.query = settings.query.trimmed();
    s.table = settings.table.trimmed();
    if (const auto problem = s.problem())
        return core::err(LedgerSettingsProblem{Field::Query, *problem});
    const auto columns = ledger::Columns::parse(settings.columns.trimmed());
    if (!columns)
        return core::err(LedgerSettingsProblem{Field::Columns, columns.error()});
    s.columns = columns.value();
    const auto states = ledger::StateMap::parse(settings.states.trimmed());
    if (!states)
        return core::err(LedgerSettingsProblem{Field::States, states.error()});
    s.states = states.value();
    return s;
}

core::Result<ledger::LedgerSpec, QString> savedLedgerSpec(const profiles::LedgerSettings &saved)
{
    if (!saved.enabled())
        return core::err(QStringLiteral("no ledger is saved in this profile"));
    auto spec = ledgerSpecOf(saved);
    if (spec)
        return spec.value();
    using Field = LedgerSettingsProblem::Field;
    const LedgerSettingsProblem &p = spec.error();
    const QString where = p.field == Field::Columns  ? QStringLiteral("the saved ledger's columns")
                          : p.field == Field::States ? QStringLiteral("the saved ledger's states")
                                                     : QStringLiteral("the saved ledger");
    return core::err(QStringLiteral("%1: %2").arg(where, p.why.english));
}

} // namespace reconcile
