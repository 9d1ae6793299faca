// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReleaseProbe.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>

namespace session {

namespace {

struct DryRun
{
    const char *action;
    QList<QByteArray> command;
};
// What a library change sends, in the order of its steps.
const QList<DryRun> &dryRuns()
{
    static const QList<DryRun> runs{
        {"read function libraries (FUNCTION LIST)", {"FUNCTION", "LIST", "WITHCODE"}},
        {"back up function libraries (FUNCTION DUMP)", {"FUNCTION", "DUMP"}},
        {"load function libraries", {"FUNCTION", "LOAD", "REPLACE", "x"}},
        {"roll back a dump (FUNCTION RESTORE)", {"FUNCTION", "RESTORE", "x", "REPLACE"}},
    };
    return runs;
}
} // namespace

QList<redis::Command> releaseProbeCommands(const profiles::ConnectionProfile &profile)
{
    QList<redis::Command> out{{"ACL", "WHOAMI"}};
    for (const DryRun &d : dryRuns())
        out << redis::Command{"ACL", "DRYRUN", profile.releaseUsername.toUtf8()} + d.command;
    out << callDryRun(profile, profile.effectiveUsername());
    out << loadDryRun(profile.effectiveUsername());
    return out;
}

void applyReleaseProbe(ProbeReport &report, const profiles::ConnectionProfile &profile,
                       const QList<redis::ReplyResult> &replies)
{
    const QString releaseUser = profile.releaseUsername;
    const auto reply = [&replies](qsizetype i) {
        return replies.value(i, redis::RedisError::notSent(redis::RedisError::noReply()));
    };
    report.release = ReleaseLogin{true, true, releaseUser, {}};
    const redis::ReplyResult whoami = reply(0);
    const auto name = redis::stringOf(whoami);
    if (name && QString::fromUtf8(*name) != releaseUser) {
        report.release.ok = false;
        report.release.failure =
            core::Sentence::translated("session::ProbeReport",
                                       QT_TRANSLATE_NOOP("session::ProbeReport",
                                                         "the server says the connection is "
                                                         "user '%1'"))
                .arg(QString::fromUtf8(*name));
    }
    using V = PermissionCheck::Verdict;
    const QString sessionUser = profile.effectiveUsername();
    const QList<PermissionCheck> answers{
        decodeDryRun(sessionUser, callAction(), reply(dryRuns().size() + 1)),
        decodeDryRun(sessionUser, loadAction(), reply(dryRuns().size() + 2))};
    for (PermissionCheck &c : report.permissions)
        for (const PermissionCheck &a : answers)
            if (c.user == sessionUser && c.action == a.action && c.verdict == V::Unknown
                && a.verdict != V::Unknown)
                c = a; // answered by the release user's connection
    if (releaseUser != sessionUser)
        report.permissions.removeIf(
            [&](const PermissionCheck &c) { return c.user == releaseUser; });
    for (qsizetype i = 0; i < dryRuns().size(); ++i)
        report.permissions << decodeDryRun(releaseUser, QLatin1String(dryRuns().at(i).action),
                                           reply(i + 1));
}

void applyReleaseFailure(ProbeReport &report, const QString &releaseUser,
                         const ProbeFailure &failure)
{
    const core::Sentence headline{englishFailureHeadline(failure.kind),
                                  failureHeadline(failure.kind)};
    report.release = ReleaseLogin{
        true, false, releaseUser,
        core::Sentence::plain(QStringLiteral("%1 (%2)")).arg(headline, failure.message)};
}

} // namespace session
