// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabAccess.h"

#include <QCoreApplication>

namespace lab {

namespace {
// Why the lab is refused, in the window's language (the Lab tab's banner); the CLI loads no
// translator and prints the English.
struct LabAccessText
{
    Q_DECLARE_TR_FUNCTIONS(lab::LabAccess)
};
} // namespace

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
    return LabAccessText::tr(
               "the lab runs storms of writes, so it runs only on servers labelled local or "
               "test (and the demo); this one is labelled %1. Run it against a throwaway test "
               "server (label it test, or use the demo)")
        .arg(label.isEmpty() ? QStringLiteral("production") : label);
}

} // namespace lab
