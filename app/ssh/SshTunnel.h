// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Askpass.h"
#include "SshError.h"
#include "SshFiles.h"
#include "SshTarget.h"
#include "core/Result.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QStringList>
#include <QTimer>
#include <memory>

namespace ssh {

struct SshOptions
{
    int connectTimeoutSec = 10; // ConnectTimeout, per hop
    int aliveIntervalSec = 5;   // ServerAliveInterval: a silent bastion is found dead after
    int aliveCountMax = 3;      // interval * count seconds
    QString knownHostsFile;     // empty: defaultKnownHostsFile()
};

// One authenticated OpenSSH master connection to a bastion (`ssh -M -S <socket> -N`), and
// local forwards added to it as nodes are needed (`ssh -O forward -L 127.0.0.1:p:host:port`).
// Runs the system's ssh: its agent, keys, ProxyJump, algorithms and host-key checks. Nothing
// secret is put in an argument, a file or a log: keys stay in the agent or in their own file.
//
// The options that matter for safety are written to a private ssh configuration (0600, in the
// 0700 runtime directory) and given with -F, not as -o arguments: ssh passes -F, and not -o,
// to the ssh it starts for a jump host, so the jump hop is checked as strictly as the bastion.
//
// Lives on one thread (QProcess): start() returns at once, established() or failed() follow;
// forward() and trustHostKey() wait for short local ssh runs.
class SshTunnel : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Starting, Up, Failed, Closed };
    Q_ENUM(State)
    // ReplaceChanged allows trusting a key that replaces a changed one; a production profile
    // never passes it.
    enum class TrustMode { UnknownOnly, ReplaceChanged };

    explicit SshTunnel(SshTarget target, SshOptions options = {}, QObject *parent = nullptr);
    ~SshTunnel() override;

    // The identity file's passphrase, for a key that is not in the agent: served once per
    // prompt to ssh's askpass helper over the private runtime directory (never an argument,
    // a file or an environment value), kept in memory for reconnects until the tunnel is
    // destroyed.
    void setPassphrase(const QByteArray &passphrase) { m_askpass.setPassphrase(passphrase); }
    void start();
    // Runs an event loop until the tunnel is up (true) or failed, or the time is over.
    bool waitUntilSettled(int timeoutMs);
    State state() const { return m_state; }
    SshError error() const { return m_error; }

    // Safe from any thread. A local port on 127.0.0.1 that reaches host:port as the bastion sees
    // it. The same host:port gives the same port while the tunnel lives, and again once start() has
    // brought a dead tunnel back (close() forgets them).
    core::Result<quint16, SshError> forward(const QString &host, quint16 port);
    // `ssh -O exit`, then the master is killed if it does not exit. No died() signal.
    void close();
    // The bastion as written (user@host:port), for messages.
    QString bastionDisplay() const { return m_target.bastion.display(); }

    // Trusts the host key named by the last HostKeyUnknown (or HostKeyChanged with
    // ReplaceChanged) error, or the bastion's when there was none: connects again without
    // authenticating, takes the key the host offers now, and writes it to the console's
    // known_hosts only when its SHA256 fingerprint is exactly `fingerprint`.
    core::Result<bool, SshError> trustHostKey(const QString &fingerprint,
                                              TrustMode mode = TrustMode::UnknownOnly);

    QString runtimeDirectory() const { return m_dir.path(); }
    QString controlPath() const;
    QString knownHostsFile() const { return m_knownHosts; }
    qint64 masterPid() const;
    QStringList masterArguments() const;

signals:
    void established();
    void failed(const ssh::SshError &error); // before it was up
    void died(const ssh::SshError &error);   // after it was up: commands in flight are unknown

private:
    core::Result<bool, SshError> prepare();
    QStringList destinationArguments(const SshEndpoint &endpoint) const;
    // ssh's arguments for a command to the master (a forward, a session, exit): the private
    // configuration, the control socket, these options and the bastion.
    QStringList masterClientArguments(const QStringList &options) const;
    QStringList forwardArguments(quint16 local, const QString &key) const;
    void switchOffNagleOnTheBastion();
    void restoreForwards();
    void readMasterOutput();
    void checkReady();
    void masterFinished();
    void fail(SshError error);
    core::Result<QByteArray, SshError> probeHostKey(const SshEndpoint &endpoint, bool viaJump);

    SshTarget m_target;
    SshOptions m_options;
    QString m_knownHosts;
    PrivateRuntimeDirectory m_dir;
    QString m_config;
    std::unique_ptr<QProcess> m_master;
    QPointer<QProcess> m_bastionSession; // switchOffNagleOnTheBastion()'s, while it runs
    QStringList m_output;                // the master's stderr lines, the last few hundred
    QString m_partial;
    QTimer m_readyPoll;
    QTimer m_startDeadline;
    State m_state = State::Idle;
    SshError m_error;
    // forward() may be asked from the thread a connection is made on (a route), not only this
    // object's: the forwards are kept under a lock.
    QMutex m_forwardLock;
    QHash<QString, quint16> m_forwards;
    AskpassServer m_askpass;
};

} // namespace ssh
