// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>
#include <memory>

// A system keyring of the test's own, so that the console's keyring path (QtKeychain over
// libsecret) runs for real without touching the machine's keyring or its session bus: a D-Bus
// session bus (`dbus-daemon --session`) on a socket in a temp dir, and gnome-keyring-daemon's
// Secret Service on it, its files in that dir, its login keyring made and unlocked with a
// throwaway password. start() points this process at the bus (DBUS_SESSION_BUS_ADDRESS, before
// anything here talks D-Bus); environment() is for the console processes a test starts. Both
// daemons are killed by the destructor.
namespace testsupport {

class PrivateKeyring
{
public:
    PrivateKeyring();
    ~PrivateKeyring();
    PrivateKeyring(const PrivateKeyring &) = delete;
    PrivateKeyring &operator=(const PrivateKeyring &) = delete;

    bool start();
    QString errorString() const { return m_error; }
    QString busAddress() const { return m_address; }
    // The system environment with the bus and the keyring's home.
    QProcessEnvironment environment() const;

private:
    bool startBus();
    bool startKeyring();
    bool secretServiceAnswers() const;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_bus, m_keyring;
    QString m_address, m_error;
};

} // namespace testsupport
