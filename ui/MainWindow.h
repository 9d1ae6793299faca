#pragma once

#include "demo/DemoPlan.h"
#include "redis/RedisClient.h"
#include "session/Environment.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QLabel;
class QVBoxLayout;

namespace session {
class OverviewPoller;
}

namespace ui {

class ConnectionStatusWidget;
class DemoDataPanel;
class ServerOverviewPanel;

// The console's window for one connection. It owns the client; the status bar shows the
// connection and the server, the centre the server overview. It never waits on the network:
// every fetch is asynchronous and lands in a slot.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(std::unique_ptr<redis::RedisClient> client, session::Environment environment,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    redis::RedisClient &client() { return *m_client; }
    session::OverviewPoller &poller() { return *m_poller; }
    session::Environment environment() const { return m_environment; }

    // Loads the library and seeds the demo data into the (empty) server behind this window,
    // and shows what was planted. For the embedded demo only.
    void seedDemo(const demo::SeedOptions &options = {});

    QAction *refreshAction() const { return m_refresh; }

private:
    void createMenus();
    QWidget *createEnvironmentStrip();
    void updateEnvironmentStrip(const QString &note);
    void onStateChanged(redis::ConnectionState state, const QString &detail);
    void showAbout();

    std::unique_ptr<redis::RedisClient> m_client;
    session::Environment m_environment;
    session::OverviewPoller *m_poller = nullptr;
    ConnectionStatusWidget *m_status = nullptr;
    ServerOverviewPanel *m_overview = nullptr;
    DemoDataPanel *m_demo = nullptr;
    QVBoxLayout *m_centralLayout = nullptr;
    QLabel *m_strip = nullptr;
    QAction *m_refresh = nullptr;
};

} // namespace ui
