#include "ClusterRouter.h"

#include "CommandKeys.h"
#include "Log.h"
#include "Slot.h"

#include <QEventLoop>
#include <QPointer>
#include <QSet>
#include <QThread>
#include <optional>

namespace redis {

struct ClusterRouter::Pending
{
    QList<Command> commands;
    QList<std::optional<ReplyResult>> results;
    QList<int> redirects;
    qsizetype remaining = 0;
    QPointer<QObject> context;
    BatchCallback callback;
    int timeoutMs = -1;
};

namespace {
// "MOVED 3999 127.0.0.1:6381" / "ASK 3999 [::1]:6381"
struct Redirect
{
    int slot = -1;
    QString host;
    quint16 port = 0;
};
std::optional<Redirect> parseRedirect(const QString &message)
{
    const QStringList words = message.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() != 3)
        return std::nullopt;
    bool slotOk = false, portOk = false;
    Redirect r;
    r.slot = words[1].toInt(&slotOk);
    const qsizetype colon = words[2].lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    r.host = words[2].left(colon);
    if (r.host.startsWith(QLatin1Char('[')) && r.host.endsWith(QLatin1Char(']')))
        r.host = r.host.mid(1, r.host.size() - 2);
    const uint port = words[2].mid(colon + 1).toUInt(&portOk);
    r.port = quint16(port);
    if (!slotOk || !portOk || port == 0 || port > 65535 || r.slot < 0)
        return std::nullopt;
    return r;
}
} // namespace

