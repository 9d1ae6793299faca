#pragma once

#include "CommandTraits.h"
#include "ConnectionProfile.h"
#include "redis/CommandSender.h"

#include <QObject>
#include <functional>

namespace session {

// Decides, for one session on one connection, whether each command writes (from the
// server's own COMMAND INFO and FUNCTION LIST, fetched lazily and cached), and whether
// writes are allowed. A session on a production profile starts read-only; typing the
// profile name unlocks it for this session only. Use from one thread (the one it lives on).
class WriteGate : public QObject
{
    Q_OBJECT
public:
    // `server` answers the gate's own lookups (COMMAND INFO, FUNCTION LIST): the connection
    // the gated commands go to, not the gated sender. Not owned; must outlive the gate.
    WriteGate(redis::CommandSender &server, const ConnectionProfile &profile,
              QObject *parent = nullptr);

    QString profileName() const { return m_profileName; }
    QString environment() const { return m_environment; }
    bool isReadOnly() const { return m_readOnly; }

    // True, and writes are allowed until lock() or the end of the session, when `typedName`
    // is exactly the profile name. Otherwise false and nothing changes.
    bool unlock(const QString &typedName);
    void lock(); // read-only again (any profile)

    // "read-only session on production profile 'X': unlock it (type the profile name) to
    // allow writes"
    QString refusalMessage() const;

    // Decides every command of a batch, fetching what the cache lacks (one round trip at
    // most). The callback runs on the context's thread, asynchronously.
    void classify(const QList<redis::Command> &commands, QObject *context,
                  std::function<void(const QList<WriteDecision> &)> done);
    // Without fetching: nullopt when something is not cached yet.
    std::optional<QList<WriteDecision>> classifyCached(const QList<redis::Command> &commands) const;
    // Fetches what classifyCached() lacks; `done(lookupFailure)` runs asynchronously, with
    // an empty text when everything came.
    void fetchMissing(const QList<redis::Command> &commands, QObject *context,
                      std::function<void(const QString &lookupFailure)> done);
    QList<WriteDecision> classifyAfterLookup(const QList<redis::Command> &commands,
                                             const QString &lookupFailure) const;

    // Called by the GatedSender for every command it forwards.
    void noteSent(const QList<redis::Command> &commands);

signals:
    void readOnlyChanged(bool readOnly);

private:
    redis::CommandSender &m_server;
    QString m_profileName;
    QString m_environment;
    bool m_readOnly = false;
    CommandTraits m_traits;
};

} // namespace session
