// SPDX-License-Identifier: GPL-3.0-or-later
#include "Finding.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace readiness {

namespace {
// The headline the Readiness tab shows is translated there; the CLI prints the English.
struct FindingText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::Finding)
};
} // namespace

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
    switch (v) {
    case Verdict::Pass:
        return FindingText::tr("PASS");
    case Verdict::Warn:
        return FindingText::tr("WARN");
    case Verdict::Fail:
        return FindingText::tr("FAIL");
    case Verdict::CouldNotCheck:
        break;
    }
    return FindingText::tr("COULD NOT CHECK");
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
        return FindingText::tr("Ready: every rule passed.");
    case AuditWarnings:
        return FindingText::tr("Ready with warnings: read each warning before the release.");
    case AuditFailures:
        return FindingText::tr("Not ready: fix the failed rules before the release.");
    case AuditIncomplete:
        break;
    }
    return FindingText::tr("Incomplete: some rules could not be checked; give the audit the "
                           "permissions they name, then run it again.");
}

} // namespace readiness
