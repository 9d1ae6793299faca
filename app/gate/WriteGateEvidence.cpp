// SPDX-License-Identifier: GPL-3.0-or-later
// WriteGate: reading the proof a Local label rests on, for the seed and for each cluster node
// a local session writes to, and watching the server's identity for the unlock.
#include "WriteGate.h"

#include "GateLog.h"
#include "redis/ClusterRouter.h"
#include "redis/CommandKeys.h"
#include "redis/RedisClient.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QPointer>
#include <QTimer>

namespace gate {

namespace {

core::Sentence evidenceSentence(const char *source)
{
    return core::Sentence::translated("gate::WriteGate", source);
}

const QList<redis::Command> IdentityReads{{"INFO", "server"}, {"INFO", "replication"}};

// The evidence for one connection, from its answers to IdentityReads.
LocalEvidence evidenceFrom(const QList<redis::ReplyResult> &r, const redis::ConnectionOptions &o)
{
    if (r.size() != IdentityReads.size())
        return LocalEvidence::notProven(evidenceSentence(
            QT_TRANSLATE_NOOP("gate::WriteGate", "INFO server could not be read")));
    const auto server = redis::stringOf(r[0]);
    if (!server)
        return LocalEvidence::notProven(
            evidenceSentence(
                QT_TRANSLATE_NOOP("gate::WriteGate", "INFO server could not be read (%1)"))
                .arg(server.error().message.english));
    QByteArray info = server.value();
    if (const auto replication = redis::stringOf(r[1]))
        info += "\r\n" + replication.value();
    return proveLocal(info, o.host, o.port);
}

} // namespace

void WriteGate::setStartedByConsole(qint64 pid)
{
    m_startedByConsole = true;
    LocalEvidence e = LocalEvidence::startedByConsole(pid);
    e.runId = m_evidence.runId;
    e.role = m_evidence.role;
    setEvidence(e);
}

void WriteGate::setEvidence(const LocalEvidence &evidence)
{
    const bool wasReadOnly = isReadOnly();
    const core::Sentence before = m_evidence.reason;
    m_evidence = evidence;
    if (m_claimed == profiles::Environment::Local && before != evidence.reason)
        qCInfo(lcGate) << "session on profile" << m_profileName << "-" << evidence.reason.english;
    emit environmentChanged();
    if (wasReadOnly != isReadOnly())
        emit readOnlyChanged(isReadOnly());
}

void WriteGate::onSeedState(int state)
{
    if (redis::ConnectionState(state) != redis::ConnectionState::Ready)
        return;
    // A new connection may reach another process (a restart, a failover, a tunnel put in
    // its place): what was proven is proven again, and an unlock checked against it.
    if (!m_startedByConsole && m_evidence.verdict != LocalEvidence::Verdict::Checking) {
        LocalEvidence again;
        again.runId = m_evidence.runId;
        again.role = m_evidence.role;
        setEvidence(again);
    }
    m_nodeEvidence.clear();
    readServer();
}

void WriteGate::readServer(std::function<void()> then)
{
    if (then)
        m_readWaiters << std::move(then);
    if (m_reading)
        return;
    const auto release = [this] {
        const auto waiters = std::exchange(m_readWaiters, {});
        for (const auto &w : waiters)
            w();
    };
    if (!m_seed) {
        if (!m_startedByConsole)
            setEvidence(LocalEvidence::notProven(evidenceSentence(QT_TRANSLATE_NOOP(
                "gate::WriteGate", "the gate has no direct connection to ask the server"))));
        return release();
    }
    m_reading = true;
    const redis::ConnectionOptions options = m_seed->options();
    m_seed->sendBatch(IdentityReads, this, [this, options, release](const auto &r) {
        m_reading = false;
        LocalEvidence e = evidenceFrom(r, options);
        if (m_startedByConsole) {
            LocalEvidence started = m_evidence;
            started.runId = e.runId;
            started.role = e.role;
            e = started;
        }
        setEvidence(e);
        observeServer(e.runId, e.role);
        release();
    });
}

bool WriteGate::waitForServer(int timeoutMs)
{
    QEventLoop loop;
    bool came = false;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    readServer([&] {
        came = true;
        loop.quit();
    });
    if (!came)
        loop.exec();
    return came;
}

QList<int> WriteGate::writeTargets(const QList<redis::Command> &commands,
                                   const QList<WriteDecision> &decisions) const
{
    auto *router = dynamic_cast<redis::ClusterRouter *>(&m_server);
    if (!needsNodeProof() || !router || !router->isCluster())
        return {};
    const redis::ClusterTopology &topology = router->topology();
    QList<int> out;
    for (qsizetype i = 0; i < commands.size() && i < decisions.size(); ++i) {
        if (!decisions[i].writes)
            continue;
        const int slot = redis::commandSlot(commands[i]).slot;
        const int owner = slot >= 0 ? topology.ownerOf(slot) : -1;
        // A keyless write (or a slot nobody serves yet) may land on any primary.
        for (int index : owner >= 0 ? QList<int>{owner} : topology.primaries())
            if (!out.contains(index))
                out << index;
    }
    return out;
}

LocalEvidence WriteGate::nodeEvidence(int index) const
{
    auto *router = dynamic_cast<redis::ClusterRouter *>(&m_server);
    const QString address = router->node(index).address();
    if (m_seed && address == m_seed->address())
        return m_evidence;
    return m_nodeEvidence.value(address);
}

void WriteGate::readNodes(const QList<int> &indexes, std::function<void()> then)
{
    auto *router = dynamic_cast<redis::ClusterRouter *>(&m_server);
    auto left = std::make_shared<int>(int(indexes.size()) + 1);
    const auto one = [left, then] {
        if (--*left == 0)
            then();
    };
    for (int index : indexes)
        readNode(router->node(index), one);
    one();
}

void WriteGate::readNode(redis::RedisClient &node, std::function<void()> then)
{
    const redis::ConnectionOptions options = node.options();
    if (!canProveLocal(options.host)) { // a name: nothing the answer could prove
        m_nodeEvidence.insert(node.address(), proveLocal({}, options.host, options.port));
        return then();
    }
    node.sendBatch(IdentityReads, this,
                   [this, options, address = node.address(), then](const auto &r) {
                       m_nodeEvidence.insert(address, evidenceFrom(r, options));
                       then();
                   });
}

std::optional<QString> WriteGate::redirectRefusal(const redis::Command &command,
                                                  redis::RedisClient &target)
{
    if (!needsNodeProof())
        return std::nullopt;
    const auto decision = m_traits.decideCached(command);
    if (decision && !decision->writes)
        return std::nullopt;
    const QString address = target.address();
    const LocalEvidence e =
        m_seed && address == m_seed->address() ? m_evidence : m_nodeEvidence.value(address);
    if (e.proven())
        return std::nullopt;
    if (e.checking()) {
        readNode(target, [] {});
        return QStringLiteral("not sent: the cluster redirected this write to node %1, which "
                              "is not proven local yet (a local session writes only where the "
                              "server runs on this machine); try again in a moment")
            .arg(address);
    }
    return QStringLiteral("node %1, named by a redirect, is production to this local session "
                          "(%2): unlock it (type the profile name '%3') to write there")
        .arg(address, e.reason.english, m_profileName); // sent on as an error: recorded
}

} // namespace gate
