// SPDX-License-Identifier: GPL-3.0-or-later
#include "StandaloneGroup.h"

#include "redis/Blocking.h"

#include <QCoreApplication>
#include <QPointer>

namespace functions {

namespace {

// The group's note, in the window's language (the node matrix); the CLI loads no translator
// and prints the English. It is never logged.
struct StandaloneGroupText
{
    Q_DECLARE_TR_FUNCTIONS(functions::StandaloneGroup)
};

// The server section names who answered (run_id), so the seed is known among its siblings.
const redis::Command MemberInfo{"INFO", "replication", "server"};

core::Result<overview::ReplicationGroup, QString> decodeInfo(const redis::ReplyResult &reply)
{
    if (!reply.ok())
        return reply.error().message.english;
    if (!reply->isBulk())
        return StandaloneGroupText::tr("INFO replication did not answer with text");
    return overview::decodeReplicationGroup(reply->bytes());
}

bool unreachable(const redis::ReplyResult &reply)
{
    return !reply.ok() && reply.error().kind != redis::RedisError::Kind::Server;
}

using Member = overview::ReplicationGroup::Member;

// host:port, and the announced address when the map changed it, for notes.
QString described(const Member &announced, const Member &reached)
{
    if (announced.address() == reached.address())
        return reached.address();
    return StandaloneGroupText::tr("%1 (announced as %2)")
        .arg(reached.address(), announced.address());
}

enum class MemberRole { Primary, Replica };

// What to do about a member that INFO names but that cannot be reached: most often an
// address that only means something on the server's side of a NAT or a container network.
// `source`: what gave the address.
QString unreachableHint(MemberRole role, const Member &announced, const Member &reached,
                        const QString &source = QStringLiteral("INFO replication"))
{
    const QString name = described(announced, reached);
    const bool primary = role == MemberRole::Primary;
    if (announced.address() != reached.address())
        return (primary ? StandaloneGroupText::tr("primary %1 could not be reached: check its "
                                                  "announced-address mapping")
                        : StandaloneGroupText::tr("replica %1 could not be reached: check its "
                                                  "announced-address mapping"))
            .arg(name);
    // The connection dialog's own name for the tab, in the same language.
    const QString tab = QCoreApplication::translate("ui::ConnectionDialog", "Cluster && replicas")
                            .replace(QStringLiteral("&&"), QStringLiteral("&"));
    return (primary ? StandaloneGroupText::tr(
                "primary %1 could not be reached at the address %2 gives; if it is "
                "behind a NAT or in a container, map that address to one this machine "
                "reaches: \"Announced addresses\" on the connection profile's \"%3\" "
                "tab, or inventory-cli's --announced-map")
                    : StandaloneGroupText::tr(
                        "replica %1 could not be reached at the address %2 gives; if it is "
                        "behind a NAT or in a container, map that address to one this machine "
                        "reaches: \"Announced addresses\" on the connection profile's \"%3\" "
                        "tab, or inventory-cli's --announced-map"))
        .arg(name, source, tab);
}

} // namespace

struct StandaloneGroup::Read
{
    quint64 generation = 0;
    QPointer<QObject> context;
    std::function<void(const QString &)> done;
    QByteArray replicationId, seedRunId;
    std::optional<Member> primary;
    QList<Member>
        announced; // replicas INFO (or the replica source) named, to be asked who they are
    QList<std::optional<Member>> checked; // by candidate, as reached: kept, or nullopt
    int seedAt = -1;                      // the seed's place among the candidates
    int pending = 0;
    QStringList notes;
    QSet<QString> sourced; // addresses only the replica source named
};

StandaloneGroup::StandaloneGroup(redis::CommandSender &seed, QString seedAddress,
                                 redis::ConnectionOptions memberOptions,
                                 redis::AnnouncedAddressMap addressMap)
    : m_seed(seed)
    , m_seedAddress(std::move(seedAddress))
    , m_addressMap(std::move(addressMap))
    , m_members(std::move(memberOptions))
    , m_alive(std::make_unique<QObject>())
{}

// m_alive goes first (it is declared last), so that what the member connections deliver as
// they close finds no context and never reaches this object.
StandaloneGroup::~StandaloneGroup() = default;

StandaloneGroup::Member StandaloneGroup::reached(const Member &announced) const
{
    Member m = announced;
    std::tie(m.host, m.port) = m_addressMap.reachable(announced.host, announced.port);
    return m;
}

void StandaloneGroup::read(QObject *context, std::function<void(const QString &)> done)
{
    auto read = std::make_shared<Read>();
    read->generation = ++m_generation;
    read->context = context;
    read->done = std::move(done);
    // With the cluster section: a cluster node's replicas are the topology's, not a group's.
    m_seed.send({"INFO", "replication", "server", "cluster"}, m_alive.get(),
                [this, read](const redis::ReplyResult &r) {
                    if (read->generation != m_generation)
                        return;
                    if (r.ok() && r->isBulk() && r->bytes().contains("cluster_enabled:1"))
                        return finish(read);
                    auto group = decodeInfo(r);
                    if (!group) {
                        read->notes << StandaloneGroupText::tr("replicas not checked: %1")
                                           .arg(group.error());
                        return finish(read);
                    }
                    read->replicationId = group->replicationId;
                    read->seedRunId = group->runId;
                    if (group->isReplica)
                        return readPrimary(read, group->primary);
                    read->announced = group->replicas;
                    addSourcedReplicas(read);
                });
}

void StandaloneGroup::addSourcedReplicas(const std::shared_ptr<Read> &read)
{
    if (!m_replicaSource)
        return verifyReplicas(read);
    m_replicaSource(m_alive.get(), [this, read](const Members &more, const QString &problem) {
        if (read->generation != m_generation)
            return;
        if (!problem.isEmpty())
            read->notes << StandaloneGroupText::tr(
                               "%1; the replicas are those INFO replication names")
                               .arg(problem);
        for (const Member &m : more) {
            const bool known =
                std::any_of(read->announced.cbegin(), read->announced.cend(),
                            [&m](const Member &a) { return a.host == m.host && a.port == m.port; });
            if (!known && m.address() != m_seedAddress) {
                read->announced << m;
                read->sourced << m.address();
            }
        }
        verifyReplicas(read);
    });
}

void StandaloneGroup::readPrimary(const std::shared_ptr<Read> &read, const Member &announced)
{
    const Member primary = reached(announced);
    const QString name = described(announced, primary);
    // The primary names the whole group: this replica's siblings too.
    member(primary)->send(
        MemberInfo, m_alive.get(),
        [this, read, announced, primary, name](const redis::ReplyResult &r) {
            if (read->generation != m_generation)
                return;
            if (unreachable(r)) {
                read->primary = primary; // the matrix shows it unreadable
                read->notes << StandaloneGroupText::tr("the other replicas of %1 not checked: %2")
                                   .arg(name, r.error().message.english)
                            << unreachableHint(MemberRole::Primary, announced, primary);
                return finish(read);
            }
            auto group = decodeInfo(r);
            if (!group) {
                read->notes << StandaloneGroupText::tr(
                                   "%1, the primary INFO replication names, not checked: %2")
                                   .arg(name, group.error());
                return finish(read);
            }
            if (group->isReplica || group->replicationId != read->replicationId) {
                read->notes << (group->isReplica
                                    ? StandaloneGroupText::tr(
                                        "%1, the primary INFO replication names, is left out: "
                                        "the server answering there is a replica with "
                                        "replication id %2, not this server's primary (%3)")
                                    : StandaloneGroupText::tr(
                                        "%1, the primary INFO replication names, is left out: "
                                        "the server answering there is a primary with "
                                        "replication id %2, not this server's primary (%3)"))
                                   .arg(name, QString::fromLatin1(group->replicationId),
                                        QString::fromLatin1(read->replicationId));
                return finish(read);
            }
            read->primary = primary;
            read->announced = group->replicas;
            verifyReplicas(read);
        });
}

void StandaloneGroup::verifyReplicas(const std::shared_ptr<Read> &read)
{
    read->checked.resize(read->announced.size());
    read->pending = int(read->announced.size());
    if (read->pending == 0)
        return finish(read);
    for (qsizetype i = 0; i < read->announced.size(); ++i) {
        const Member candidate = reached(read->announced.at(i));
        const QString name = described(read->announced.at(i), candidate);
        member(candidate)->send(
            MemberInfo, m_alive.get(),
            [this, read, candidate, name, i](const redis::ReplyResult &r) {
                if (read->generation != m_generation)
                    return;
                if (unreachable(r)) {
                    read->checked[i] = candidate; // the matrix shows it unreadable
                    const Member &announced = read->announced.at(i);
                    read->notes << unreachableHint(
                        MemberRole::Replica, announced, candidate,
                        read->sourced.contains(announced.address())
                            ? StandaloneGroupText::tr("the replica source (SENTINEL REPLICAS)")
                            : QStringLiteral("INFO replication"));
                } else if (auto group = decodeInfo(r); !group) {
                    read->notes << StandaloneGroupText::tr("replica %1 not checked: %2")
                                       .arg(name, group.error());
                } else if (!read->seedRunId.isEmpty() && group->runId == read->seedRunId) {
                    read->seedAt = int(i); // the seed itself, under the address its primary saw
                } else if (!group->isReplica || group->replicationId != read->replicationId) {
                    read->notes << StandaloneGroupText::tr(
                                       "replica %1 is left out: the server answering there "
                                       "does not share the group's replication id (%2)")
                                       .arg(name, QString::fromLatin1(read->replicationId));
                } else {
                    read->checked[i] = candidate;
                }
                if (--read->pending == 0)
                    finish(read);
            });
    }
}

void StandaloneGroup::finish(const std::shared_ptr<Read> &read)
{
    m_primary = read->primary;
    m_replicas.clear();
    m_seedAt = -1;
    for (qsizetype i = 0; i < read->checked.size(); ++i) {
        if (i == read->seedAt)
            m_seedAt = int(m_replicas.size());
        if (read->checked.at(i))
            m_replicas << *read->checked.at(i);
    }
    if (m_primary && m_seedAt < 0)
        m_seedAt = int(m_replicas.size()); // its primary knows it by another address
    // A server left out (or the seed, reached again under the address its primary saw) is
    // not read again: its connection goes.
    QSet<QString> kept;
    if (m_primary)
        kept << m_primary->address();
    for (const Member &r : m_replicas)
        kept << r.address();
    m_members.closeAllBut(kept);
    if (read->context)
        read->done(read->notes.join(QStringLiteral("; ")));
}

QString StandaloneGroup::readBlocking()
{
    return redis::blockUntilReply<QString>(
        [this](QObject *context, auto done) { read(context, std::move(done)); });
}

QList<MatrixNode> StandaloneGroup::nodes()
{
    if (!m_primary) {
        QList<MatrixNode> out{MatrixNode{m_seedAddress, true, {}, &m_seed}};
        for (const Member &r : m_replicas)
            out << MatrixNode{r.address(), false, m_seedAddress, member(r)};
        return out;
    }
    const QString primary = m_primary->address();
    QList<MatrixNode> out{MatrixNode{primary, true, {}, member(*m_primary)}};
    for (qsizetype i = 0; i <= m_replicas.size(); ++i) {
        if (i == m_seedAt)
            out << MatrixNode{m_seedAddress, false, primary, &m_seed};
        if (i < m_replicas.size())
            out << MatrixNode{m_replicas.at(i).address(), false, primary, member(m_replicas.at(i))};
    }
    return out;
}

} // namespace functions
