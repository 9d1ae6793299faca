#pragma once

#include "ProbeReport.h"

#include <QObject>
#include <memory>
#include <vector>

namespace redis {
class RedisClient;
}

namespace session {

// Tests a connection in two round trips on a connection of its own: a timed PING, then
// probeCommands(). Asynchronous: finished() comes on this object's thread; the UI never
// waits. Starting again (or cancel()) drops the previous run's result.
class ConnectionProbe : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionProbe(QObject *parent = nullptr);
    ~ConnectionProbe() override;

    void start(const ConnectionProfile &profile, const QString &password);
    void cancel();
    bool isRunning() const { return m_client != nullptr; }

    // Blocking form for the command line and tests (runs a local event loop).
    static ProbeResult run(const ConnectionProfile &profile, const QString &password);

signals:
    void finished(const session::ProbeResult &result);

private:
    void onReady(quint64 generation);
    void finish(quint64 generation, const ProbeResult &result);

    std::unique_ptr<redis::RedisClient> m_client;
    std::vector<std::unique_ptr<redis::RedisClient>> m_retired;
    ConnectionProfile m_profile;
    quint64 m_generation = 0;
};

} // namespace session
