// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelResolver.h"

#include "redis/Blocking.h"
#include "redis/RedisClient.h"

#include <algorithm>

namespace sentinel {

namespace {
// The resolver's words, in its context for lupdate and the translator.
core::Sentence resolverSaid(const char *source)
{
    return core::Sentence::translated("sentinel::SentinelResolver", source);
}
} // namespace

// Not a member of the resolver: each source names the resolver's context for lupdate.
core::Sentence SentinelAnswer::toString(const QString &masterName) const
{
    const QString who = sentinel.toString();
    switch (kind) {
    case Kind::Named:
        return resolverSaid(QT_TRANSLATE_NOOP("sentinel::SentinelResolver",
                                              "%1 names %2 as the primary of '%3'"))
            .arg(who, named.toString(), masterName);
    case Kind::Unknown:
        return resolverSaid(QT_TRANSLATE_NOOP("sentinel::SentinelResolver",
                                              "%1 does not know the master '%2'"))
            .arg(who, masterName);
    case Kind::Unreachable:
        return resolverSaid(QT_TRANSLATE_NOOP("sentinel::SentinelResolver", "%1 unreachable (%2)"))
            .arg(who, detail);
    case Kind::AuthRefused:
        return resolverSaid(QT_TRANSLATE_NOOP("sentinel::SentinelResolver",
                                              "%1 refused the sentinel credentials (%2)"))
            .arg(who, detail);
    case Kind::Refused:
        return resolverSaid(
                   QT_TRANSLATE_NOOP("sentinel::SentinelResolver", "%1 answered an error (%2)"))
            .arg(who, detail);
    }
    return core::Sentence::plain(who);
}

SentinelResolver::SentinelResolver(ResolverConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
    qRegisterMetaType<sentinel::Resolution>();
    qRegisterMetaType<sentinel::ResolveError>();
    qRegisterMetaType<sentinel::NodeAddress>();
}

void SentinelResolver::roundTrip(const NodeAddress &node, redis::ConnectionOptions options,
                                 redis::Command command, std::function<void(const Step &)> done)
{
    options.host = node.host;
    options.port = node.port;
    options.autoReconnect = false;
    auto *client = new redis::RedisClient(options, this);
    auto settled = std::make_shared<bool>(false);
    const quint64 generation = m_generation;
    auto finish = [this, client, settled, generation, done](const Step &step) {
        if (*settled)
            return;
        *settled = true;
        client->deleteLater();
        if (generation == m_generation)
            done(step);
    };
    // Sent once the connection is ready, so that a refused connection is told from a
    // refused command by its code (ConnectFailure), not by the words of a message.
    connect(client, &redis::RedisClient::stateChanged, this,
            [client, finish, command](redis::ConnectionState state) {
                if (state == redis::ConnectionState::Ready) {
                    client->send(command, client, [finish](const redis::ReplyResult &r) {
                        finish(Step{redis::ConnectFailure::None, {}, r});
                    });
                } else if (state == redis::ConnectionState::Failed
                           || state == redis::ConnectionState::Closed) {
                    const auto failure = client->failure() == redis::ConnectFailure::None
                                             ? redis::ConnectFailure::Other
                                             : client->failure();
                    finish(Step{failure, client->stateDetail(), std::nullopt});
                }
            });
    client->open();
}

void SentinelResolver::resolve()
{
    ++m_generation;
    m_answers = QList<SentinelAnswer>(m_config.sentinels.size());
    m_candidates.clear();
    m_confirmed.clear();
    m_refuted.clear();
    m_epochs.clear();
    m_sawReplica = false;
    m_pending = m_config.sentinels.size();
    if (m_pending == 0) {
        finishFailed();
        return;
    }
    // All at once: a sentinel that is down costs its connect timeout once, not once per
    // sentinel after it.
    for (qsizetype i = 0; i < m_config.sentinels.size(); ++i)
        askSentinel(i);
}

redis::ConnectionOptions SentinelResolver::sentinelConnection() const
{
    redis::ConnectionOptions options = m_config.sentinelOptions;
    options.database = 0; // a sentinel has no databases
    return options;
}

SentinelAnswer SentinelResolver::answerFrom(const NodeAddress &sentinel, const Step &step) const
{
    SentinelAnswer a{sentinel, SentinelAnswer::Kind::Unreachable, {}, step.why};
    using F = redis::ConnectFailure;
    if (!step.reply) {
        if (step.connectFailure == F::Authentication || step.connectFailure == F::PasswordRequired)
            a.kind = SentinelAnswer::Kind::AuthRefused;
        return a;
    }
    const redis::ReplyResult &r = *step.reply;
    if (!r.ok()) {
        const redis::RedisError &e = r.error();
        a.detail = e.readFailure();
        if (e.isServer("NOAUTH") || e.isServer("WRONGPASS") || e.isServer("NOPERM"))
            a.kind = SentinelAnswer::Kind::AuthRefused;
        else if (e.delivery == redis::RedisError::Delivery::Answered)
            a.kind = SentinelAnswer::Kind::Refused;
        return a;
    }
    const auto named = decodeMasterAddress(r.value());
    if (!named.ok()) {
        a.kind = SentinelAnswer::Kind::Refused;
        a.detail = named.error().message;
    } else if (!named.value()) {
        a.kind = SentinelAnswer::Kind::Unknown;
        a.detail = {};
    } else {
        a.kind = SentinelAnswer::Kind::Named;
        a.named = *named.value();
        a.detail = {};
    }
    return a;
}

void SentinelResolver::askSentinel(qsizetype index)
{
    const redis::ConnectionOptions options = sentinelConnection();
    const NodeAddress sentinel = m_config.sentinels.at(index);
    roundTrip(sentinel, options,
              {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", m_config.masterName.toUtf8()},
              [this, index, sentinel](const Step &step) {
                  m_answers[index] = answerFrom(sentinel, step);
                  if (--m_pending > 0)
                      return;
                  for (const SentinelAnswer &a : std::as_const(m_answers))
                      if (a.kind == SentinelAnswer::Kind::Named && !m_candidates.contains(a.named))
                          m_candidates << a.named;
                  confirm(0);
              });
}

// ROLE on each node named, one after the other.
void SentinelResolver::confirm(qsizetype candidate)
{
    if (candidate >= m_candidates.size()) {
        settle();
        return;
    }
    const NodeAddress named = m_candidates.at(candidate);
    roundTrip(named, m_config.dataOptions, {"ROLE"}, [this, candidate, named](const Step &step) {
        core::Sentence why = step.why;
        if (step.reply && step.reply->ok()) {
            const auto role = decodeRole(step.reply->value());
            if (role.ok() && role->kind == NodeRole::Kind::Primary) {
                m_confirmed << named;
                confirm(candidate + 1);
                return;
            }
            if (role.ok() && role->kind == NodeRole::Kind::Replica) {
                m_sawReplica = true;
                why = resolverSaid(QT_TR_NOOP("ROLE says it is a replica of %1"))
                          .arg(role->follows.toString());
            } else {
                why = role.ok() ? resolverSaid(QT_TR_NOOP("ROLE says it is a sentinel"))
                                : resolverSaid(QT_TR_NOOP("ROLE could not be read: %1"))
                                      .arg(role.error().message);
            }
        } else if (step.reply) {
            why = resolverSaid(QT_TR_NOOP("ROLE could not be read: %1"))
                      .arg(step.reply->error().readFailure());
        } else {
            why = resolverSaid(QT_TR_NOOP("could not connect: %1")).arg(step.why);
        }
        m_refuted << qMakePair(named, why);
        confirm(candidate + 1);
    });
}

NodeAddress SentinelResolver::firstToName(const NodeAddress &node) const
{
    for (const SentinelAnswer &a : m_answers)
        if (a.kind == SentinelAnswer::Kind::Named && a.named == node)
            return a.sentinel;
    return {};
}

void SentinelResolver::settle()
{
    if (m_confirmed.isEmpty())
        finishFailed();
    else if (m_confirmed.size() == 1)
        emit resolved(Resolution{m_confirmed.first(), firstToName(m_confirmed.first()), m_answers});
    else
        readEpochs();
}

// Two nodes named both say master: the old primary of a failover not yet demoted. Whichever
// the sentinels with the newest configuration name is the primary.
void SentinelResolver::readEpochs()
{
    const redis::ConnectionOptions options = sentinelConnection();
    for (const SentinelAnswer &a : std::as_const(m_answers))
        if (a.kind == SentinelAnswer::Kind::Named)
            m_epochs << EpochReading{a.sentinel, std::nullopt, {}};
    m_pending = m_epochs.size();
    for (qsizetype i = 0; i < m_epochs.size(); ++i)
        roundTrip(
            m_epochs.at(i).sentinel, options, {"SENTINEL", "MASTER", m_config.masterName.toUtf8()},
            [this, i](const Step &step) {
                EpochReading &reading = m_epochs[i];
                if (!step.reply)
                    reading.why = step.why;
                else if (!step.reply->ok())
                    reading.why = step.reply->error().readFailure();
                else if (const auto state = decodeMasterState(step.reply->value()); state.ok())
                    reading.state = state.value();
                else
                    reading.why = state.error().message;
                if (--m_pending == 0)
                    chooseByEpoch();
            });
}

void SentinelResolver::chooseByEpoch()
{
    const EpochReading *newest = nullptr;
    bool tied = false;
    bool unread = false; // an epoch that could not be read might be the newest
    core::Sentences said;
    for (const EpochReading &r : std::as_const(m_epochs)) {
        if (!r.state) {
            unread = true;
            said << resolverSaid(QT_TR_NOOP("%1: config epoch not read (%2)"))
                        .arg(r.sentinel.toString(), r.why);
            continue;
        }
        said << resolverSaid(QT_TR_NOOP("%1 names %2 at config epoch %3"))
                    .arg(r.sentinel.toString(), r.state->address.toString(),
                         QString::number(r.state->configEpoch));
        if (!newest || r.state->configEpoch > newest->state->configEpoch) {
            newest = &r;
            tied = false;
        } else if (r.state->configEpoch == newest->state->configEpoch
                   && !(r.state->address == newest->state->address)) {
            tied = true;
        }
    }
    if (newest && !tied && !unread && m_confirmed.contains(newest->state->address)) {
        emit resolved(Resolution{newest->state->address, newest->sentinel, m_answers});
        return;
    }
    finishDisagreed(core::joined(said, QStringLiteral("; ")));
}

void SentinelResolver::finishDisagreed(const core::Sentence &why)
{
    core::Sentences nodes;
    for (const NodeAddress &n : std::as_const(m_confirmed))
        nodes << core::Sentence::plain(n.toString());
    ResolveError e;
    e.failure = ResolveFailure::SentinelsDisagree;
    e.answers = m_answers;
    e.message =
        resolverSaid(QT_TR_NOOP("not proven which node is the primary of '%1': the sentinels "
                                "name %2, each says master, and their configurations do not "
                                "tell which is newer (%3); a failover may be under way, ask "
                                "again in a few seconds. Sentinels: %4"))
            .arg(m_config.masterName, core::joined(nodes, QStringLiteral(", ")), why, eachAnswer());
    emit failed(e);
}

core::Sentence SentinelResolver::eachAnswer() const
{
    core::Sentences each;
    for (const SentinelAnswer &a : m_answers)
        each << a.toString(m_config.masterName);
    return core::joined(each, QStringLiteral("; "));
}

void SentinelResolver::finishFailed()
{
    using K = SentinelAnswer::Kind;
    const auto count = [this](K kind) {
        return std::count_if(m_answers.cbegin(), m_answers.cend(),
                             [kind](const SentinelAnswer &a) { return a.kind == kind; });
    };
    ResolveError e;
    e.answers = m_answers;
    const QString name = m_config.masterName;
    const QString semicolon = QStringLiteral("; ");
    core::Sentence said;
    if (!m_refuted.isEmpty()) {
        e.failure = m_sawReplica ? ResolveFailure::NotPrimary : ResolveFailure::PrimaryUnreadable;
        core::Sentences nodes;
        for (const auto &r : std::as_const(m_refuted))
            nodes << core::Sentence::plain(QStringLiteral("%1: %2"))
                         .arg(r.first.toString(), r.second);
        said = (m_sawReplica ? resolverSaid(QT_TR_NOOP("no primary of '%1' confirmed: the node "
                                                       "named is not a primary (%2)"))
                             : resolverSaid(QT_TR_NOOP("no primary of '%1' confirmed: the node "
                                                       "named could not be read (%2)")))
                   .arg(name, core::joined(nodes, semicolon));
    } else if (count(K::Unknown) > 0
               && count(K::Unknown) + count(K::Unreachable) == m_answers.size()) {
        e.failure = ResolveFailure::MasterUnknown;
        said = resolverSaid(QT_TR_NOOP("no sentinel knows a master named '%1': check the name "
                                       "after '#' (SENTINEL MASTERS lists them)"))
                   .arg(name);
    } else if (count(K::AuthRefused) > 0) {
        e.failure = ResolveFailure::SentinelAuthRefused;
        said = resolverSaid(QT_TR_NOOP("the sentinels refused the sentinel credentials (they "
                                       "are not the data node's: give the sentinel's own)"));
    } else if (count(K::Unknown) > 0) {
        e.failure = ResolveFailure::MasterUnknown;
        said = resolverSaid(QT_TR_NOOP("no sentinel that answered knows a master named '%1'"))
                   .arg(name);
    } else if (count(K::Refused) > 0) {
        e.failure = ResolveFailure::SentinelRefused;
        said = resolverSaid(QT_TR_NOOP("no sentinel answered the question about '%1' (are "
                                       "these sentinel ports?)"))
                   .arg(name);
    } else {
        e.failure = ResolveFailure::NoSentinelReachable;
        said = resolverSaid(QT_TR_NOOP("no sentinel could be reached"));
    }
    e.message = resolverSaid(QT_TR_NOOP("%1. Sentinels: %2")).arg(said, eachAnswer());
    emit failed(e);
}

void SentinelResolver::readReplicas()
{
    ++m_generation;
    askReplicas(0, {});
}

void SentinelResolver::askReplicas(qsizetype index, core::Sentences problems)
{
    if (index >= m_config.sentinels.size()) {
        const core::Sentence why =
            resolverSaid(QT_TR_NOOP("no sentinel listed the replicas of '%1': %2"))
                .arg(m_config.masterName, core::joined(problems, QStringLiteral("; ")));
        emit replicasFailed(why);
        return;
    }
    const redis::ConnectionOptions options = sentinelConnection();
    const NodeAddress sentinel = m_config.sentinels.at(index);
    roundTrip(sentinel, options, {"SENTINEL", "REPLICAS", m_config.masterName.toUtf8()},
              [this, index, sentinel, problems](const Step &step) mutable {
                  if (step.reply && step.reply->ok()) {
                      const auto replicas = decodeReplicas(step.reply->value());
                      if (replicas.ok()) {
                          emit replicasRead(replicas.value(), sentinel);
                          return;
                      }
                      problems << core::Sentence::plain(QStringLiteral("%1: %2"))
                                      .arg(sentinel.toString(), replicas.error().message);
                  } else {
                      problems << answerFrom(sentinel, step).toString(m_config.masterName);
                  }
                  askReplicas(index + 1, problems);
              });
}

ResolveResult resolveBlocking(const ResolverConfig &config)
{
    return redis::blockUntilReply<ResolveResult>([&](QObject *context, auto done) {
        auto *resolver = new SentinelResolver(config, context);
        QObject::connect(resolver, &SentinelResolver::resolved, context,
                         [done](const Resolution &r) { done(ResolveResult(r)); });
        QObject::connect(resolver, &SentinelResolver::failed, context,
                         [done](const ResolveError &e) { done(ResolveResult(e)); });
        resolver->resolve();
    });
}

} // namespace sentinel
