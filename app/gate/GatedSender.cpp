// SPDX-License-Identifier: GPL-3.0-or-later
#include "GatedSender.h"

#include "GateLog.h"
#include "redis/ClusterRouter.h"

#include <QThread>
#include <QTimer>

namespace gate {

namespace {
constexpr auto FunctionNowWrites = "Can not execute a script with write flag using *_ro command";
}

GatedSender::GatedSender(redis::CommandSender &inner, WriteGate &gate, QObject *parent)
    : QObject(parent)
    , m_inner(inner)
    , m_gate(gate)
{
    // A write that a MOVED or ASK sends elsewhere is gated again, for the node it goes to.
    if (auto *router = dynamic_cast<redis::ClusterRouter *>(&inner))
        router->setRedirectGuard([gate = QPointer<WriteGate>(&gate)](const redis::Command &command,
                                                                     redis::RedisClient &target) {
            return gate
                       ? gate->redirectRefusal(command, target)
                       : std::optional<QString>(QStringLiteral("not sent: the session is closing"));
        });
}

GatedSender::~GatedSender()
{
    if (auto *router = dynamic_cast<redis::ClusterRouter *>(&m_inner))
        router->setRedirectGuard({});
}

void GatedSender::sendBatch(QList<redis::Command> commands, QObject *context,
                            redis::BatchCallback callback, int timeoutMs)
{
    Pending p{std::move(commands), context, context != nullptr, std::move(callback), timeoutMs};
    if (m_gate.passesEverything() && m_queue.empty()) {
        forward(std::move(p));
        return;
    }
    m_queue.push_back(std::move(p));
    pump();
}

void GatedSender::pump()
{
    while (!m_fetching && !m_queue.empty()) {
        if (m_queue.front().hadContext && !m_queue.front().context) {
            m_queue.pop_front(); // its caller is gone
            continue;
        }
        if (m_gate.passesEverything()) {
            Pending p = std::move(m_queue.front());
            m_queue.pop_front();
            forward(std::move(p));
            continue;
        }
        if (auto decisions = m_gate.classifyCached(m_queue.front().commands)) {
            Pending p = std::move(m_queue.front());
            m_queue.pop_front();
            decideAndSend(std::move(p), *decisions);
            continue;
        }
        m_fetching = true;
        m_gate.fetchMissing(m_queue.front().commands, this, [this](const QString &failure) {
            m_fetching = false;
            if (m_queue.empty())
                return;
            Pending p = std::move(m_queue.front());
            m_queue.pop_front();
            if (m_gate.passesEverything()) {
                forward(std::move(p));
            } else {
                const QList<WriteDecision> decisions =
                    m_gate.classifyAfterLookup(p.commands, failure);
                decideAndSend(std::move(p), decisions);
            }
            pump();
        });
        return;
    }
}

void GatedSender::forward(Pending p)
{
    m_gate.noteSent(p.commands);
    QObject *context = p.context.data();
    if (p.hadContext && !context)
        return;
    if (m_onReadOnly)
        p.callback = [cb = std::move(p.callback), onReadOnly = m_onReadOnly,
                      where = m_inner.address()](const QList<redis::ReplyResult> &results) {
            for (const redis::ReplyResult &r : results)
                if (!r.ok() && r.error().message.english.startsWith(QLatin1String("READONLY"))) {
                    onReadOnly(QStringLiteral("READONLY from %1").arg(where));
                    break;
                }
            cb(results);
        };
    m_inner.sendBatch(std::move(p.commands), context, std::move(p.callback), p.timeoutMs);
}

void GatedSender::decideAndSend(Pending p, const QList<WriteDecision> &decisions)
{
    if (const auto refusal = m_gate.writeRefusal(p.commands, decisions)) {
        refuse(std::move(p), decisions, *refusal);
        return;
    }
    const bool writes =
        std::any_of(decisions.cbegin(), decisions.cend(), [](const auto &d) { return d.writes; });
    if (writes) { // allowed where it lands
        forward(std::move(p));
        return;
    }
    // Reads only. FCALL of a no-writes function goes as FCALL_RO: should the function have
    // been replaced by one that writes, the server refuses it instead of running it.
    QList<bool> rewritten;
    for (qsizetype i = 0; i < p.commands.size(); ++i) {
        const bool asRo = decisions[i].sendAsReadOnlyCall;
        if (asRo)
            p.commands[i][0] = "FCALL_RO";
        rewritten << asRo;
    }
    if (rewritten.contains(true)) {
        const core::Sentence refusal = m_gate.refusal();
        p.callback = [cb = std::move(p.callback), rewritten,
                      refusal](const QList<redis::ReplyResult> &results) {
            QList<redis::ReplyResult> out = results;
            for (qsizetype i = 0; i < out.size() && i < rewritten.size(); ++i)
                if (rewritten[i] && !out[i].ok()
                    && out[i].error().message.english.contains(QLatin1String(FunctionNowWrites)))
                    out[i] = redis::RedisError::notSent(
                        core::Sentence::translated(
                            "gate::GatedSender",
                            QT_TRANSLATE_NOOP("gate::GatedSender",
                                              "%1 (the function now writes; the server refused "
                                              "it as FCALL_RO and ran nothing)"))
                            .arg(refusal),
                        redis::RedisError::Refusal::GateRefused);
            cb(out);
        };
    }
    forward(std::move(p));
}

void GatedSender::refuse(Pending p, const QList<WriteDecision> &decisions,
                         const redis::RedisError &base)
{
    core::Sentence firstWrite;
    QList<redis::ReplyResult> results;
    for (const WriteDecision &d : decisions)
        if (d.writes && firstWrite.isEmpty())
            firstWrite = d.reason;
    for (const WriteDecision &d : decisions)
        results << redis::ReplyResult(redis::RedisError::notSent(
            d.writes
                ? core::Sentence::translated("gate::GatedSender",
                                             QT_TRANSLATE_NOOP("gate::GatedSender", "%1 (%2)"))
                      .arg(base.message, d.reason)
                : core::Sentence::translated(
                      "gate::GatedSender",
                      QT_TRANSLATE_NOOP("gate::GatedSender",
                                        "%1 (not sent with a refused write in the same batch: %2)"))
                      .arg(base.message, firstWrite),
            base.refusal));
    qCInfo(lcGate) << "refused a write on profile" << m_gate.profileName() << "-"
                   << firstWrite.english << "-" << base.message.english;
    QObject *context = p.context.data();
    if (!context)
        return;
    QTimer::singleShot(0, context, [cb = std::move(p.callback), results] { cb(results); });
}

} // namespace gate
