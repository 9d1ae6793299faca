#include "ConsoleController.h"

#include "ConnectionDialog.h"
#include "MainWindow.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "ssh/SshTunnel.h"
#include "ui/connect/TunnelOpener.h"

#include <QGuiApplication>
#include <QScreen>

namespace ui {

ConsoleController::ConsoleController()
    : m_profiles(std::make_unique<profiles::ProfileStore>())
    , m_secrets(new profiles::SecretStore(profiles::SecretStore::Mode::Auto,
                                          QStringLiteral("inventory-console"), this))
{}

ConsoleController::~ConsoleController()
{
    for (auto &w : m_windows)
        delete w.data();
}

MainWindow *ConsoleController::openSession(const profiles::ConnectionProfile &profile,
                                           const QString &password, const QString &releasePassword,
                                           qint64 startedServerPid,
                                           std::shared_ptr<ssh::SshTunnel> tunnel)
{
    if (profile.ssh.enabled() && (!tunnel || tunnel->state() != ssh::SshTunnel::State::Up)) {
        openThroughTunnel(profile, password, releasePassword);
        return nullptr;
    }
    auto session = std::make_unique<session::ConsoleSession>(profile, password, releasePassword,
                                                             std::move(tunnel));
    if (startedServerPid > 0)
        session->gate().setStartedByConsole(startedServerPid);
    auto *window = new MainWindow(std::move(session));
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &MainWindow::newConnectionRequested, this,
            [this, window] { showConnectDialog(window); });
    m_windows.emplace_back(window);
    // 1400x900 where it fits; on a laptop's 1366x768 the window must not hang off the screen.
    QSize size(1400, 900);
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.95);
    window->resize(size);
    window->show();
    emit sessionOpened(window);
    return window;
}

void ConsoleController::openThroughTunnel(const profiles::ConnectionProfile &profile,
                                          const QString &password, const QString &releasePassword)
{
    auto *opener = new TunnelOpener(nullptr, this);
    connect(
        opener, &TunnelOpener::opened, this,
        [this, opener, profile, password, releasePassword](std::shared_ptr<ssh::SshTunnel> tunnel) {
            opener->deleteLater();
            openSession(profile, password, releasePassword, 0, std::move(tunnel));
        });
    connect(opener, &TunnelOpener::failed, opener, &QObject::deleteLater);
    connect(opener, &TunnelOpener::cancelled, opener, &QObject::deleteLater);
    opener->open(profile);
}

MainWindow *ConsoleController::showConnectDialog(QWidget *parent)
{
    ConnectionDialog dialog(*m_profiles, *m_secrets, parent);
    if (dialog.exec() != QDialog::Accepted)
        return nullptr;
    return openSession(dialog.profile(), dialog.password(), dialog.releasePassword(), 0,
                       dialog.tunnel());
}

} // namespace ui
