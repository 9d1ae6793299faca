// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionProfile.h"
#include "core/Wording.h"

#include <QList>
#include <optional>

namespace profiles {

// The label of a server opened by URL (the console's --url, every inventory-cli verb's
// --url), given the saved profiles. A saved profile for the same server (same host and port,
// same user) lends its label: a URL does not make a production server anything less. A label
// given on the command line may raise it, never lower it (Production > Staging > Test >
// Local). Profiles do not record a server's run_id or cluster node id, so the match is by
// address and user.
struct UrlLabel
{
    QString environment;    // the label to set on the URL's profile; empty: none (the host's rule)
    QString savedProfile;   // the saved profile that lent or bounded it, if any
    core::Sentence refusal; // non-empty: the given label would lower the saved one; open nothing
};
UrlLabel labelForUrl(const ConnectionProfile &fromUrl, const std::optional<Environment> &given,
                     const QList<ConnectionProfile> &saved);

} // namespace profiles
