// The desktop console: parses the command line, picks a connection, opens the window.
#include "ConsoleController.h"
#include "MainWindow.h"
#include "core/EventDispatcher.h"
#include "demo/DemoServer.h"
#include "session/RedisUrl.h"

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

// A server on loopback is the developer's own; anything else is treated as production
// (read-only until unlocked) unless the command line says which environment it is.
QString defaultEnvironmentFor(const QString &host)
{
    const bool loopback = host == QLatin1String("127.0.0.1") || host == QLatin1String("::1")
                          || host == QLatin1String("localhost");
    return loopback ? QStringLiteral("local") : QStringLiteral("production");
}

} // namespace

int main(int argc, char *argv[])
{
    core::preferFastEventDispatcher();
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
    const QCommandLineOption urlOption(
        QStringLiteral("url"),
        QStringLiteral("Connect to this server: redis://[user[:password]@]host[:port][/db], or "
                       "rediss:// for TLS (verified)."),
        QStringLiteral("URL"));
    parser.addOption(urlOption);
    const QCommandLineOption envOption(
        QStringLiteral("env"),
        QStringLiteral("Environment label of the --url server: local, test, staging or "
                       "production (default: local on loopback, else production, which is "
                       "read-only until unlocked)."),
        QStringLiteral("LABEL"));
    parser.addOption(envOption);
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QStringLiteral("Open on this tab: overview, keys, deductions, libraries or audit."),
        QStringLiteral("NAME"));
    parser.addOption(tabOption);
    const QCommandLineOption connectOption(QStringLiteral("connect"),
                                           QStringLiteral("Open the connection dialog at start."));
    parser.addOption(connectOption);
    parser.process(app);

    quitOnTerminationSignals(app);

    // Declared first so that it is destroyed last: the windows' connections close before
    // the demo server stops.
    demo::DemoServer demoServer;
    ui::ConsoleController controller;
    if (parser.isSet(urlOption)) {
        auto parsed = session::parseRedisUrl(parser.value(urlOption));
        if (!parsed.ok()) {
            std::fprintf(stderr, "inventory-console: --url: %s\n",
                         qPrintable(parsed.error().message));
            return 2;
        }
        session::ConnectionProfile profile = parsed->profile;
        profile.environment = parser.isSet(envOption) ? parser.value(envOption).toLower()
                                                      : defaultEnvironmentFor(profile.host);
        if (!session::parseEnvironment(profile.environment)) {
            std::fprintf(stderr,
                         "inventory-console: --env must be local, test, staging or production\n");
            return 2;
        }
        if (profile.name.isEmpty())
            profile.name = profile.host;
        controller.openSession(profile, parsed->password)->showTab(parser.value(tabOption));
        return QApplication::exec();
    }
    if (parser.isSet(connectOption)) {
        if (!controller.showConnectDialog())
            return 0; // cancelled: nothing to show
        return QApplication::exec();
    }

    // No connection given: the embedded demo.
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
    session::ConnectionProfile demoProfile;
    demoProfile.name = QStringLiteral("demo");
    const redis::ConnectionOptions demoOptions = demoServer.connectionOptions();
    demoProfile.host = demoOptions.host;
    demoProfile.port = demoOptions.port;
    demoProfile.environment = QStringLiteral("local");
    ui::MainWindow *window = controller.openSession(demoProfile, {});
    window->seedDemo();
    window->showTab(parser.value(tabOption));
    const int rc = QApplication::exec();
    return rc; // the controller closes the windows (and connections) before the server stops
}
