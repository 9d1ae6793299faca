#include "ClientPool.h"

namespace redis {

ClientPool::ClientPool(ConnectionOptions base)
    : m_base(std::move(base))
{}

ClientPool::~ClientPool() = default;

RedisClient &ClientPool::at(const QString &host, quint16 port)
{
    ConnectionOptions o = m_base;
    o.host = host;
    o.port = port;
    const QString key = o.address();
    auto it = m_clients.find(key);
    if (it == m_clients.end()) {
        auto client = std::make_unique<RedisClient>(o);
        client->open();
        it = m_clients.emplace(key, std::move(client)).first;
    }
    return *it->second;
}

void ClientPool::keepOnly(const QSet<QString> &addresses)
{
    std::erase_if(m_clients, [&](const auto &entry) { return !addresses.contains(entry.first); });
}

} // namespace redis
