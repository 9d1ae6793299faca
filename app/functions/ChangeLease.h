// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChangePlan.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>

namespace functions {

// The lock a library change holds on every node it writes to, so that two changes (two
// inventory-cli runs, a wizard and a script) never interleave their read, backup and load.
// It is a key on the node itself, taken with SET <key> <value> NX PX <leaseMs()>: whoever runs
// the change, from whichever machine, sees it. The value names the holder (program, pid,
// host, OS user, library, action, start time) and carries a random token; the lease is
// renewed every leaseMs() / 3 while held and checked just before each write, and given back
// only by its owner (a compare-and-delete script with the value passed as an argument). A
// holder that dies leaves a key that lapses within leaseMs().
class ChangeLease : public QObject
{
    Q_OBJECT
public:
    // The lease is 60 s, or four command timeouts if that is longer: renewed every third of
    // it, it always outlasts the write that follows the check by more than a timeout.
    static constexpr int MinLeaseMs = 60000;
    int leaseMs() const { return m_leaseMs; }

    ChangeLease(int timeoutMs, QObject *parent = nullptr);
    ~ChangeLease() override;

    // Takes the lease on every node or on none. `done` gets an empty sentence when held, else
    // why not: who holds it since when, when it lapses, what to do; or the error that stopped
    // it (a lease taken on some nodes is given back first).
    void acquire(const QList<ChangeTarget> &nodes, const QString &library, const QString &action,
                 std::function<void(const core::Sentence &error)> done);
    // Gives the lease back where this object holds it; `done` once every node answered.
    void release(std::function<void()> done);
    bool held() const { return !m_nodes.isEmpty(); }

    // Read with the state just before each write: the write goes only if the lease on `node`
    // is still ours and lasts longer than the write may take (the command timeout), so no
    // other change can take it before the write has run. Reads, not a renewal: a server
    // whose writes are paused (CLIENT PAUSE WRITE) still answers them. heldBy() reads the
    // two replies: empty when the write may go, else why not.
    static QList<redis::Command> checkCommands(const ChangeTarget &node);
    core::Sentence heldBy(const QString &address, const redis::ReplyResult &value,
                          const redis::ReplyResult &pttl) const;
    // Every command the lease sends to `node`, for the preflight's ACL DRYRUN.
    static QList<redis::Command> commandsFor(const ChangeTarget &node);

private:
    redis::Command renewCommand(const ChangeTarget &node) const;
    void renewAll();

    int m_timeoutMs;
    int m_leaseMs;
    QByteArray m_value;
    QList<ChangeTarget> m_nodes; // where it is held
    // Each node's connection while it exists (null for one that is not a QObject): what the
    // destructor may still send through.
    QList<QPointer<QObject>> m_alive;
    QTimer m_renewal;
};

// The key on a cluster primary: ChangeLockKey with the hash tag {<n>} for the smallest n whose
// slot the node serves, since a node only holds its own slots' keys. Every console computes
// the same key for the same node.
QByteArray leaseKeyForSlots(const std::function<bool(int slot)> &served);

} // namespace functions
