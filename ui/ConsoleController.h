#pragma once

#include "profiles/ConnectionProfile.h"

#include <QObject>
#include <QPointer>
#include <memory>
#include <vector>

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles

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
    MainWindow *openSession(const profiles::ConnectionProfile &profile, const QString &password,
                            const QString &releasePassword = {}, qint64 startedServerPid = 0);
    // Shows the connection dialog; on OK, opens a window for the saved profile (and returns
    // it), else nullptr.
    MainWindow *showConnectDialog(QWidget *parent = nullptr);

    profiles::ProfileStore &profiles() { return *m_profiles; }
    profiles::SecretStore &secrets() { return *m_secrets; }

private:
    std::unique_ptr<profiles::ProfileStore> m_profiles;
    profiles::SecretStore *m_secrets = nullptr;
    std::vector<QPointer<MainWindow>> m_windows;
};

} // namespace ui
