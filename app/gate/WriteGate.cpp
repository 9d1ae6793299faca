// SPDX-License-Identifier: GPL-3.0-or-later
// WriteGate: the session's label, and which batches may go out. The proof it rests on is read
// in WriteGateEvidence.cpp; unlocking and locking again are in WriteGateUnlock.cpp.
#include "WriteGate.h"

#include "GateLog.h"
#include "inventory/AuditLog.h"
#include "redis/ClusterRouter.h"
#include "redis/RedisClient.h"

#include <QPointer>
#include <QThread>
#include <QTimer>

namespace gate {

WriteGate::WriteGate(redis::CommandSender &server, const profiles::ConnectionProfile &profile,
                     QObject *parent)
    : QObject(parent)
    , m_server(server)
    , m_profileName(profile.name)
    , m_label(profile.environmentLabel())
    , m_claimed(profile.environmentKind().value_or(profiles::Environment::Production))
    , m_auditLogPath(inventory::AuditLog::defaultPath())
    , m_idle(new QTimer(this))
{
    m_idle->setSingleShot(true);
    connect(m_idle, &QTimer::timeout, this, [this] {
        lock(core::Sentence::translated("gate::WriteGate",
                                        QT_TRANSLATE_NOOP("gate::WriteGate",
                                                          "locked again: no write for %1 minutes "
                                                          "since the unlock or the last write"))
                 .arg(QString::number(m_idleTimeoutMs / 60000.0, 'g', 3)));
    });
    if (auto *router = dynamic_cast<redis::ClusterRouter *>(&server))
        m_seed = &router->seed();
    else
        m_seed = dynamic_cast<redis::RedisClient *>(&server);
    if (m_seed)
        connect(m_seed, &redis::RedisClient::stateChanged, this,
                [this](redis::ConnectionState state) { onSeedState(int(state)); });
    if (m_claimed == profiles::Environment::Local)
        qCInfo(lcGate) << "session on profile" << m_profileName
                       << "claims local: writes wait for the proof";
    else if (isReadOnly())
        qCInfo(lcGate) << "session on" << environment() << "profile" << m_profileName
                       << "starts read-only";
}

WriteGate::~WriteGate() = default;

profiles::Environment WriteGate::environmentKind() const
{
    return effectiveEnvironment(m_claimed, m_evidence);
}

QString WriteGate::environment() const
{
    // A label this version cannot read is shown as written (and acted on as production).
    if (m_claimed == profiles::Environment::Production
        && profiles::parseEnvironment(m_label) != m_claimed)
        return m_label;
    return profiles::environmentName(environmentKind());
}

QString WriteGate::environmentReason(core::Wording wording) const
{
    if (m_claimed == profiles::Environment::Local)
        return m_evidence.reason.in(wording);
    return core::word(wording, "gate::WriteGate",
                      QT_TRANSLATE_NOOP("gate::WriteGate", "%1: the label of profile '%2'"))
        .arg(m_label, m_profileName);
}

bool WriteGate::isReadOnly() const
{
    return environmentKind() == profiles::Environment::Production && !m_unlocked;
}

bool WriteGate::needsNodeProof() const
{
    return m_claimed == profiles::Environment::Local && !m_unlocked;
}

bool WriteGate::passesEverything() const
{
    if (isReadOnly())
        return false;
    if (!needsNodeProof())
        return true;
    auto *router = dynamic_cast<redis::ClusterRouter *>(&m_server);
    return !router || (router->discovered() && !router->isCluster());
}

QString WriteGate::refusalMessage(core::Wording wording) const
{
    const auto say = [wording](const char *source) {
        return core::word(wording, "gate::WriteGate", source);
    };
    if (m_claimed == profiles::Environment::Local && !m_evidence.proven())
        return say(QT_TRANSLATE_NOOP("gate::WriteGate",
                                     "read-only session on profile '%1' (%2): unlock it (type "
                                     "the profile name) to allow writes"))
            .arg(m_profileName, m_evidence.reason.in(wording));
    return say(QT_TRANSLATE_NOOP("gate::WriteGate",
                                 "read-only session on %1 profile '%2': unlock it (type the "
                                 "profile name) to allow writes"))
        .arg(environment(), m_profileName);
}

std::optional<redis::RedisError>
WriteGate::writeRefusal(const QList<redis::Command> &commands,
                        const QList<WriteDecision> &decisions) const
{
    using redis::RedisError;
    const bool writes =
        std::any_of(decisions.cbegin(), decisions.cend(), [](const auto &d) { return d.writes; });
    if (!writes)
        return std::nullopt;
    if (isReadOnly())
        return RedisError::notSent(refusal(), RedisError::Refusal::GateRefused);
    if (!needsNodeProof())
        return std::nullopt;
    auto *router = dynamic_cast<redis::ClusterRouter *>(&m_server);
    if (router && !router->discovered())
        return RedisError::notSent(core::Sentence::translated(
            "gate::WriteGate",
            QT_TRANSLATE_NOOP("gate::WriteGate",
                              "not sent: which nodes this local session would write to is not "
                              "known yet (the cluster's topology is being read); try again")));
    for (int index : writeTargets(commands, decisions)) {
        const LocalEvidence e = nodeEvidence(index);
        if (!e.proven())
            return RedisError::notSent(
                core::Sentence::translated(
                    "gate::WriteGate",
                    QT_TRANSLATE_NOOP("gate::WriteGate",
                                      "node %1 is production to this local session (%2): unlock "
                                      "it (type the profile name '%3') to write there"))
                    .arg(router->node(index).address(), e.reason, m_profileName),
                RedisError::Refusal::GateRefused);
    }
    return std::nullopt;
}

std::optional<QList<WriteDecision>>
WriteGate::classifyCached(const QList<redis::Command> &commands) const
{
    QList<WriteDecision> out;
    for (const redis::Command &c : commands) {
        auto d = m_traits.decideCached(c);
        if (!d)
            return std::nullopt;
        out << *d;
    }
    if (std::none_of(out.cbegin(), out.cend(), [](const auto &d) { return d.writes; }))
        return out;
    // A write is decided on proof, never on a guess: wait for what is still being read.
    if (m_claimed == profiles::Environment::Local && m_evidence.checking())
        return std::nullopt;
    for (int index : writeTargets(commands, out))
        if (nodeEvidence(index).checking())
            return std::nullopt;
    return out;
}

QList<WriteDecision> WriteGate::classifyAfterLookup(const QList<redis::Command> &commands,
                                                    const QString &lookupFailure) const
{
    QList<WriteDecision> out;
    for (const redis::Command &c : commands)
        out << m_traits.decideAfterLookup(c, lookupFailure);
    return out;
}

void WriteGate::fetchTraits(const QList<redis::Command> &commands,
                            std::function<void(QString)> done)
{
    const QList<QByteArray> names = m_traits.missingCommandInfo(commands);
    const bool functions = m_traits.needsFunctionList(commands);
    QList<redis::Command> lookups;
    if (!names.isEmpty()) {
        redis::Command info{"COMMAND", "INFO"};
        info << names;
        lookups << info;
    }
    if (functions)
        lookups << redis::Command{"FUNCTION", "LIST"};
    if (lookups.isEmpty())
        return done({});
    m_server.sendBatch(lookups, this, [this, names, functions, done](const auto &r) {
        QStringList failures;
        qsizetype i = 0;
        if (!names.isEmpty()) {
            if (r[i].ok())
                m_traits.addCommandInfo(names, r[i].value());
            else
                failures << QStringLiteral("COMMAND INFO: %1").arg(r[i].error().message.english);
            ++i;
        }
        if (functions) {
            if (r[i].ok()) {
                auto libs = redis::decodeFunctionList(r[i].value());
                if (libs.ok())
                    m_traits.setFunctions(libs.value());
                else
                    failures << QStringLiteral("FUNCTION LIST: %1").arg(libs.error().english);
            } else {
                failures << QStringLiteral("FUNCTION LIST: %1").arg(r[i].error().message.english);
            }
        }
        if (!failures.isEmpty())
            qCInfo(lcGate) << "write gate lookups failed:" << failures;
        done(failures.join(QStringLiteral("; ")));
    });
}

void WriteGate::fetchMissing(const QList<redis::Command> &commands, QObject *context,
                             std::function<void(const QString &)> done)
{
    QPointer<QObject> guard(context);
    fetchTraits(commands, [this, commands, guard, done](const QString &failure) {
        // Always asynchronous, on the context's thread.
        const auto finish = [guard, done, failure] {
            if (guard)
                QMetaObject::invokeMethod(
                    guard.data(), [done, failure] { done(failure); }, Qt::QueuedConnection);
        };
        const QList<WriteDecision> decisions = classifyAfterLookup(commands, failure);
        if (std::none_of(decisions.cbegin(), decisions.cend(),
                         [](const auto &d) { return d.writes; }))
            return finish();
        const auto nodes = [this, commands, decisions, finish] {
            QList<int> missing;
            for (int index : writeTargets(commands, decisions))
                if (nodeEvidence(index).checking())
                    missing << index;
            readNodes(missing, finish);
        };
        if (m_claimed == profiles::Environment::Local && m_evidence.checking())
            readServer(nodes);
        else
            nodes();
    });
}

void WriteGate::classify(const QList<redis::Command> &commands, QObject *context,
                         std::function<void(const QList<WriteDecision> &)> done)
{
    if (auto cached = classifyCached(commands)) {
        QTimer::singleShot(0, context, [done, d = *cached] { done(d); });
        return;
    }
    QPointer<WriteGate> self(this);
    fetchMissing(commands, context, [self, commands, done](const QString &failure) {
        if (self)
            done(self->classifyAfterLookup(commands, failure));
    });
}

void WriteGate::noteSent(const QList<redis::Command> &commands)
{
    bool maybeWrites = false;
    for (const redis::Command &c : commands) {
        if (CommandTraits::changesFunctions(c))
            m_traits.forgetFunctions();
        const auto d = m_traits.decideCached(c);
        maybeWrites = maybeWrites || !d || d->writes;
    }
    if (maybeWrites)
        touchIdle();
}

} // namespace gate
