// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterRouter.h"

#include "CommandKeys.h"
#include "Log.h"
#include "Slot.h"

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
    bool insideSend = false; // dispatching from sendBatch: a result now must be posted
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
    , m_pool(std::make_unique<ClientPool>(options.seed, options.clientFactory))
    , m_ownSource(std::make_unique<TopologySource>(
          *m_pool, TopologySource::Options{options.addressMap, options.refreshIntervalMs,
                                           options.refreshGapMs, options.clientFactory}))
    , m_source(m_ownSource.get())
    , m_maxRedirects(options.maxRedirects)
{
    connect(m_source, &TopologySource::topologyChanged, this, &ClusterRouter::onTopologyChanged);
}

ClusterRouter::ClusterRouter(TopologySource &source, ConnectionOptions laneSeed, int maxRedirects,
                             QObject *parent)
    : QObject(parent)
    , m_pool(std::make_unique<ClientPool>(std::move(laneSeed), source.clientFactory()))
    , m_source(&source)
    , m_maxRedirects(maxRedirects)
{
    m_pool->setOnCreated([&source](RedisClient &client) { source.watch(client); });
    m_pool->seed();
    connect(m_source, &TopologySource::topologyChanged, this, &ClusterRouter::onTopologyChanged);
}

ClusterRouter::~ClusterRouter()
{
    auto waiting = std::move(m_waiting);
    for (auto &p : waiting)
        for (qsizetype i = 0; i < p->commands.size(); ++i)
            finishOne(p, i,
                      RedisError::notSent(core::Sentence::translated(
                          "redis::ClusterRouter",
                          QT_TRANSLATE_NOOP("redis::ClusterRouter", "the connection was closed"))));
}

void ClusterRouter::open()
{
    if (!m_opened) {
        m_opened = true;
        if (!m_ownSource) // the first lane's seed is the source's, which opens it
            seed().open();
    }
    m_source->open();
}

void ClusterRouter::reconnect()
{
    if (isCluster())
        for (const ClusterNode &n : topology().nodes())
            clientFor(n.host, n.port).open();
    seed().open();
    m_source->readNow();
}

void ClusterRouter::retargetSeed(const QString &host, quint16 port, const QString &why)
{
    m_pool->retargetBase(host, port, why);
    if (m_ownSource && m_opened)
        m_source->readNow();
}

QString ClusterRouter::address() const
{
    return m_pool->seed().address();
}

QList<ScanNode> ClusterRouter::scanNodes()
{
    if (!isCluster())
        return {ScanNode{&seed(), address()}};
    QList<ScanNode> out;
    for (int i : topology().primaries())
        out << ScanNode{&node(i), topology().nodes().at(i).address()};
    return out;
}

core::Sentence ClusterRouter::coverageProblem() const
{
    return isCluster() ? topology().coverageProblem(address()) : core::Sentence();
}

void ClusterRouter::onTopologyChanged()
{
    auto waiting = std::move(m_waiting);
    m_waiting.clear();
    if (!discovered()) {
        // Not reachable: what waited hears why, unsent; the next command asks again.
        for (auto &p : waiting)
            for (qsizetype i = 0; i < p->commands.size(); ++i)
                finishOne(p, i, RedisError::notSent(discoveryError()));
        emit topologyChanged();
        return;
    }
    if (isCluster())
        closeUnlisted();
    emit topologyChanged();
    for (auto &p : waiting) {
        QList<qsizetype> all;
        for (qsizetype i = 0; i < p->commands.size(); ++i)
            all << i;
        dispatch(p, all);
    }
}

RedisClient &ClusterRouter::clientFor(const QString &host, quint16 port)
{
    return m_pool->at(host, port);
}

void ClusterRouter::closeUnlisted()
{
    // The seed stays whatever the map says: it is the session's own address.
    QSet<QString> listed{m_pool->base().address()};
    for (const ClusterNode &n : topology().nodes())
        listed << m_pool->addressOf(n.host, n.port);
    m_pool->closeAllBut(listed);
}

RedisClient &ClusterRouter::node(int index)
{
    if (!isCluster() || index < 0 || index >= topology().nodes().size())
        return seed();
    const ClusterNode &n = topology().nodes().at(index);
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
        seed().sendBatch({}, context, std::move(p->callback), timeoutMs);
        return;
    }
    if (!discovered()) {
        m_waiting.push_back(p);
        m_source->readNow();
        return;
    }
    QList<qsizetype> all;
    for (qsizetype i = 0; i < p->commands.size(); ++i)
        all << i;
    p->insideSend = true;
    dispatch(p, all);
    p->insideSend = false;
}

void ClusterRouter::dispatch(const std::shared_ptr<Pending> &p, QList<qsizetype> indexes)
{
    if (!isCluster()) {
        sendTo(seed(), p, indexes, false);
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
            batchOwner = topology().ownerOf(slotOf.last().slot);
    }
    if (batchOwner < 0) { // walks every slot: only for a batch without keys
        const QList<int> primaries = topology().primaries();
        if (!primaries.isEmpty())
            batchOwner = primaries.first();
    }
    std::map<int, QList<qsizetype>> byNode;
    for (qsizetype k = 0; k < indexes.size(); ++k) {
        const qsizetype i = indexes[k];
        const CommandSlot &cs = slotOf[k];
        if (!cs.crossSlot.isEmpty()) {
            finishOne(p, i,
                      RedisError::notSent(core::Sentence::plain(cs.crossSlot),
                                          RedisError::Refusal::CrossSlot));
            continue;
        }
        int owner = cs.slot >= 0 ? topology().ownerOf(cs.slot) : -1;
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
            m_source->refreshSoon();
        finishOne(p, i, std::move(result));
        return;
    }
    const auto redirect = parseRedirect(result.error().message.english);
    if (!redirect) {
        finishOne(p, i, std::move(result));
        return;
    }
    if (++p->redirects[i] > m_maxRedirects) {
        // A redirect proves the command did not run where it was sent.
        finishOne(p, i,
                  RedisError::notSent(
                      core::Sentence::translated(
                          "redis::ClusterRouter",
                          QT_TRANSLATE_NOOP("redis::ClusterRouter",
                                            "the cluster redirected this command %1 times (last: "
                                            "%2): its slots are moving between nodes; try again "
                                            "in a moment"))
                          .arg(m_maxRedirects, result.error().message)));
        return;
    }
    const auto [host, port] = addressMap().reachable(redirect->host, redirect->port);
    if (moved)
        m_source->noteMoved(redirect->slot, host, port);
    RedisClient &target = clientFor(host, port);
    if (m_redirectGuard)
        if (const auto refusal = m_redirectGuard(p->commands[i], target)) {
            finishOne(p, i,
                      RedisError::notSent(core::Sentence::plain(*refusal),
                                          RedisError::Refusal::GateRefused));
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
    if (!p->insideSend && context->thread() == QThread::currentThread()) {
        p->callback(out);
        return;
    }
    QMetaObject::invokeMethod(
        context, [cb = p->callback, out = std::move(out)] { cb(out); }, Qt::QueuedConnection);
}

} // namespace redis
