// The desktop console: parses the command line, picks a connection, opens the window.
#include "MainWindow.h"
#include "demo/DemoServer.h"
#include "redis/ConnectionOptions.h"
#include "session/Environment.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace {

// SIGTERM / SIGINT / SIGHUP end the event loop normally, so that destructors run: the demo
// server is stopped and its directory removed even when the console is killed politely.
int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &c, 1);
}

void quitOnTerminationSignals(QApplication &app)
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [] { QApplication::quit(); });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
}

// The seam every connection source goes through: today only the embedded demo; later
// --url and the connection dialog build ConnectionOptions plus an environment and call this.
std::unique_ptr<ui::MainWindow> openConsole(const redis::ConnectionOptions &options,
                                            session::Environment environment)
{
    auto window = std::make_unique<ui::MainWindow>(std::make_unique<redis::RedisClient>(options),
                                                   environment);
    window->resize(1400, 900);
    window->show();
    return window;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("inventory-console"));
    QApplication::setOrganizationName(QStringLiteral("InventoryConsole"));
    QApplication::setApplicationVersion(QStringLiteral(INVENTORY_VERSION));
    QApplication::setStyle(QStringLiteral("Fusion"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Admin console for the Redis side of stock deduction.\n"
                       "With no connection given, it opens the embedded demo."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QStringLiteral("Start a private redis-server with demo data (loopback, temporary, no "
                       "persistence; stopped when the console exits)."));
    parser.addOption(demoOption);
    parser.process(app);

    quitOnTerminationSignals(app);

    // No other connection source exists yet, so no arguments means the demo too.
    demo::DemoServer demoServer;
    if (!demoServer.start()) {
        const QString why = demoServer.errorString();
        std::fprintf(stderr, "inventory-console: the embedded demo could not start: %s\n",
                     qPrintable(why));
        QMessageBox box(QMessageBox::Critical, QStringLiteral("Inventory Console"),
                        QStringLiteral("The embedded demo could not start."), QMessageBox::Close);
        box.setInformativeText(why);
        box.exec();
        return 1;
    }
    auto window = openConsole(demoServer.connectionOptions(), session::Environment::Local);
    window->seedDemo();
    const int rc = QApplication::exec();
    window.reset(); // the connection closes before its server stops
    return rc;
}
