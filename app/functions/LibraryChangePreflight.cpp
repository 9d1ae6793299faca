// SPDX-License-Identifier: GPL-3.0-or-later
// Step 3 of a LibraryChange: the contract, the environment guard and, per node, ACL DRYRUN of
// every command the change and its backup will send, as the user that will send them.
#include "LibraryChange.h"

#include "ChangeLease.h"
#include "FunctionsLog.h"
#include "gate/WriteGate.h"
#include "session/ProbeReport.h"

#include <QPointer>

namespace functions {

namespace {

using Check = PreflightCheck;
using core::Sentence;

// The preflight's words: in LibraryChange's context, as its members' QT_TR_NOOP are.
Sentence preflightSaid(const char *source)
{
    return Sentence::translated("functions::LibraryChange", source);
}

QString commandText(const redis::Command &c)
{
    // "FUNCTION LOAD REPLACE": the verb, never the code or the dump.
    QStringList words;
    for (const QByteArray &a : c.mid(0, 3))
        if (a.size() <= 16 && !a.contains('\n'))
            words << QString::fromUtf8(a);
    return words.join(QLatin1Char(' '));
}

Check permissionCheck(const QString &user, const Sentence &label, const QString &command,
                      const redis::ReplyResult &reply)
{
    const session::PermissionCheck p = session::decodeDryRun(user, command, reply);
    using V = session::PermissionCheck::Verdict;
    if (p.verdict == V::Allowed)
        return Check{
            label, Check::State::Passed,
            preflightSaid(QT_TRANSLATE_NOOP("functions::LibraryChange", "user '%1' may run %2"))
                .arg(user, command)};
    if (p.verdict == V::Denied)
        return Check{label, Check::State::Failed,
                     preflightSaid(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                                     "user '%1' may not run %2: %3"))
                         .arg(user, command, p.detail)};
    return Check{label, Check::State::Warning,
                 preflightSaid(QT_TRANSLATE_NOOP("functions::LibraryChange",
                                                 "could not check (%1); the server still "
                                                 "refuses a command the user may not run"))
                     .arg(p.detail)};
}

} // namespace

PreflightCheck LibraryChange::contractCheck() const
{
    const Sentence label = preflightSaid(QT_TR_NOOP("Contract"));
    if (const core::Sentences refused = refusalSentences(); !refused.isEmpty())
        return Check{label, Check::State::Failed, core::joined(refused, QStringLiteral("\n"))};
    // Breaking is allowed after an acknowledgement, but it is never "passed": callers fail.
    const QString semicolon = QStringLiteral("; ");
    if (verdict() == Verdict::Breaking)
        return Check{
            label, Check::State::Warning,
            preflightSaid(QT_TR_NOOP("breaking (%1): %2; the confirmation asks for an "
                                     "acknowledgement"))
                .arg(m_spec.library,
                     Sentence{breakingReasons(core::Wording::English).join(semicolon),
                              breakingReasons(core::Wording::Translated).join(semicolon)})};
    return Check{label, Check::State::Passed,
                 preflightSaid(QT_TR_NOOP("%1 (%2)"))
                     .arg(Sentence{verdictName(verdict()),
                                   verdictWord(verdict(), core::Wording::Translated)},
                          m_spec.library)};
}

PreflightCheck LibraryChange::environmentCheck() const
{
    const gate::WriteGate *gate = m_context.gate;
    const QString env = gate ? gate->environment() : m_context.environment;
    const Sentence label = preflightSaid(QT_TR_NOOP("Environment"));
    if (!gate)
        return Check{label, Check::State::Failed,
                     preflightSaid(QT_TR_NOOP("no environment guard for this session"))};
    if (gate->isReadOnly()) // the guard's own words, English
        return Check{label, Check::State::Failed,
                     Sentence{gate->refusalMessage(core::Wording::English),
                              gate->refusalMessage(core::Wording::Translated)}};
    if (env == QLatin1String("production"))
        return Check{label, Check::State::Warning,
                     preflightSaid(QT_TR_NOOP("production, unlocked for this session"))};
    return Check{label, Check::State::Passed,
                 preflightSaid(QT_TR_NOOP("%1: writes allowed")).arg(env)};
}

