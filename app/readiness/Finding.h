// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>

class QJsonObject;

namespace readiness {

// What one readiness rule concluded. CouldNotCheck is never a pass: the audit could not read
// what the rule needs (a refused CONFIG or ACL, no scan, a node that did not answer).
enum class Verdict { Pass, Warn, Fail, CouldNotCheck };
QString verdictName(Verdict v);  // pass | warn | fail | could-not-check
QString verdictLabel(Verdict v); // PASS | WARN | FAIL | COULD NOT CHECK
// Pass 0, warn 1, could not check 2, fail 3: how auditExit() ranks them, and which verdict
// stands when a rule is checked on every primary.
int severity(Verdict v);

// One rule's result: `why` is one sentence that says why and what to do, readable without
// the evidence; `evidence` holds the values read, as name/value pairs ("maxmemory-policy",
// "allkeys-lru").
struct Finding
{
    QString id;    // stable, for scripts: "eviction-policy"
    QString title; // "Eviction policy"
    Verdict verdict = Verdict::CouldNotCheck;
    QString why;
    QList<QPair<QString, QString>> evidence;

    QString evidenceText() const; // "maxmemory-policy = allkeys-lru; maxmemory = 0"
    QJsonObject toJson() const;
};

// The audit's overall result, as `inventory-cli audit` exits: 0 every rule passed, 1 some
// warned, 2 some failed, 3 some could not be checked. A failure outranks a rule that could
// not be checked (the release is blocked either way, and the failure says what to fix);
// could-not-check outranks warnings (the audit is incomplete, so no "only warnings").
enum AuditExit { AuditPassed = 0, AuditWarnings = 1, AuditFailures = 2, AuditIncomplete = 3 };
AuditExit auditExit(const QList<Finding> &findings);
QString auditExitSentence(AuditExit e); // "2 rules failed" style headline, see .cpp

} // namespace readiness
