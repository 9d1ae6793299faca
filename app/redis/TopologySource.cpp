// SPDX-License-Identifier: GPL-3.0-or-later
#include "TopologySource.h"

#include "Log.h"

#include <QEventLoop>
#include <optional>

namespace redis {

TopologySource::TopologySource(ClientPool &pool, Options options, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_options(std::move(options))
{
    m_refreshTimer.setInterval(m_options.refreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TopologySource::refreshSoon);
    m_refreshGap.setSingleShot(true);
    connect(&m_refreshGap, &QTimer::timeout, this, &TopologySource::refreshSoon);
    m_pool.setOnCreated([this](RedisClient &client) { watch(client); });
    m_pool.seed();
}

TopologySource::~TopologySource()
{
    m_pool.setOnCreated({});
}

void TopologySource::watch(RedisClient &client)
{
    // The seed is a node like the others: its loss may mean its replica took over.
    connect(&client, &RedisClient::stateChanged, this, [this](ConnectionState s) {
        if (s == ConnectionState::Reconnecting || s == ConnectionState::Failed)
            refreshSoon();
    });
}

QString TopologySource::seedAddress() const
{
    return m_pool.base().address();
}

void TopologySource::open()
{
    if (!m_opened) {
        m_opened = true;
        m_pool.seed().open();
    }
    if (!m_discovered) // a lane opened later routes by what is known
        readNow();
}

void TopologySource::readNow()
{
    if (!m_reading)
        read();
}

bool TopologySource::waitUntilDiscovered(int timeoutMs)
{
    if (!settled()) {
        QEventLoop loop;
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        connect(this, &TopologySource::topologyChanged, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return m_discovered;
}

void TopologySource::read()
{
    m_reading = true;
    m_sinceRead.start();
    RedisClient *asked = &askingConnection();
    // CLUSTER SLOTS only for a server older than Redis 7: asking both on every refresh made
    // each node build a reply that was thrown away.
    asked->send({"CLUSTER", "SHARDS"}, this, [this, asked](const ReplyResult &shards) {
        const bool older = !shards.ok() && shards.error().kind == RedisError::Kind::Server
                           && shards.error().message.english.contains(
                               QLatin1String("unknown subcommand"), Qt::CaseInsensitive);
        if (!older)
            return apply(shards, shards);
        asked->send({"CLUSTER", "SLOTS"}, this,
                    [this, shards](const ReplyResult &slotTable) { apply(shards, slotTable); });
    });
}

RedisClient &TopologySource::askingConnection()
{
    // The seed may be the node that went away: ask any connection that is up.
    RedisClient &seed = m_pool.seed();
    if (seed.state() == ConnectionState::Ready)
        return seed;
    if (RedisClient *ready = m_pool.anyReady())
        return *ready;
    // None is up, as when only the seed was ever used and it died: connect to a node the map
    // names that has not failed yet, so that the seed's promoted replica can still be found.
    for (const ClusterNode &n : m_topology.nodes()) {
        RedisClient &client = m_pool.at(n.host, n.port);
        const ConnectionState state = client.state();
        if (&client != &seed && state != ConnectionState::Reconnecting
            && state != ConnectionState::Failed && state != ConnectionState::Closed)
            return client;
    }
    return seed;
}

void TopologySource::refreshSoon()
{
    if (m_reading || !m_discovered || !m_cluster || m_refreshGap.isActive())
        return;
    const qint64 since = m_sinceRead.isValid() ? m_sinceRead.elapsed() : -1;
    if (since >= 0 && since < m_options.refreshGapMs) {
        m_refreshGap.start(int(m_options.refreshGapMs - since));
        return;
    }
    read();
}

void TopologySource::noteMoved(int slot, const QString &host, quint16 port)
{
    m_topology.moveSlot(slot, host, port);
    refreshSoon();
}

void TopologySource::apply(const ReplyResult &shards, const ReplyResult &slotTable)
{
    m_reading = false;
    const QString seedHost = m_pool.base().host;
    std::optional<core::Result<ClusterTopology, core::Sentence>> decoded;
    if (shards.ok())
        decoded = ClusterTopology::fromShards(*shards, m_options.addressMap, seedHost);
    else if (slotTable.ok())
        decoded = ClusterTopology::fromSlots(*slotTable, m_options.addressMap, seedHost);

    if (decoded && decoded->ok()) {
        m_topology = decoded->value();
        m_cluster = true;
        m_discoveryError = {};
    } else if (decoded) {
        m_discoveryError = decoded->error();
        qCWarning(lcRedis) << "cluster topology from" << seedAddress()
                           << "refused:" << m_discoveryError.english;
        if (m_discovered)
            return; // keep routing by the map we have; MOVED replies still correct it
    } else if (!shards.ok() && shards.error().kind == RedisError::Kind::Server) {
        // A standalone server ("cluster support disabled"), or a user who may not read the
        // topology: talk to the seed, and still follow any MOVED it answers.
        m_cluster = false;
        m_discoveryError = {};
    } else {
        m_discoveryError = shards.error().readFailure();
        if (m_discovered)
            return;
        emit topologyChanged(); // what waited hears why; the next command asks again
        return;
    }
    m_discovered = true;
    if (m_cluster && m_options.refreshIntervalMs > 0)
        m_refreshTimer.start();
    emit topologyChanged();
}

} // namespace redis
