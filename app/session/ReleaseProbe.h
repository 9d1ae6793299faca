// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The second half of a connection test for a profile with a release user: log in as that
// user on a connection of its own, and dry-run, as that user, every command a library change
// sends (FUNCTION LIST, DUMP, LOAD, RESTORE). The session user often may not run ACL DRYRUN,
// so asking it about the release user says "unknown"; the release user can answer for itself.

#include "ProbeReport.h"

namespace session {

// ACL WHOAMI, the release user's dry runs, and the session user's FCALL and LOAD dry runs
// (which the session user itself often may not ask).
QList<redis::Command> releaseProbeCommands(const profiles::ConnectionProfile &profile);
// Records the login, replaces what the session user's dry runs said about the release user
// with the release user's own answers, and fills in the session user's "unknown" checks.
void applyReleaseProbe(ProbeReport &report, const profiles::ConnectionProfile &profile,
                       const QList<redis::ReplyResult> &replies);
// Records a failed login (the session's own checks stay).
void applyReleaseFailure(ProbeReport &report, const QString &releaseUser,
                         const ProbeFailure &failure);

} // namespace session
