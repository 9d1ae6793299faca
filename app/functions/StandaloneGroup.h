// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LibraryMatrix.h"
#include "overview/ReplicationGroup.h"
#include "redis/ClientPool.h"
#include "redis/ClusterTopology.h"

#include <functional>
#include <memory>
#include <optional>

namespace functions {

// A standalone server and the rest of its replication group (its replicas; from a replica,
// its primary and the primary's other replicas), as the library matrix reads them: FUNCTION
// LOAD reaches a replica through replication, but a replica made writable, re-pointed or cut
// off keeps what it had. The group comes from INFO replication; each other member is read
// over a connection of its own, made from `memberOptions` aimed at it.
//
// An address INFO gives is the server's view (replica-announce-ip, or the peer address the
// primary saw), and from here it may name another server: the server's own 127.0.0.1, or a
// host behind a NAT. So every member is asked INFO replication first and kept only when it
// shares the group's replication id; one that answers as another server is left out and the
// note says so. A member that cannot be reached stays in, and the matrix shows it unreadable.
// The profile's announced-address map (a NAT, containers, a tunnel) is applied to every
// address INFO gives before it is reached, as on a cluster; the check above still decides.
// A connection to a member that was left out is closed once the group is read.
class StandaloneGroup
{
public:
    // `seed` asks INFO replication and reads the seed's libraries: the release user's
    // connection when there is one, as every library step. It must outlive this object.
    StandaloneGroup(redis::CommandSender &seed, QString seedAddress,
                    redis::ConnectionOptions memberOptions,
                    redis::AnnouncedAddressMap addressMap = {});
    ~StandaloneGroup();

    // Asks the group again; `done` runs on `context`'s thread with a note: empty when every
    // member INFO named was reached as itself, else what was left out or not checked, and why
    // (nodes() then lists the seed and the members that remain).
    void read(QObject *context, std::function<void(const QString &)> done);
    QString readBlocking();
    // The primary first, then its replicas.
    QList<MatrixNode> nodes();
    // Where replicas come from besides the primary's INFO replication: a Sentinel session's
    // SENTINEL REPLICAS, which still lists a replica whose link to the primary is down (it
    // keeps the libraries it had). Each is checked like INFO's; `done` gets them, or why not.
    using Members = QList<overview::ReplicationGroup::Member>;
    using ReplicaSource = std::function<void(
        QObject *context, std::function<void(const Members &, const QString &problem)> done)>;
    void setReplicaSource(ReplicaSource source) { m_replicaSource = std::move(source); }
    // The seed as the group names it in nodes().
    const QString &seedAddress() const { return m_seedAddress; }

private:
    struct Read;
    using Member = overview::ReplicationGroup::Member;
    void readPrimary(const std::shared_ptr<Read> &read, const Member &primary);
    void addSourcedReplicas(const std::shared_ptr<Read> &read);
    void verifyReplicas(const std::shared_ptr<Read> &read);
    void finish(const std::shared_ptr<Read> &read);
    redis::CommandSender *member(const Member &m) { return &m_members.at(m.host, m.port); }
    // The member as INFO names it, aimed where this machine reaches it.
    Member reached(const Member &announced) const;

    redis::CommandSender &m_seed;
    QString m_seedAddress;
    redis::AnnouncedAddressMap m_addressMap;
    quint64 m_generation = 0; // of read(): an older read's answers are dropped
    // What nodes() lists: the primary when the seed is a replica, and the other replicas.
    std::optional<Member> m_primary;
    QList<Member> m_replicas;
    int m_seedAt = -1; // the seed's place among m_replicas when it is a replica
    ReplicaSource m_replicaSource;
    redis::ClientPool m_members;
    std::unique_ptr<QObject> m_alive; // the context of every send: gone with this object
};

} // namespace functions