QList<redis::Command> LibraryChange::dryRuns(qsizetype node, const redis::Command &change) const
{
    const QByteArray user = m_context.loadUser.toUtf8();
    // Fixed places: the dump, the change (a harmless stand-in when there is none), then
    // every command of the change lock.
    QList<redis::Command> commands{redis::Command{"ACL", "DRYRUN", user, "FUNCTION", "DUMP"},
                                   redis::Command{"ACL", "DRYRUN", user}
                                       + (change.isEmpty() ? redis::Command{"PING"} : change)};
    for (const redis::Command &l : ChangeLease::commandsFor(m_context.nodes.at(node)))
        commands << redis::Command{"ACL", "DRYRUN", user} + l;
    return commands;
}

// The change lock (ChangeLease.h): one line, or the first command refused.
PreflightCheck LibraryChange::lockPermission(qsizetype node,
                                             const QList<redis::ReplyResult> &replies) const
{
    const ChangeTarget &target = m_context.nodes.at(node);
    const QString address = m_states.at(node).address;
    const Sentence label = preflightSaid(QT_TR_NOOP("Change lock on %1")).arg(address);
    const QList<redis::Command> lock = ChangeLease::commandsFor(target);
    for (qsizetype k = 0; k < lock.size(); ++k) {
        const Check c =
            permissionCheck(m_context.loadUser, label,
                            QStringLiteral("%1 %2").arg(QString::fromUtf8(lock.at(k).first()),
                                                        QString::fromUtf8(target.lockKey)),
                            replyAt(replies, 2 + k));
        if (c.state != Check::State::Passed)
            return c;
    }
    return Check{label, Check::State::Passed,
                 preflightSaid(QT_TR_NOOP("user '%1' may take and give back the change lock "
                                          "(key %2)"))
                     .arg(m_context.loadUser, QString::fromUtf8(target.lockKey))};
}

QList<PreflightCheck>
LibraryChange::permissionChecks(qsizetype node, const redis::Command &change,
                                const QList<redis::ReplyResult> &replies) const
{
    const QString address = m_states.at(node).address;
    const Sentence label = preflightSaid(QT_TR_NOOP("Permission on %1")).arg(address);
    QList<PreflightCheck> checks;
    if (change.isEmpty())
        checks << Check{label, Check::State::Passed,
                        preflightSaid(QT_TR_NOOP("nothing to change on this node"))};
    else
        checks << permissionCheck(m_context.loadUser, label, commandText(change),
                                  replyAt(replies, 1));
    checks << permissionCheck(m_context.loadUser,
                              preflightSaid(QT_TR_NOOP("Backup on %1")).arg(address),
                              QStringLiteral("FUNCTION DUMP"), replyAt(replies, 0));
    checks << lockPermission(node, replies);
    return checks;
}

void LibraryChange::preflight(std::function<void(const PreflightReport &)> done)
{
    PreflightReport report;
    if (const Sentence why = stageSentence(Stage::StateRead); !why.isEmpty()) {
        report.checks << Check{preflightSaid(QT_TR_NOOP("Sequence")), Check::State::Failed, why};
        return done(report);
    }
    gate::WriteGate *gate = m_context.gate;
    if (gate && gate->claimedEnvironment() == profiles::Environment::Local
        && gate->evidence().checking()) {
        // The label is decided on the server's own answer: wait for it, then check.
        QPointer<LibraryChange> self(this);
        gate->readServer([self, done] {
            if (self)
                self->preflight(done);
        });
        return;
    }
    report.checks << contractCheck() << environmentCheck();

    // Per node, a dry run of the change and of the backup's FUNCTION DUMP, for the user
    // that will run them: a missing grant shows here, before anything is written.
    QList<QList<redis::Command>> perNode;
    QList<redis::Command> commands;
    for (qsizetype i = 0; i < m_states.size(); ++i) {
        commands << m_spec.command(m_states.at(i));
        perNode << dryRuns(i, commands.last());
    }
    onEveryNode(perNode, [this, report, commands, done](const Replies &replies) mutable {
        for (qsizetype i = 0; i < replies.size(); ++i)
            report.checks << permissionChecks(i, commands.at(i), replies.at(i));
        if (m_stage >= Stage::StateRead)
            m_stage = report.passed() ? Stage::PreflightPassed : Stage::StateRead;
        qCInfo(lcFunctions) << "preflight" << (report.passed() ? "passed" : "refused")
                            << report.refusal();
        done(report);
    });
}

} // namespace functions
