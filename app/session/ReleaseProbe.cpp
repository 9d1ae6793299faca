#include "ReleaseProbe.h"

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

QList<redis::Command> releaseProbeCommands(const QString &releaseUser)
{
    QList<redis::Command> out{{"ACL", "WHOAMI"}};
    for (const DryRun &d : dryRuns())
        out << redis::Command{"ACL", "DRYRUN", releaseUser.toUtf8()} + d.command;
    return out;
}

void applyReleaseProbe(ProbeReport &report, const QString &releaseUser,
                       const QList<redis::ReplyResult> &replies)
{
    report.release = ReleaseLogin{true, true, releaseUser, {}};
    const redis::ReplyResult whoami = replies.value(0, redis::RedisError::notSent({}));
    if (whoami.ok() && whoami->isString() && QString::fromUtf8(whoami->bytes()) != releaseUser) {
        report.release.ok = false;
        report.release.failure = QStringLiteral("the server says the connection is user '%1'")
                                     .arg(QString::fromUtf8(whoami->bytes()));
    }
    report.permissions.removeIf([&](const PermissionCheck &c) { return c.user == releaseUser; });
    for (qsizetype i = 0; i < dryRuns().size(); ++i)
        report.permissions << decodeDryRun(
            releaseUser, QLatin1String(dryRuns().at(i).action),
            replies.value(i + 1, redis::RedisError::notSent(QStringLiteral("no reply"))));
}

void applyReleaseFailure(ProbeReport &report, const QString &releaseUser,
                         const ProbeFailure &failure)
{
    report.release =
        ReleaseLogin{true, false, releaseUser,
                     QStringLiteral("%1 (%2)").arg(failureHeadline(failure.kind), failure.message)};
}

} // namespace session
