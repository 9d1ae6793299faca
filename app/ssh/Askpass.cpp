// SPDX-License-Identifier: GPL-3.0-or-later
#include "Askpass.h"

#include "SshLog.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>

#include <sys/socket.h>
#include <unistd.h>

namespace ssh {

AskpassServer::AskpassServer(QObject *parent)
    : QObject(parent)
{}

AskpassServer::~AskpassServer()
{
    clear();
}

QString AskpassServer::listen(const QString &socketPath)
{
    m_answered = 0;
    if (m_server && m_server->isListening())
        return {};
    delete m_server;
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    QLocalServer::removeServer(socketPath);
    if (!m_server->listen(socketPath))
        return m_server->errorString();
    connect(m_server, &QLocalServer::newConnection, this, &AskpassServer::serve);
    return {};
}

void AskpassServer::setPassphrase(const QByteArray &passphrase)
{
    m_passphrase.fill('\0');
    m_passphrase = passphrase;
}

void AskpassServer::clear()
{
    m_passphrase.fill('\0');
    m_passphrase.clear();
    close();
}

void AskpassServer::close()
{
    if (m_server) {
        m_server->close();
        delete m_server;
        m_server = nullptr;
    }
}

bool isPassphrasePrompt(const QByteArray &prompt)
{
    return prompt.startsWith("Enter passphrase for key ");
}

void AskpassServer::serve()
{
    while (QLocalSocket *peer = m_server->nextPendingConnection()) {
        connect(peer, &QLocalSocket::disconnected, peer, &QObject::deleteLater);
        ucred cred = {};
        socklen_t len = sizeof cred;
        if (::getsockopt(int(peer->socketDescriptor()), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0
            || cred.uid != ::geteuid()) {
            qCWarning(lcSsh) << "askpass: a connection from another user was refused";
            peer->abort();
            continue;
        }
        // The helper sends its prompt and one line break, then waits for the answer.
        connect(peer, &QLocalSocket::readyRead, this, [this, peer] {
            if (!peer->canReadLine()) {
                if (peer->bytesAvailable() > 4096)
                    peer->abort();
                return;
            }
            const QByteArray prompt = peer->readLine(4096).trimmed();
            if (isPassphrasePrompt(prompt) && !m_passphrase.isEmpty()) {
                ++m_answered;
                peer->write(m_passphrase);
            } else {
                qCWarning(lcSsh) << "askpass: ssh asked something else than a key's passphrase:"
                                 << prompt.left(200) << "- no answer given";
            }
            peer->disconnectFromServer();
        });
    }
}

QString askpassHelperPath()
{
    const QString given = qEnvironmentVariable("INVENTORY_SSH_ASKPASS");
    if (!given.isEmpty())
        return given;
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {QStringLiteral("%1/inventory-ssh-askpass").arg(dir),
                                     QStringLiteral("%1/%2/inventory-ssh-askpass")
                                         .arg(dir, QLatin1String(INVENTORY_LIBEXEC_FROM_BIN))})
        if (const QFileInfo file(candidate); file.isFile() && file.isExecutable())
            return file.canonicalFilePath();
    return {};
}

} // namespace ssh