ClusterRouter::ClusterRouter(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_seed(std::make_unique<RedisClient>(m_options.seed))
{
    m_refreshTimer.setInterval(m_options.refreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ClusterRouter::refreshSoon);
    m_refreshGap.setSingleShot(true);
    connect(&m_refreshGap, &QTimer::timeout, this, &ClusterRouter::refreshSoon);
    watch(*m_seed);
}

void ClusterRouter::watch(RedisClient &client)
{
    // The seed is a node like the others: its loss may mean its replica took over.
    connect(&client, &RedisClient::stateChanged, this, [this](ConnectionState s) {
        if (s == ConnectionState::Reconnecting || s == ConnectionState::Failed)
            refreshSoon();
    });
}

ClusterRouter::~ClusterRouter()
{
    auto waiting = std::move(m_waiting);
    for (auto &p : waiting)
        for (qsizetype i = 0; i < p->commands.size(); ++i)
            finishOne(p, i, RedisError::notSent(QStringLiteral("the connection was closed")));
}

void ClusterRouter::open()
{
    m_opened = true;
    m_seed->open();
    discover();
}

bool ClusterRouter::waitUntilDiscovered(int timeoutMs)
{
    if (!m_discovered && m_discoveryError.isEmpty()) {
        QEventLoop loop;
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        connect(this, &ClusterRouter::topologyChanged, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return m_discovered;
}

QString ClusterRouter::address() const
{
    return m_seed->address();
}

QList<ScanNode> ClusterRouter::scanNodes()
{
    if (!m_cluster)
        return {ScanNode{m_seed.get(), address()}};
    QList<ScanNode> out;
    for (int i : m_topology.primaries())
        out << ScanNode{&node(i), m_topology.nodes().at(i).address()};
    return out;
}

QString ClusterRouter::coverageProblem() const
{
    if (!m_cluster)
        return {};
    const int uncovered = m_topology.uncoveredSlots();
    if (uncovered == 0)
        return {};
    if (m_topology.primaries().isEmpty())
        return QStringLiteral("no primary of the cluster at %1 serves a slot (a node not yet in "
                              "a formed cluster?): there is nothing to read")
            .arg(address());
    return QStringLiteral("%1 of %2 slots have no primary serving them: their keys cannot be "
                          "read (is a primary down?)")
        .arg(uncovered)
        .arg(SlotCount);
}

void ClusterRouter::discover()
{
    m_refreshing = true;
    m_sinceDiscover.start();
    RedisClient *asked = topologySource();
    // CLUSTER SLOTS only for a server older than Redis 7: asking both on every refresh made
    // each node build a reply that was thrown away.
    asked->send({"CLUSTER", "SHARDS"}, this, [this, asked](const ReplyResult &shards) {
        const bool older = !shards.ok() && shards.error().kind == RedisError::Kind::Server
                           && shards.error().message.contains(QLatin1String("unknown subcommand"),
                                                              Qt::CaseInsensitive);
        if (!older)
            return applyTopology(shards, shards);
        asked->send({"CLUSTER", "SLOTS"}, this, [this, shards](const ReplyResult &slotTable) {
            applyTopology(shards, slotTable);
        });
    });
}

RedisClient *ClusterRouter::topologySource()
{
    // The seed may be the node that went away: ask any connection that is up.
    if (m_seed->state() == ConnectionState::Ready)
        return m_seed.get();
    for (auto &[address, client] : m_clients)
        if (client->state() == ConnectionState::Ready)
            return client.get();
    // None is up, as when only the seed was ever used and it died: connect to a node the map
    // names that has not failed yet, so that the seed's promoted replica can still be found.
    for (const ClusterNode &n : m_topology.nodes()) {
        RedisClient &client = clientFor(n.host, n.port);
        const ConnectionState state = client.state();
        if (&client != m_seed.get() && state != ConnectionState::Reconnecting
            && state != ConnectionState::Failed && state != ConnectionState::Closed)
            return &client;
    }
    return m_seed.get();
}

void ClusterRouter::refreshSoon()
{
    if (m_refreshing || !m_discovered || !m_cluster || m_refreshGap.isActive())
        return;
    const qint64 since = m_sinceDiscover.isValid() ? m_sinceDiscover.elapsed() : -1;
    if (since >= 0 && since < m_options.refreshGapMs) {
        m_refreshGap.start(int(m_options.refreshGapMs - since));
        return;
    }
    discover();
}

void ClusterRouter::applyTopology(const ReplyResult &shards, const ReplyResult &slotTable)
{
    m_refreshing = false;
    const QString seedHost = m_options.seed.host;
    std::optional<core::Result<ClusterTopology, QString>> decoded;
    if (shards.ok())
        decoded = ClusterTopology::fromShards(*shards, m_options.addressMap, seedHost);
    else if (slotTable.ok())
        decoded = ClusterTopology::fromSlots(*slotTable, m_options.addressMap, seedHost);

    if (decoded && decoded->ok()) {
        m_topology = decoded->value();
        m_cluster = true;
        m_discoveryError.clear();
        closeUnlisted();
    } else if (decoded) {
        m_discoveryError = decoded->error();
        qCWarning(lcRedis) << "cluster topology from" << address()
                           << "refused:" << m_discoveryError;
        if (m_discovered)
            return; // keep routing by the map we have; MOVED replies still correct it
    } else if (!shards.ok() && shards.error().kind == RedisError::Kind::Server) {
        // A standalone server ("cluster support disabled"), or a user who may not read the
        // topology: talk to the seed, and still follow any MOVED it answers.
        m_cluster = false;
        m_discoveryError.clear();
    } else {
        m_discoveryError = shards.error().readFailure();
        if (m_discovered)
            return;
        // Not reachable: what waited hears why, unsent; the next command tries again.
        auto waiting = std::move(m_waiting);
        m_waiting.clear();
        for (auto &p : waiting)
            for (qsizetype i = 0; i < p->commands.size(); ++i)
                finishOne(p, i, RedisError::notSent(m_discoveryError));
        emit topologyChanged();
        return;
    }
    m_discovered = true;
    if (m_cluster && m_options.refreshIntervalMs > 0)
        m_refreshTimer.start();
    emit topologyChanged();
    auto waiting = std::move(m_waiting);
    m_waiting.clear();
    for (auto &p : waiting) {
        QList<qsizetype> all;
        for (qsizetype i = 0; i < p->commands.size(); ++i)
            all << i;
        dispatch(p, all);
    }
}

ConnectionOptions ClusterRouter::optionsFor(const QString &host, quint16 port) const
{
    ConnectionOptions o = m_options.seed;
    o.host = host;
    o.port = port;
    return o;
}

RedisClient &ClusterRouter::clientFor(const QString &host, quint16 port)
{
    if (port == m_options.seed.port && host.compare(m_options.seed.host, Qt::CaseInsensitive) == 0)
        return *m_seed;
    const ConnectionOptions o = optionsFor(host, port);
    const QString key = o.address();
    auto it = m_clients.find(key);
    if (it == m_clients.end()) {
        auto client = std::make_unique<RedisClient>(o);
        watch(*client);
        client->open();
        it = m_clients.emplace(key, std::move(client)).first;
    } else if (it->second->state() == ConnectionState::Closed) {
        it->second->open(); // closed by closeUnlisted(), and wanted again
    }
    return *it->second;
}

void ClusterRouter::closeUnlisted()
{
    // The clients stay (a scan in progress may hold one; its commands end "closed"), but stop
    // reconnecting to a node that is gone for good.
    QSet<QString> listed;
    for (const ClusterNode &n : m_topology.nodes())
        listed << optionsFor(n.host, n.port).address();
    for (auto &[key, client] : m_clients)
        if (!listed.contains(key) && client->state() != ConnectionState::Closed) {
            qCInfo(lcRedis) << "closing the connection to" << key
                            << ": the cluster no longer lists it";
            client->close();
        }
}

QStringList ClusterRouter::openConnections() const
{
    QStringList out;
    if (m_seed->state() != ConnectionState::Closed)
        out << m_seed->address();
    for (const auto &[key, client] : m_clients)
        if (client->state() != ConnectionState::Closed)
            out << key;
    return out;
}

RedisClient &ClusterRouter::node(int index)
{
    if (!m_cluster || index < 0 || index >= m_topology.nodes().size())
        return *m_seed;
    const ClusterNode &n = m_topology.nodes().at(index);
    return clientFor(n.host, n.port);
}

void ClusterRouter::sendBatch(QList<Command> commands, QObject *context, BatchCallback callback,
                              int timeoutMs)
{
    auto p = std::make_shared<Pending>();
    p->commands = std::move(commands);
    p->results.resize(p->commands.size());
    p->redirects.resize(p->commands.size());
    p->remaining = p->commands.size();
    p->context = context;
    p->callback = std::move(callback);
    p->timeoutMs = timeoutMs;
    if (!m_opened)
        open();
    if (p->commands.isEmpty()) {
        m_seed->sendBatch({}, context, std::move(p->callback), timeoutMs);
        return;
    }
    if (!m_discovered) {
        m_waiting.push_back(p);
        if (!m_refreshing)
            discover();
        return;
    }
    QList<qsizetype> all;
    for (qsizetype i = 0; i < p->commands.size(); ++i)
        all << i;
    dispatch(p, all);
}

void ClusterRouter::dispatch(const std::shared_ptr<Pending> &p, QList<qsizetype> indexes)
{
    if (!m_cluster) {
        sendTo(*m_seed, p, indexes, false);
        return;
    }
    QList<CommandSlot> slotOf;
    slotOf.reserve(indexes.size());
    // A keyless command (INFO, DBSIZE) goes with the batch's keys: GET + INFO server then
    // reads the run_id of the node that holds the key, which is what an audit record names.
    int batchOwner = -1;
    for (qsizetype i : indexes) {
        slotOf << commandSlot(p->commands[i]);
        if (batchOwner < 0 && slotOf.last().slot >= 0)
            batchOwner = m_topology.ownerOf(slotOf.last().slot);
    }
    if (batchOwner < 0) { // walks every slot: only for a batch without keys
        const QList<int> primaries = m_topology.primaries();
        if (!primaries.isEmpty())
            batchOwner = primaries.first();
    }
    std::map<int, QList<qsizetype>> byNode;
    for (qsizetype k = 0; k < indexes.size(); ++k) {
        const qsizetype i = indexes[k];
        const CommandSlot &cs = slotOf[k];
        if (!cs.crossSlot.isEmpty()) {
            finishOne(p, i, RedisError::notSent(cs.crossSlot, RedisError::Refusal::CrossSlot));
            continue;
        }
        int owner = cs.slot >= 0 ? m_topology.ownerOf(cs.slot) : -1;
        if (owner < 0)
            owner = batchOwner; // keyless, or an uncovered slot: its MOVED will say
        byNode[owner] << i;
    }
    for (auto &[owner, list] : byNode)
        sendTo(node(owner), p, list, false);
}

void ClusterRouter::sendTo(RedisClient &client, const std::shared_ptr<Pending> &p,
                           QList<qsizetype> indexes, bool asking)
{
    QList<Command> batch;
    if (asking)
        batch << Command{"ASKING"};
    for (qsizetype i : indexes)
        batch << p->commands[i];
    client.sendBatch(
        std::move(batch), this,
        [this, p, indexes, offset = asking ? 1 : 0](const QList<ReplyResult> &r) {
            for (qsizetype k = 0; k < indexes.size(); ++k)
                take(p, indexes[k], r[k + offset]);
        },
        p->timeoutMs);
}

void ClusterRouter::take(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result)
{
    const bool moved = !result.ok() && result.error().isServer("MOVED");
    const bool ask = !result.ok() && result.error().isServer("ASK");
    if (!moved && !ask) {
        // A node that is down (the write unsent, or its reply lost) may have been replaced:
        // ask again who owns what, so that the next command goes to the new primary.
        if (!result.ok() && result.error().kind != RedisError::Kind::Server)
            refreshSoon();
        finishOne(p, i, std::move(result));
        return;
    }
    const auto redirect = parseRedirect(result.error().message);
    if (!redirect) {
        finishOne(p, i, std::move(result));
        return;
    }
    if (++p->redirects[i] > m_options.maxRedirects) {
        // A redirect proves the command did not run where it was sent.
        finishOne(p, i,
                  RedisError::notSent(QStringLiteral("the cluster redirected this command %1 "
                                                     "times (last: %2): its slots are moving "
                                                     "between nodes; try again in a moment")
                                          .arg(m_options.maxRedirects)
                                          .arg(result.error().message)));
        return;
    }
    const auto [host, port] = m_options.addressMap.reachable(redirect->host, redirect->port);
    if (moved) {
        m_topology.moveSlot(redirect->slot, host, port);
        refreshSoon();
    }
    RedisClient &target = clientFor(host, port);
    if (m_redirectGuard)
        if (const auto refusal = m_redirectGuard(p->commands[i], target)) {
            finishOne(p, i, RedisError::notSent(*refusal, RedisError::Refusal::GateRefused));
            return;
        }
    sendTo(target, p, {i}, ask);
}

void ClusterRouter::finishOne(const std::shared_ptr<Pending> &p, qsizetype i, ReplyResult result)
{
    p->results[i] = std::move(result);
    if (--p->remaining > 0)
        return;
    QList<ReplyResult> out;
    out.reserve(p->results.size());
    for (auto &r : p->results)
        out << std::move(*r);
    QObject *context = p->context.data();
    if (!context)
        return;
    if (context->thread() == QThread::currentThread()) {
        p->callback(out);
        return;
    }
    QMetaObject::invokeMethod(
        context, [cb = p->callback, out = std::move(out)] { cb(out); }, Qt::QueuedConnection);
}

} // namespace redis
