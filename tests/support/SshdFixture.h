// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

// A private sshd for tests: /usr/sbin/sshd -D -e with its own configuration, host key, client
// keys and authorized_keys in a temp dir, listening on a free 127.0.0.1 port. Nothing of the
// machine's sshd is read or changed. Torn down by the destructor (and killed with the test
// process: PR_SET_PDEATHSIG).
namespace testsupport {

class Sshd
{
public:
    Sshd();
    ~Sshd();
    Sshd(const Sshd &) = delete;
    Sshd &operator=(const Sshd &) = delete;

    // Generates the keys and starts on a free port; waits until the port answers with an SSH
    // banner. False with errorString() on failure.
    bool start();
    // Stops and starts again on the same port; with newHostKey a fresh host key first (a
    // reinstalled bastion, or an attacker in the middle).
    bool restart(bool newHostKey = false);
    // SIGKILL to the listener and every session it forked (each session is a process group
    // of its own, so killing the listener alone leaves the connections up).
    void kill();
    void stop();
    bool isRunning() const;
    // Sends `signal` to every session process (not the listener): SIGSTOP makes a silent
    // bastion whose connections stay open, SIGCONT wakes it.
    void signalSessions(int signal);
    // Accepts this public key too (a client key of another fixture, for a jump host).
    bool authorize(const QString &publicKeyFile);

    QString errorString() const { return m_error; }
    quint16 port() const { return m_port; }
    // The user sshd logs in: the one running the test.
    static QString user();
    QString clientKey() const;      // a private key sshd accepts (no passphrase)
    QString otherClientKey() const; // one it does not
    // A private key sshd accepts, encrypted with encryptedKeyPassphrase().
    QString encryptedClientKey() const;
    static QByteArray encryptedKeyPassphrase() { return "correct horse battery"; }
    QString hostPublicKeyFile() const;
    // The host key's SHA256 fingerprint as `ssh-keygen -lf` prints it.
    QString hostKeyFingerprint() const;
    QString directory() const { return m_dir.path(); }
    QString log() const; // the last lines, for a message
    // Everything sshd logged (at LogLevel DEBUG: the target of each forwarded connection).
    QString fullLog() const;

private:
    bool writeConfig();
    bool launch();
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_error;
};

// Runs ssh-keygen with these arguments; empty on success, else its output.
QString runSshKeygen(const QStringList &args);
// `ssh-keygen -l -E sha256 -f <file>`'s fingerprint, empty on failure.
QString keygenFingerprint(const QString &publicKeyFile);
// The pids of every process below `pid` (children, their children...).
QList<qint64> descendantProcesses(qint64 pid);

} // namespace testsupport
