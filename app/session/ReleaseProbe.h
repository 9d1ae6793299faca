#pragma once

// The second half of a connection test for a profile with a release user: log in as that
// user on a connection of its own, and dry-run, as that user, every command a library change
// sends (FUNCTION LIST, DUMP, LOAD, RESTORE). The session user often may not run ACL DRYRUN,
// so asking it about the release user says "unknown"; the release user can answer for itself.

#include "ProbeReport.h"

namespace session {

QList<redis::Command> releaseProbeCommands(const QString &releaseUser);
// Records the login and replaces what the session user's dry runs said about the release
// user with the release user's own answers.
void applyReleaseProbe(ProbeReport &report, const QString &releaseUser,
                       const QList<redis::ReplyResult> &replies);
// Records a failed login (the session's own checks stay).
void applyReleaseFailure(ProbeReport &report, const QString &releaseUser,
                         const ProbeFailure &failure);

} // namespace session
