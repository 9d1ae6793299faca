// SPDX-License-Identifier: GPL-3.0-or-later
#include "SavedLabel.h"

namespace profiles {

namespace {

bool sameServer(const ConnectionProfile &a, const ConnectionProfile &b)
{
    return a.host.trimmed().compare(b.host.trimmed(), Qt::CaseInsensitive) == 0 && a.port == b.port
           && a.effectiveUsername() == b.effectiveUsername();
}

} // namespace

UrlLabel labelForUrl(const ConnectionProfile &fromUrl, const std::optional<Environment> &given,
                     const QList<ConnectionProfile> &saved)
{
    UrlLabel out;
    std::optional<Environment> highest;
    for (const ConnectionProfile &p : saved) {
        if (!p.isLabelled() || !sameServer(p, fromUrl))
            continue;
        // A label this version cannot read counts as production (fail safe).
        const Environment env = p.environmentKind().value_or(Environment::Production);
        if (!highest || env > *highest) {
            highest = env;
            out.savedProfile = p.name;
        }
    }
    if (given && highest && *given < *highest) {
        out.refusal =
            core::Sentence::translated(
                "profiles::SavedLabel",
                QT_TRANSLATE_NOOP("profiles::SavedLabel",
                                  "the label %1 would lower the server's saved label: profile "
                                  "'%2' labels %3:%4 %5. Open that profile, or change its label "
                                  "in the connection dialog"))
                .arg(environmentName(*given), out.savedProfile, fromUrl.host,
                     QString::number(fromUrl.port), environmentName(*highest));
        return out;
    }
    if (given)
        out.environment = environmentName(*given);
    else if (highest)
        out.environment = environmentName(*highest);
    return out;
}

} // namespace profiles
