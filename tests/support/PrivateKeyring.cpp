// SPDX-License-Identifier: GPL-3.0-or-later
#include "PrivateKeyring.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace testsupport {

PrivateKeyring::PrivateKeyring() = default;

PrivateKeyring::~PrivateKeyring()
{
    for (auto *p : {m_keyring.get(), m_bus.get()}) {
        if (p && p->state() != QProcess::NotRunning) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
}

QProcessEnvironment PrivateKeyring::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_address);
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("run")));
    env.remove(QStringLiteral("INVENTORY_SECRETS")); // the keyring, not the session's memory
    return env;
}

bool PrivateKeyring::start()
{
    for (const char *program : {"dbus-daemon", "gnome-keyring-daemon"})
        if (QStandardPaths::findExecutable(QLatin1String(program)).isEmpty()) {
            m_error = QStringLiteral("no %1 (Debian: dbus, gnome-keyring; scripts/deps installs "
                                     "them)")
                          .arg(QLatin1String(program));
            return false;
        }
    if (!m_dir.isValid() || !QDir(m_dir.path()).mkpath(QStringLiteral("run"))
        || !QDir(m_dir.path()).mkpath(QStringLiteral("home"))) {
        m_error = QStringLiteral("no temp dir for the keyring");
        return false;
    }
    QFile::setPermissions(m_dir.filePath(QStringLiteral("run")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (!startBus() || !startKeyring())
        return false;
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
    qunsetenv("INVENTORY_SECRETS");
    return true;
}

bool PrivateKeyring::startBus()
{
    // A bus of its own with no service directories: nothing of the machine's is started on
    // it by activation (a second keyring, a prompter), only what this fixture starts.
    QFile config(m_dir.filePath(QStringLiteral("bus.conf")));
    if (!config.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write the bus configuration");
        return false;
    }
    config.write(QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus "
                                "Configuration 1.0//EN\" "
                                "\"http://www.freedesktop.org/standards/dbus/1.0/"
                                "busconfig.dtd\">\n"
                                "<busconfig><type>session</type>"
                                "<listen>unix:path=%1</listen><auth>EXTERNAL</auth>"
                                "<policy context=\"default\">"
                                "<allow send_destination=\"*\" eavesdrop=\"true\"/>"
                                "<allow eavesdrop=\"true\"/>"
                                "<allow own=\"*\"/></policy></busconfig>\n")
                     .arg(m_dir.filePath(QStringLiteral("bus")))
                     .toUtf8());
    config.close();
    m_bus = std::make_unique<QProcess>();
    m_bus->start(QStringLiteral("dbus-daemon"),
                 {QStringLiteral("--config-file=") + config.fileName(), QStringLiteral("--nofork"),
                  QStringLiteral("--print-address=1")});
    QDeadlineTimer deadline(10000);
    while (!m_bus->canReadLine() && m_bus->state() != QProcess::NotRunning
           && !deadline.hasExpired())
        m_bus->waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
    m_address = QString::fromUtf8(m_bus->readLine()).trimmed();
    if (m_address.isEmpty())
        m_error = QStringLiteral("dbus-daemon printed no address: %1")
                      .arg(QString::fromUtf8(m_bus->readAllStandardError()));
    return !m_address.isEmpty();
}

bool PrivateKeyring::startKeyring()
{
    QProcessEnvironment env = environment();
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("home/data")));
    m_keyring = std::make_unique<QProcess>();
    m_keyring->setProcessEnvironment(env);
    m_keyring->setProcessChannelMode(QProcess::MergedChannels);
    // --unlock reads the login keyring's password from stdin and makes that keyring if there
    // is none, without a prompt (there is no display to show one on).
    m_keyring->start(QStringLiteral("gnome-keyring-daemon"),
                     {QStringLiteral("--foreground"), QStringLiteral("--unlock"),
                      QStringLiteral("--components=secrets")});
    if (!m_keyring->waitForStarted(10000)) {
        m_error =
            QStringLiteral("gnome-keyring-daemon did not start: %1").arg(m_keyring->errorString());
        return false;
    }
    m_keyring->write("throwaway-unlock-password");
    m_keyring->closeWriteChannel();
    QDeadlineTimer deadline(20000);
    while (!secretServiceAnswers()) {
        if (deadline.hasExpired() || m_keyring->state() == QProcess::NotRunning) {
            m_error = QStringLiteral("the Secret Service did not appear on the private bus: %1")
                          .arg(QString::fromUtf8(m_keyring->readAll()));
            return false;
        }
        m_keyring->waitForReadyRead(100); // wakes on its output, or looks again
    }
    return true;
}

// Whether the login collection answers on the bus (it exists once the keyring unlocked it).
bool PrivateKeyring::secretServiceAnswers() const
{
    QProcess probe;
    probe.setProcessEnvironment(environment());
    probe.start(QStringLiteral("dbus-send"),
                {QStringLiteral("--session"), QStringLiteral("--print-reply"),
                 QStringLiteral("--dest=org.freedesktop.secrets"),
                 QStringLiteral("/org/freedesktop/secrets/aliases/default"),
                 QStringLiteral("org.freedesktop.DBus.Properties.Get"),
                 QStringLiteral("string:org.freedesktop.Secret.Collection"),
                 QStringLiteral("string:Locked")});
    return probe.waitForFinished(5000) && probe.exitCode() == 0
           && probe.readAllStandardOutput().contains("boolean false");
}

} // namespace testsupport
