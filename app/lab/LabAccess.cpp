// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabAccess.h"

namespace lab {

bool labAllowed(std::optional<profiles::Environment> environment)
{
    return environment
           && (*environment == profiles::Environment::Local
               || *environment == profiles::Environment::Test);
}

std::optional<QString> labRefusal(std::optional<profiles::Environment> environment,
                                  const QString &label)
{
    if (labAllowed(environment))
        return std::nullopt;
    return QStringLiteral(
               "the lab runs storms of writes, so it runs only on servers labelled local or "
               "test (and the demo); this one is labelled %1. Run it against a throwaway test "
               "server (label it test, or use the demo)")
        .arg(label.isEmpty() ? QStringLiteral("production") : label);
}

} // namespace lab
