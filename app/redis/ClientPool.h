// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RedisClient.h"

#include <QSet>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace redis {

// How a connection to a node is made from the options aimed at it. Empty: a RedisClient with
// those options. A tunnel points it at a local forward (keeping the TLS name of the real
// host); a test records or relays what the pool connects to.
using ClientFactory = std::function<std::unique_ptr<RedisClient>(const ConnectionOptions &)>;

// One connection per node, made from the same options aimed at each node and opened on first
// use: a router lane's connections to a cluster's nodes, the release user's, a standalone
// server's replicas. A connection no longer wanted is closed, not destroyed: a caller may still
// hold it (a scan in progress, whose commands then end "closed"), and it opens again when it
// is wanted again.
class ClientPool
{
public:
    explicit ClientPool(ConnectionOptions base, ClientFactory factory = {});
    ~ClientPool();

    // The connection to host:port: made and opened on first use, opened again if closed.
    RedisClient &at(const QString &host, quint16 port);
    // The connection to the base address, made if need be but left as it is (a router opens
    // its seed when it is opened, not when it is made).
    RedisClient &seed();
    // Closes every connection but those to these addresses (host:port, as address() gives).
    void closeAllBut(const QSet<QString> &addresses);
    // host:port of every connection that is not closed.
    QStringList openAddresses() const;
    // The first connection that is ready, if any.
    RedisClient *anyReady() const;
    // Told of each connection as it is made, before it opens (to watch its state).
    void setOnCreated(std::function<void(RedisClient &)> onCreated);

    const ConnectionOptions &base() const { return m_base; }
    // Aims the base, and the seed's connection (the same object, retargeted), at another
    // server. A connection the pool kept to that address already is closed and set aside.
    void retargetBase(const QString &host, quint16 port, const QString &why);
    QString addressOf(const QString &host, quint16 port) const;

private:
    ConnectionOptions optionsFor(const QString &host, quint16 port) const;
    RedisClient &make(const ConnectionOptions &options);

    ConnectionOptions m_base;
    ClientFactory m_factory;
    std::map<QString, std::unique_ptr<RedisClient>> m_clients; // by host:port
    std::vector<std::unique_ptr<RedisClient>> m_setAside;      // closed by retargetBase
    std::function<void(RedisClient &)> m_onCreated;
};

} // namespace redis
