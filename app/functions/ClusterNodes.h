// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChangePlan.h"
#include "LibraryMatrix.h"
#include "StandaloneGroup.h"
#include "redis/ClientPool.h"
#include "redis/ClusterRouter.h"

#include <memory>
#include <optional>

namespace functions {

// The nodes a library change and the library matrix work on, taken from a router: on a
// cluster every primary (the change) and every replica too (the matrix), each over its own
// connection; on a standalone server the server (the change) and, once its replication group
// has been read, the rest of its group too (the matrix). When the profile has a release
// user, every step runs as that user (ChangeTarget::loadVia): this object opens and owns one
// release connection per node, with the release options aimed at that node.
class ClusterNodes
{
public:
    // `release`: the release user's options (host and port are replaced per node); nullopt
    // when the profile has none. The router must outlive this object.
    explicit ClusterNodes(redis::ClusterRouter &router,
                          std::optional<redis::ConnectionOptions> release = std::nullopt);
    ~ClusterNodes();

    redis::ClusterRouter &router() { return m_router; }
    bool isCluster() const { return m_router.isCluster(); }
    // Each primary (in slot order) followed by its replicas.
    QList<MatrixNode> matrixNodes();
    // Every primary, as a change needs it.
    QList<ChangeTarget> primaries();
    // Standalone: the server's replication group, which matrixNodes() lists once read.
    StandaloneGroup &standaloneGroup();
    // Standalone: more replicas than INFO names (StandaloneGroup::setReplicaSource).
    void setReplicaSource(StandaloneGroup::ReplicaSource source);

private:
    redis::CommandSender *releaseFor(const QString &host, quint16 port);

    redis::ClusterRouter &m_router;
    std::optional<redis::ClientPool> m_release; // the release user's, aimed at each node
    std::unique_ptr<StandaloneGroup> m_group;
    StandaloneGroup::ReplicaSource m_replicaSource;
};

} // namespace functions
