// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClientPool.h"

#include "Log.h"

namespace redis {

ClientPool::ClientPool(ConnectionOptions base, ClientFactory factory)
    : m_base(std::move(base))
    , m_factory(std::move(factory))
{}

ClientPool::~ClientPool() = default;

ConnectionOptions ClientPool::optionsFor(const QString &host, quint16 port) const
{
    ConnectionOptions o = m_base;
    o.host = host;
    o.port = port;
    return o;
}

QString ClientPool::addressOf(const QString &host, quint16 port) const
{
    return optionsFor(host, port).address();
}

RedisClient &ClientPool::make(const ConnectionOptions &options)
{
    // Kept under the node's address as the pool was asked for it, whatever the factory made.
    auto client = m_factory ? m_factory(options) : std::make_unique<RedisClient>(options);
    RedisClient &made = *client;
    m_clients.emplace(options.address(), std::move(client));
    if (m_onCreated)
        m_onCreated(made);
    return made;
}

RedisClient &ClientPool::at(const QString &host, quint16 port)
{
    const ConnectionOptions o = optionsFor(host, port);
    const auto it = m_clients.find(o.address());
    if (it == m_clients.end()) {
        RedisClient &client = make(o);
        client.open();
        return client;
    }
    if (it->second->state() == ConnectionState::Closed)
        it->second->open();
    return *it->second;
}

RedisClient &ClientPool::seed()
{
    const auto it = m_clients.find(m_base.address());
    return it != m_clients.end() ? *it->second : make(m_base);
}

void ClientPool::retargetBase(const QString &host, quint16 port, const QString &why)
{
    const QString from = m_base.address();
    m_base.host = host;
    m_base.port = port;
    const QString to = m_base.address();
    if (to == from)
        return;
    if (auto there = m_clients.extract(to)) {
        // A caller may still hold it: closed, not destroyed.
        there.mapped()->close();
        m_setAside.push_back(std::move(there.mapped()));
    }
    if (auto seed = m_clients.extract(from)) {
        seed.mapped()->retarget(host, port, why);
        seed.key() = to;
        m_clients.insert(std::move(seed));
    }
}

void ClientPool::closeAllBut(const QSet<QString> &addresses)
{
    for (auto &[key, client] : m_clients)
        if (!addresses.contains(key) && client->state() != ConnectionState::Closed) {
            qCInfo(lcRedis) << "closing the connection to" << key << ": no longer wanted";
            client->close();
        }
}

QStringList ClientPool::openAddresses() const
{
    QStringList out;
    for (const auto &[key, client] : m_clients)
        if (client->state() != ConnectionState::Closed)
            out << key;
    return out;
}

RedisClient *ClientPool::anyReady() const
{
    for (const auto &[key, client] : m_clients)
        if (client->state() == ConnectionState::Ready)
            return client.get();
    return nullptr;
}

void ClientPool::setOnCreated(std::function<void(RedisClient &)> onCreated)
{
    m_onCreated = std::move(onCreated);
}

} // namespace redis
