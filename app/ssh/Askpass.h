// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

class QLocalServer;

namespace ssh {

// Hands a key's passphrase to ssh without an argument, a file or an environment value holding
// it. ssh runs SSH_ASKPASS (SSH_ASKPASS_REQUIRE=force) with its prompt; that helper
// (inventory-ssh-askpass, ssh_askpass_main.cpp) connects to this server's socket in the
// private runtime directory, sends the prompt, and prints what it gets back. Only a peer of
// this user (SO_PEERCRED) asking for a key's passphrase gets an answer: a host-key question
// or a password prompt gets none, so ssh treats it as cancelled.
class AskpassServer : public QObject
{
    Q_OBJECT

public:
    explicit AskpassServer(QObject *parent = nullptr);
    ~AskpassServer() override;

    // Listens at `socketPath`; empty on success, else why not.
    QString listen(const QString &socketPath);
    void setPassphrase(const QByteArray &passphrase);
    bool hasPassphrase() const { return !m_passphrase.isEmpty(); }
    void close(); // stops listening; the passphrase is kept for a reconnect
    void clear(); // forgets the passphrase and stops listening
    int answered() const { return m_answered; }

private:
    void serve();

    QLocalServer *m_server = nullptr;
    QByteArray m_passphrase;
    int m_answered = 0;
};

// The helper program: $INVENTORY_SSH_ASKPASS, else next to the running program, else in the
// installed libexec directory; empty when none is found.
QString askpassHelperPath();

// Whether ssh's prompt asks for a private key's passphrase ("Enter passphrase for key ...").
bool isPassphrasePrompt(const QByteArray &prompt);

} // namespace ssh
