// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"
#include "ui/connect/SentinelOpener.h"

#include <QObject>
#include <QPointer>
#include <memory>
#include <optional>
#include <vector>

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles
namespace ssh {
class SshTunnel;
} // namespace ssh
namespace session {
class ConsoleSession;
}

namespace ui {

class MainWindow;

// The application around the windows: saved profiles, the secret store, one window per
// connection, and the "New connection" dialog every window can ask for.
class ConsoleController : public QObject
{
    Q_OBJECT
public:
    ConsoleController();
    ~ConsoleController() override; // closes the windows (their connections) first

    // Opens a window on this server; it connects at once. `startedServerPid`: the console
    // started this server itself (the demo), which makes it Local without further proof.
    // A profile with a bastion goes through `tunnel` (up); without one, the tunnel is opened
    // first (TunnelOpener, its questions over no window) and nullptr is returned: the window
    // opens once it is up (sessionOpened), or never. Nothing is ever tried directly.
    // A profile behind Sentinel has its primary found first (SentinelOpener, with the
    // sentinels' password given or else the saved one), unless `found` says it already was.
    MainWindow *openSession(const profiles::ConnectionProfile &profile, const QString &password,
                            const QString &releasePassword = {}, qint64 startedServerPid = 0,
                            std::shared_ptr<ssh::SshTunnel> tunnel = {},
                            const QString &sentinelPassword = {},
                            std::optional<FoundPrimary> found = std::nullopt);
    // Shows the connection dialog; on OK, opens a window for the saved profile (and returns
    // it), else nullptr.
    MainWindow *showConnectDialog(QWidget *parent = nullptr);

    profiles::ProfileStore &profiles() { return *m_profiles; }
    profiles::SecretStore &secrets() { return *m_secrets; }

signals:
    void sessionOpened(ui::MainWindow *window);

private:
    void openThroughTunnel(const profiles::ConnectionProfile &profile, const QString &password,
                           const QString &releasePassword, const QString &sentinelPassword);
    void openBehindSentinel(const profiles::ConnectionProfile &profile, const QString &password,
                            const QString &releasePassword, std::shared_ptr<ssh::SshTunnel> tunnel,
                            const QString &sentinelPassword);
    MainWindow *openWindow(std::unique_ptr<session::ConsoleSession> session);

    std::unique_ptr<profiles::ProfileStore> m_profiles;
    profiles::SecretStore *m_secrets = nullptr;
    std::vector<QPointer<MainWindow>> m_windows;
};

} // namespace ui
