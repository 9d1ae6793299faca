// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConsoleController.h"

#include "ConnectionDialog.h"
#include "MainWindow.h"
#include "StartupError.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "session/ConsoleSession.h"
#include "session/SentinelConfig.h"
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
                                           std::shared_ptr<ssh::SshTunnel> tunnel,
                                           const QString &sentinelPassword,
                                           std::optional<FoundPrimary> found)
{
    if (profile.ssh.enabled() && (!tunnel || tunnel->state() != ssh::SshTunnel::State::Up)) {
        openThroughTunnel(profile, password, releasePassword, sentinelPassword);
        return nullptr;
    }
    if (profile.sentinel.enabled() && !found) {
        openBehindSentinel(profile, password, releasePassword, std::move(tunnel), sentinelPassword);
        return nullptr;
    }
    profiles::ConnectionProfile target = profile;
    if (found) {
        target.host = found->primary.host;
        target.port = found->primary.port;
    }
    auto session = std::make_unique<session::ConsoleSession>(target, password, releasePassword,
                                                             std::move(tunnel));
    if (found)
        session->followSentinels(found->config);
    if (startedServerPid > 0)
        session->gate().setStartedByConsole(startedServerPid);
    return openWindow(std::move(session));
}

MainWindow *ConsoleController::openWindow(std::unique_ptr<session::ConsoleSession> session)
{
    auto *window = new MainWindow(std::move(session));
    window->linkProfiles(*m_profiles, *m_secrets);
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
                                          const QString &password, const QString &releasePassword,
                                          const QString &sentinelPassword)
{
    auto *opener = new TunnelOpener(nullptr, this);
    connect(opener, &TunnelOpener::opened, this,
            [this, opener, profile, password, releasePassword,
             sentinelPassword](std::shared_ptr<ssh::SshTunnel> tunnel) {
                opener->deleteLater();
                openSession(profile, password, releasePassword, 0, std::move(tunnel),
                            sentinelPassword);
            });
    connect(opener, &TunnelOpener::failed, opener, &QObject::deleteLater);
    connect(opener, &TunnelOpener::cancelled, opener, &QObject::deleteLater);
    opener->open(profile);
}

void ConsoleController::openBehindSentinel(const profiles::ConnectionProfile &profile,
                                           const QString &password, const QString &releasePassword,
                                           std::shared_ptr<ssh::SshTunnel> tunnel,
                                           const QString &sentinelPassword)
{
    const auto ask = [this, profile, password, releasePassword,
                      tunnel](const QString &sentinelPassword) {
        const auto config = session::sentinelConfig(profile, password, sentinelPassword, tunnel);
        if (!config.ok()) {
            reportStartupError(
                core::Sentence::translated("ui::ConsoleController",
                                           QT_TRANSLATE_NOOP("ui::ConsoleController",
                                                             "The profile's Sentinel settings "
                                                             "cannot be used.")),
                core::Sentence::plain(config.error()));
            return;
        }
        auto *opener = new SentinelOpener(nullptr, this);
        connect(
            opener, &SentinelOpener::resolved, this,
            [this, opener, profile, password, releasePassword, tunnel](const FoundPrimary &found) {
                opener->deleteLater();
                openSession(profile, password, releasePassword, 0, tunnel, {}, found);
            });
        connect(opener, &SentinelOpener::failed, opener, &QObject::deleteLater);
        connect(opener, &SentinelOpener::cancelled, opener, &QObject::deleteLater);
        opener->open(config.value());
    };
    if (!sentinelPassword.isEmpty() || profile.name.isEmpty()) {
        ask(sentinelPassword);
        return;
    }
    m_secrets->load(
        profiles::SecretStore::keyFor(profile.name, profiles::SecretStore::Account::Sentinel), this,
        [ask](const std::optional<QString> &saved) { ask(saved.value_or(QString())); });
}

MainWindow *ConsoleController::showConnectDialog(QWidget *parent)
{
    ConnectionDialog dialog(*m_profiles, *m_secrets, parent);
    if (dialog.exec() != QDialog::Accepted)
        return nullptr;
    return openSession(dialog.profile(), dialog.password(), dialog.releasePassword(), 0,
                       dialog.tunnel(), dialog.sentinelPassword(), dialog.foundPrimary());
}

} // namespace ui
