// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CommandTraits.h"
#include "LocalProof.h"
#include "core/Wording.h"
#include "profiles/ConnectionProfile.h"
#include "redis/CommandSender.h"

#include <QHash>
#include <QObject>
#include <functional>

class QTimer;

namespace redis {
class RedisClient;
}

namespace gate {

// Decides, for one session on one connection, whether each command writes (from the
// server's own COMMAND INFO and FUNCTION LIST, fetched lazily and cached), and whether
// writes are allowed. The one place the label a session acts on is decided:
// - a production profile (or a label this version cannot read) starts read-only;
// - a Local claim (the label local, or an unlabelled host written as loopback) holds only
//   once proven (LocalProof: the server's process runs here and owns the socket reached);
//   until then writes wait for the proof, and without it the session is production;
// - on a cluster, a Local session writes only to nodes proven local themselves: a node
//   that is not is production, and a write to it needs the session unlocked (D15).
// Typing the profile name unlocks the session until lock(), a restart or failover of the
// server (run_id or role changed), or idleTimeoutMs without a write; each unlock and each
// lock again is an audit record. Use from one thread (the one it lives on).
class WriteGate : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultIdleTimeoutMs = 15 * 60 * 1000;

    // `server` answers the gate's own lookups (COMMAND INFO, FUNCTION LIST): the connection
    // the gated commands go to, not the gated sender. Not owned; must outlive the gate. When
    // it is a RedisClient or a ClusterRouter, its (seed) connection is where the proof is
    // read, again after each reconnect.
    WriteGate(redis::CommandSender &server, const profiles::ConnectionProfile &profile,
              QObject *parent = nullptr);
    ~WriteGate() override;

    QString profileName() const { return m_profileName; }
    // The label acted on (effectiveEnvironment), as a word: "local", "production", ...
    QString environment() const;
    profiles::Environment environmentKind() const;
    // What the profile claims, before any evidence.
    profiles::Environment claimedEnvironment() const { return m_claimed; }
    // The seed's local proof (Checking until read); meaningful when the claim is Local.
    const LocalEvidence &evidence() const { return m_evidence; }
    // One line for the banner and its tooltip: why the session has its label. The audit
    // record takes the English.
    QString environmentReason(core::Wording wording = core::Wording::Translated) const;
    bool isReadOnly() const;
    // Production is allowed: the profile name was typed.
    bool isUnlocked() const { return m_unlocked; }

    // The console started the server itself (the embedded demo): Local without reading /proc.
    void setStartedByConsole(qint64 pid);
    // Where unlock and lock-again records go (default: inventory::AuditLog::defaultPath()).
    void setAuditLogPath(const QString &path) { m_auditLogPath = path; }
    void setIdleTimeoutMs(int ms);
    int idleTimeoutMs() const { return m_idleTimeoutMs; }

    // Reads the server's identity and the local proof now (asynchronously), unless a read is
    // already out; `then` runs (on this thread) once it has come.
    void readServer(std::function<void()> then = {});
    // The blocking form for the CLI: false when nothing came within timeoutMs.
    bool waitForServer(int timeoutMs);
    // The overview poller's view of the server: a run_id or role other than the one the
    // unlock was given on locks the session again.
    void observeServer(const QString &runId, const QString &role);

    // True, and production writes are allowed until lock(), when `typedName` is exactly the
    // profile name and the unlock was recorded in the audit log. Otherwise false (see
    // unlockError()) and nothing changes.
    bool unlock(const QString &typedName);
    QString unlockError() const { return m_unlockError; }
    // Read-only again; `reason` (recorded and shown) says why when it is not the user's click.
    void lock(const core::Sentence &reason = {});
    // Why the last lock happened ("" after an unlock, or for a user's lock); the audit record
    // has the English.
    QString lockReason(core::Wording wording = core::Wording::Translated) const
    {
        return m_lockReason.in(wording);
    }

