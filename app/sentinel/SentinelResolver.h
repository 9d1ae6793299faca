// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NodeAddress.h"
#include "SentinelReplies.h"
#include "core/Result.h"
#include "core/Wording.h"
#include "redis/ConnectionOptions.h"
#include "redis/RespCodec.h"

#include <QObject>
#include <functional>

namespace sentinel {

// Where the sentinels are and how to talk to them and to the data node they name. The two
// carry their own credentials: a sentinel's password is not the data node's.
struct ResolverConfig
{
    QList<NodeAddress> sentinels;
    QString masterName;
    // User, password, TLS and timeouts for every sentinel (host, port and database are set
    // per sentinel).
    redis::ConnectionOptions sentinelOptions;
    // The same for the data node the sentinels name (host and port are set to it).
    redis::ConnectionOptions dataOptions;
};

// What one sentinel said when asked.
struct SentinelAnswer
{
    enum class Kind {
        Named,       // it named the primary's address
        Unknown,     // it does not monitor that master name
        Unreachable, // no connection (refused, timed out, TLS, lost)
        AuthRefused, // it refused the sentinel credentials, or wants some
        Refused,     // it answered with an error (not a sentinel?) or a reply of another shape
    };
    NodeAddress sentinel;
    Kind kind = Kind::Unreachable;
    NodeAddress named;     // Named
    core::Sentence detail; // why, for the other kinds; never a password
    // "127.0.0.1:26379 does not know the master 'orders'".
    core::Sentence toString(const QString &masterName) const;
};

// Why no primary could be confirmed, most telling first.
enum class ResolveFailure {
    NoSentinelReachable, // no sentinel answered at all
    SentinelAuthRefused, // the sentinels that could be reached refused the credentials
    MasterUnknown,       // every sentinel that answered does not know the name
    SentinelRefused,     // they answered errors (not sentinels?)
    NotPrimary,          // the node named says, through ROLE, that it is a replica
    PrimaryUnreadable,   // the node named could not be reached or asked ROLE
    SentinelsDisagree,   // they name different nodes that each say master, and their config
                         // epochs do not tell which is newer (a failover under way)
};

struct Resolution
{
    NodeAddress primary;    // confirmed by ROLE
    NodeAddress answeredBy; // the sentinel that named it
    QList<SentinelAnswer> answers;
};

struct ResolveError
{
    ResolveFailure failure = ResolveFailure::NoSentinelReachable;
    core::Sentence message; // one sentence, then each sentinel's answer; never a password
    QList<SentinelAnswer> answers;
};

using ResolveResult = core::Result<Resolution, ResolveError>;

// Finds the primary behind a set of sentinels: asks every one of them, at once, SENTINEL
// GET-MASTER-ADDR-BY-NAME, then asks each node named for its ROLE and accepts only one that
// says master. During a failover a sentinel that has not yet heard of it names the old
// primary, which may still say master for seconds until the sentinels demote it: when two
// nodes named both say master, the one named with the higher config epoch (SENTINEL MASTER)
// is the primary, and when the epochs do not tell, none is claimed (SentinelsDisagree). Each
// step is a connection of its own (redis::RedisClient, no reconnect), closed when the step
// ends. Results come back as signals on this object's thread; a new resolve() drops what the
// previous one had not finished.
class SentinelResolver : public QObject
{
    Q_OBJECT
public:
    explicit SentinelResolver(ResolverConfig config, QObject *parent = nullptr);

    void resolve();
    // SENTINEL REPLICAS <name> from the first sentinel that answers.
    void readReplicas();
    const ResolverConfig &config() const { return m_config; }

signals:
    void resolved(const sentinel::Resolution &resolution);
    void failed(const sentinel::ResolveError &error);
    void replicasRead(const QList<sentinel::ReplicaEntry> &replicas,
                      const sentinel::NodeAddress &answeredBy);
    void replicasFailed(const core::Sentence &why);

private:
    // One command on a fresh connection to `node`: the reply, or why there was none.
    struct Step
    {
        redis::ConnectFailure connectFailure = redis::ConnectFailure::None; // None: connected
        core::Sentence why;
        std::optional<redis::ReplyResult> reply;
    };
    void roundTrip(const NodeAddress &node, redis::ConnectionOptions options,
                   redis::Command command, std::function<void(const Step &)> done);
    void askSentinel(qsizetype index);
    void confirm(qsizetype candidate);
    void settle();
    void readEpochs();
    void chooseByEpoch();
    void askReplicas(qsizetype index, core::Sentences problems);
    void finishFailed();
    void finishDisagreed(const core::Sentence &why);
    // The sentinel options for a connection to any sentinel (database 0: it has no others).
    redis::ConnectionOptions sentinelConnection() const;
    SentinelAnswer answerFrom(const NodeAddress &sentinel, const Step &step) const;
    // The first sentinel, in the order given, that named `node`.
    NodeAddress firstToName(const NodeAddress &node) const;
    core::Sentence eachAnswer() const;

    ResolverConfig m_config;
    quint64 m_generation = 0;
    qsizetype m_pending = 0;         // round trips of the current step not yet back
    QList<SentinelAnswer> m_answers; // one per sentinel, in the order given
    QList<NodeAddress> m_candidates; // the nodes named, each once
    QList<NodeAddress> m_confirmed;  // those whose ROLE said master
    QList<QPair<NodeAddress, core::Sentence>> m_refuted; // named, and why ROLE did not confirm it
    // Per sentinel that named a node: what SENTINEL MASTER said, or why it could not be read.
    struct EpochReading
    {
        NodeAddress sentinel;
        std::optional<MasterState> state;
        core::Sentence why; // when there is no state
    };
    QList<EpochReading> m_epochs;
    bool m_sawReplica = false;
};

// The blocking form, for the command line and tests (a local event loop).
ResolveResult resolveBlocking(const ResolverConfig &config);

} // namespace sentinel

Q_DECLARE_METATYPE(sentinel::Resolution)
Q_DECLARE_METATYPE(sentinel::ResolveError)
Q_DECLARE_METATYPE(sentinel::NodeAddress)
