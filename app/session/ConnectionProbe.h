// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProbeReport.h"

#include <QObject>
#include <memory>
#include <optional>
#include <vector>

namespace redis {
class RedisClient;
}

namespace session {

// Tests a connection in two round trips on a connection of its own: a timed PING, then
// probeCommands(). With a release password (a profile with a release user), it then logs in
// as the release user on another connection and dry-runs what a library change sends
// (ReleaseProbe.h). Asynchronous: finished() comes on this object's thread; the UI never
// waits. Starting again (or cancel()) drops the previous run's result.
class ConnectionProbe : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionProbe(QObject *parent = nullptr);
    ~ConnectionProbe() override;

    // releasePassword: nullopt to skip the release user's login (its permissions are then
    // asked of the session user, who may not be allowed to answer).
    void start(const profiles::ConnectionProfile &profile, const QString &password,
               const std::optional<QString> &releasePassword = std::nullopt);
    void cancel();
    bool isRunning() const { return m_client != nullptr; }

    // Blocking form for the command line and tests (runs a local event loop).
    static ProbeResult run(const profiles::ConnectionProfile &profile, const QString &password,
                           const std::optional<QString> &releasePassword = std::nullopt);

signals:
    void finished(const session::ProbeResult &result);

private:
    void onReady(quint64 generation);
    void finish(quint64 generation, const ProbeResult &result);
    void probeRelease(quint64 generation, ProbeReport report);

    std::unique_ptr<redis::RedisClient> m_client;
    std::unique_ptr<redis::RedisClient> m_releaseClient;
    std::optional<QString> m_releasePassword;
    std::vector<std::unique_ptr<redis::RedisClient>> m_retired;
    profiles::ConnectionProfile m_profile;
    quint64 m_generation = 0;
};

} // namespace session
