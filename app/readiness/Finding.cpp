// SPDX-License-Identifier: GPL-3.0-or-later
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

int severity(Verdict v)
{
    switch (v) {
    case Verdict::Pass:
        return 0;
    case Verdict::Warn:
        return 1;
    case Verdict::CouldNotCheck:
        return 2;
    case Verdict::Fail:
        return 3;
    }
    return 3;
}

AuditExit auditExit(const QList<Finding> &findings)
{
    Verdict worst = Verdict::Pass;
    for (const Finding &f : findings)
        if (severity(f.verdict) > severity(worst))
            worst = f.verdict;
    switch (worst) {
    case Verdict::Pass:
        return AuditPassed;
    case Verdict::Warn:
        return AuditWarnings;
    case Verdict::CouldNotCheck:
        return AuditIncomplete;
    case Verdict::Fail:
        break;
    }
    return AuditFailures;
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
