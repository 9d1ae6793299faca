#pragma once

#include "RedisClient.h"

#include <QSet>
#include <map>
#include <memory>

namespace redis {

// One connection per node, made from the same options aimed at each node and opened on first
// use: the connections a feature keeps to nodes it finds as it goes (a cluster's nodes for
// the release user, a standalone server's replicas).
class ClientPool
{
public:
    explicit ClientPool(ConnectionOptions base);
    ~ClientPool();

    RedisClient &at(const QString &host, quint16 port);
    // Closes every connection but those to these addresses (host:port, as address() gives).
    void keepOnly(const QSet<QString> &addresses);
    const ConnectionOptions &base() const { return m_base; }

private:
    ConnectionOptions m_base;
    std::map<QString, std::unique_ptr<RedisClient>> m_clients; // by host:port
};

} // namespace redis
