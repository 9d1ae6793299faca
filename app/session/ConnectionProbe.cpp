// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionProbe.h"

#include "ReleaseProbe.h"
#include "SessionLog.h"
#include "redis/Blocking.h"
#include "redis/RedisClient.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>

namespace session {

ConnectionProbe::ConnectionProbe(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<session::ProbeResult>();
}

ConnectionProbe::~ConnectionProbe() = default;

void ConnectionProbe::start(const profiles::ConnectionProfile &profile, const QString &password,
                            const std::optional<QString> &releasePassword)
{
    cancel();
    const quint64 generation = ++m_generation;
    m_profile = profile;
    m_releasePassword = releasePassword;
    redis::ConnectionOptions options = profile.toConnectionOptions(password);
    options.autoReconnect = false;
    options.clientName = "inventory-console-probe";
    m_client = std::make_unique<redis::RedisClient>(options);
    connect(m_client.get(), &redis::RedisClient::stateChanged, this,
            [this, generation](redis::ConnectionState state) {
                if (generation != m_generation)
                    return;
                if (state == redis::ConnectionState::Ready)
                    onReady(generation);
                else if (state == redis::ConnectionState::Failed
                         || state == redis::ConnectionState::Closed)
                    finish(generation,
                           classifyConnectionFailure(m_client->failure(), m_client->stateDetail(),
                                                     m_profile.tls.enabled));
            });
    qCDebug(lcSession) << "probing" << options.address() << (options.tls.enabled ? "(TLS)" : "");
    m_client->open();
}

void ConnectionProbe::cancel()
{
    ++m_generation;
    if (!m_client)
        return;
    // This may run inside one of the client's own signals: retire it, delete it from the
    // event loop (or with this probe, whichever comes first).
    m_retired.push_back(std::move(m_client));
    if (m_releaseClient)
        m_retired.push_back(std::move(m_releaseClient));
    QTimer::singleShot(0, this, [this] { m_retired.clear(); });
}

void ConnectionProbe::onReady(quint64 generation)
{
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    m_client->send({"PING"}, this, [this, generation, timer](const redis::ReplyResult &pong) {
        if (generation != m_generation)
            return;
        const double latencyMs = double(timer->nsecsElapsed()) / 1e6;
        if (!pong.ok()) {
            finish(generation, probeCommandFailed(QStringLiteral("PING"), pong.error()));
            return;
        }
        m_client->sendBatch(probeCommands(m_profile), this,
                            [this, generation, latencyMs](const QList<redis::ReplyResult> &r) {
                                if (generation != m_generation)
                                    return;
                                auto decoded = decodeProbe(m_profile, r);
                                if (!decoded.ok()) {
                                    finish(generation, decoded.error());
                                    return;
                                }
                                ProbeReport report = decoded.value();
                                report.address = m_client->address();
                                report.tls = m_client->options().tls.enabled;
                                report.latencyMs = latencyMs;
                                if (m_releasePassword && !m_profile.releaseUsername.isEmpty())
                                    probeRelease(generation, report);
                                else
                                    finish(generation, report);
                            });
    });
}

void ConnectionProbe::probeRelease(quint64 generation, ProbeReport report)
{
    redis::ConnectionOptions options = m_profile.toReleaseConnectionOptions(*m_releasePassword);
    options.autoReconnect = false;
    options.clientName = "inventory-console-probe-release";
    m_releaseClient = std::make_unique<redis::RedisClient>(options);
    const QString user = m_profile.releaseUsername;
    connect(m_releaseClient.get(), &redis::RedisClient::stateChanged, this,
            [this, generation, report, user](redis::ConnectionState state) mutable {
                if (generation != m_generation)
                    return;
                if (state == redis::ConnectionState::Ready) {
                    m_releaseClient->sendBatch(
                        releaseProbeCommands(m_profile), this,
                        [this, generation, report](const QList<redis::ReplyResult> &r) mutable {
                            if (generation != m_generation)
                                return;
                            applyReleaseProbe(report, m_profile, r);
                            finish(generation, report);
                        });
                } else if (state == redis::ConnectionState::Failed
                           || state == redis::ConnectionState::Closed) {
                    applyReleaseFailure(report, user,
                                        classifyConnectionFailure(m_releaseClient->failure(),
                                                                  m_releaseClient->stateDetail(),
                                                                  m_profile.tls.enabled));
                    finish(generation, report);
                }
            });
    qCDebug(lcSession) << "probing the release user" << user;
    m_releaseClient->open();
}

void ConnectionProbe::finish(quint64 generation, const ProbeResult &result)
{
    if (generation != m_generation)
        return;
    cancel(); // closes the probe's connection; later signals of this run are dropped
    if (result.ok())
        qCDebug(lcSession) << "probe ok:" << result->address << result->server.label();
    else
        qCInfo(lcSession) << "probe failed:" << failureKindName(result.error().kind);
    emit finished(result);
}

ProbeResult ConnectionProbe::run(const profiles::ConnectionProfile &profile,
                                 const QString &password,
                                 const std::optional<QString> &releasePassword)
{
    ConnectionProbe probe;
    return redis::blockUntilReply<ProbeResult>([&](QObject *context, auto done) {
        connect(&probe, &ConnectionProbe::finished, context, done);
        probe.start(profile, password, releasePassword);
    });
}

} // namespace session
