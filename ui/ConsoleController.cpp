#include "ConsoleController.h"

#include "ConnectionDialog.h"
#include "MainWindow.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"

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
                                           qint64 startedServerPid)
{
    auto session = std::make_unique<session::ConsoleSession>(profile, password, releasePassword);
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
    return window;
}

MainWindow *ConsoleController::showConnectDialog(QWidget *parent)
{
    ConnectionDialog dialog(*m_profiles, *m_secrets, parent);
    if (dialog.exec() != QDialog::Accepted)
        return nullptr;
    return openSession(dialog.profile(), dialog.password(), dialog.releasePassword());
}

} // namespace ui