    // "read-only session on production profile 'X': unlock it (type the profile name) to
    // allow writes". English by default: it is sent on as a refused command's error, which
    // the audit record and the CLI quote; the window's notices ask for Translated.
    QString refusalMessage(core::Wording wording = core::Wording::English) const;
    // Both copies, for a refusal that travels as a RedisError.
    core::Sentence refusal() const
    {
        return {refusalMessage(core::Wording::English), refusalMessage(core::Wording::Translated)};
    }

    // Decides every command of a batch, fetching what the cache lacks. The callback runs on
    // the context's thread, asynchronously.
    void classify(const QList<redis::Command> &commands, QObject *context,
                  std::function<void(const QList<WriteDecision> &)> done);
    // Without fetching: nullopt when something is not known yet (a command's traits, or, for
    // a batch that writes, the proof a decision needs).
    std::optional<QList<WriteDecision>> classifyCached(const QList<redis::Command> &commands) const;
    // Fetches what classifyCached() lacks; `done(lookupFailure)` runs asynchronously, with
    // an empty text when everything came.
    void fetchMissing(const QList<redis::Command> &commands, QObject *context,
                      std::function<void(const QString &lookupFailure)> done);
    QList<WriteDecision> classifyAfterLookup(const QList<redis::Command> &commands,
                                             const QString &lookupFailure) const;
    // Every batch may go out as it is: writes are allowed everywhere they can land.
    bool passesEverything() const;
    // Why a classified batch may not go out (not sent, with the refusal's code); nullopt when
    // it may.
    std::optional<redis::RedisError> writeRefusal(const QList<redis::Command> &commands,
                                                  const QList<WriteDecision> &decisions) const;

    // A cluster router's RedirectGuard: a write that a MOVED or ASK sends to a node this
    // local session has no proof for is refused (and the node's proof read for next time).
    std::optional<QString> redirectRefusal(const redis::Command &command,
                                           redis::RedisClient &target);

    // Called by the GatedSender for every command it forwards.
    void noteSent(const QList<redis::Command> &commands);

signals:
    void readOnlyChanged(bool readOnly);
    // The label acted on or its reason changed (the proof came, or was read again).
    void environmentChanged();

private:
    // The cluster nodes (indexes in the router's topology) the batch's writes would go to;
    // empty when the server is not a cluster or the session needs no per-node proof.
    QList<int> writeTargets(const QList<redis::Command> &commands,
                            const QList<WriteDecision> &decisions) const;
    bool needsNodeProof() const;
    // The proof for one node; Checking when it has not been read.
    LocalEvidence nodeEvidence(int index) const;
    void readNodes(const QList<int> &indexes, std::function<void()> then);
    void readNode(redis::RedisClient &node, std::function<void()> then);
    void fetchTraits(const QList<redis::Command> &commands, std::function<void(QString)> done);
    void setEvidence(const LocalEvidence &evidence);
    void onSeedState(int state);
    // Appends an audit record; the failure in words, empty when it was kept.
    core::Sentence record(const QString &action, const QString &result,
                          const QString &detail) const;
    void touchIdle();

    redis::CommandSender &m_server;
    redis::RedisClient *m_seed = nullptr; // where the proof is read; null: not provable
    QString m_profileName;
    QString m_label; // the profile's label as written
    profiles::Environment m_claimed = profiles::Environment::Production;
    LocalEvidence m_evidence;
    bool m_startedByConsole = false;
    bool m_unlocked = false;
    QString m_unlockRunId;
    QString m_unlockRole;
    QString m_unlockError;
    core::Sentence m_lockReason;
    QString m_auditLogPath;
    int m_idleTimeoutMs = DefaultIdleTimeoutMs;
    QTimer *m_idle = nullptr;
    bool m_reading = false;
    QList<std::function<void()>> m_readWaiters;
    QHash<QString, LocalEvidence> m_nodeEvidence; // by host:port
    CommandTraits m_traits;
};

} // namespace gate
