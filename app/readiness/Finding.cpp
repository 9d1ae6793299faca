#include "Finding.h"

#include <QJsonArray>
#include <QJsonObject>

namespace readiness {

QString verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Pass:
        return QStringLiteral("pass");
    case Verdict::Warn:
        return QStringLiteral("warn");
    case Verdict::Fail:
        return QStringLiteral("fail");
    case Verdict::CouldNotCheck:
        break;
    }
    return QStringLiteral("could-not-check");
}

QString verdictLabel(Verdict v)
{
    return v == Verdict::CouldNotCheck ? QStringLiteral("COULD NOT CHECK")
                                       : verdictName(v).toUpper();
}

QString Finding::evidenceText() const
{
    QStringList parts;
    for (const auto &[name, value] : evidence)
        parts << QStringLiteral("%1 = %2").arg(name, value);
    return parts.join(QStringLiteral("; "));
}

QJsonObject Finding::toJson() const
{
    QJsonObject values;
    for (const auto &[name, value] : evidence)
        values.insert(name, value);
    return {{QStringLiteral("id"), id},
            {QStringLiteral("title"), title},
            {QStringLiteral("verdict"), verdictName(verdict)},
            {QStringLiteral("why"), why},
            {QStringLiteral("evidence"), values}};
}

AuditExit auditExit(const QList<Finding> &findings)
{
    bool warn = false, fail = false, unknown = false;
    for (const Finding &f : findings) {
        warn |= f.verdict == Verdict::Warn;
        fail |= f.verdict == Verdict::Fail;
        unknown |= f.verdict == Verdict::CouldNotCheck;
    }
    if (fail)
        return AuditFailures;
    if (unknown)
        return AuditIncomplete;
    return warn ? AuditWarnings : AuditPassed;
}

QString auditExitSentence(AuditExit e)
{
    switch (e) {
    case AuditPassed:
        return QStringLiteral("Ready: every rule passed.");
    case AuditWarnings:
        return QStringLiteral("Ready with warnings: read each warning before the release.");
    case AuditFailures:
        return QStringLiteral("Not ready: fix the failed rules before the release.");
    case AuditIncomplete:
        break;
    }
    return QStringLiteral("Incomplete: some rules could not be checked; give the audit the "
                          "permissions they name, then run it again.");
}

} // namespace readiness
