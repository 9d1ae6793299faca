// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop console: parses the command line, picks a connection, opens the window.
#include "core/BuildInfo.h"
#include "core/DataPaths.h"
#include "demo/DemoServer.h"
#include "profiles/ConsoleCommandLine.h"
#include "profiles/ProfileStore.h"
#include "ui/ConsoleController.h"
#include "ui/MainWindow.h"
#include "ui/StartupError.h"
#include "ui/common/Theme.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QDialog>
#include <QSettings>
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

// The pipe is drained first: its notifier is level-triggered, and a byte left in it wakes every
// event loop again at once (100% CPU). A modal dialog runs an event loop of its own, before the
// main one starts with --connect, where QApplication::quit() does nothing (it acts only inside
// exec()). So each modal dialog is rejected (its caller sees a cancel, as if the user had
// pressed Escape) and exit() ends every running event loop, the main one's included.
void endOnTerminationSignal()
{
    char drained[64];
    while (::read(g_signalPipe[0], drained, sizeof drained) > 0) {
    }
    const QWidgetList windows = QApplication::topLevelWidgets();
    for (QWidget *w : windows) {
        auto *dialog = qobject_cast<QDialog *>(w);
        if (dialog && dialog->isVisible() && dialog->isModal())
            dialog->reject();
    }
    QCoreApplication::exit(0);
}

void quitOnTerminationSignals(QApplication &app)
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, endOnTerminationSignal);
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
}

constexpr const char *StartupContext = "main";

// Profiles, the theme, the language and library folders are saved in one settings file: made
// private before anything writes it, it stays private (core/DataPaths.h).
void makeSettingsPrivate()
{
    if (auto privateSettings = core::makeFilePrivate(QSettings().fileName()); !privateSettings)
        std::fprintf(stderr, "inventory-console: %s\n",
                     qPrintable(privateSettings.error().english));
}

// The first parse ran before QApplication, so before any translator: the stderr line keeps
// its English, and the box says the same once more in the window's language.
void reportRefusedArguments(profiles::ConsoleCommandLine &commandLine, int argc, char *argv[])
{
    const QString english = commandLine.error().english;
    commandLine.parse(argc, argv);
    const core::Sentence why{english, commandLine.error().text};
    ui::reportStartupError(
        core::Sentence::translated(StartupContext,
                                   QT_TRANSLATE_NOOP("main", "The console cannot start with these "
                                                             "arguments.")),
        core::Sentence::translated(StartupContext,
                                   QT_TRANSLATE_NOOP("main", "%1\n\nRun inventory-console --help "
                                                             "for the options."))
            .arg(why));
}

} // namespace

int main(int argc, char *argv[])
{
    // Read before QApplication exists, so that --help and --version need no display.
    profiles::ConsoleCommandLine commandLine;
    {
        // A URL's server may be saved with a label (explicit names: no application yet).
        QSettings settings(QStringLiteral("InventoryConsole"), QStringLiteral("inventory-console"));
        commandLine.setSavedProfiles(profiles::ProfileStore(&settings).list());
    }
    const auto action = commandLine.parse(argc, argv);
    if (action == profiles::ConsoleCommandLine::Action::ShowHelp) {
        std::fputs(qPrintable(commandLine.helpText()), stdout);
        return 0;
    }
    if (action == profiles::ConsoleCommandLine::Action::ShowVersion) {
        std::printf("inventory-console %s\n", qPrintable(core::versionText()));
        return 0;
    }

    // Qt's GLib event dispatcher stays: it is what GTK themes and native dialogs need, and the
    // plain one measured no better for the GUI (core/EventDispatcher.h).
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("inventory-console"));
    QApplication::setOrganizationName(QStringLiteral("InventoryConsole"));
    QApplication::setApplicationVersion(core::versionText());
    // The installed desktop entry's name (resources/appstream): a Wayland compositor matches
    // the window to its entry, and so to its name and icon, by this id.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.inventory_console.InventoryConsole"));
    QApplication::setStyle(QStringLiteral("Fusion"));
    makeSettingsPrivate();
    ui::applyTheme(ui::savedTheme()); // View > Theme, System until one is chosen
    // Before the first window: widgets take their text when they are built.
    ui::installUiTranslators(app, ui::savedUiLanguage());
    if (action == profiles::ConsoleCommandLine::Action::Refuse) {
        reportRefusedArguments(commandLine, argc, argv);
        return 2;
    }
    const profiles::ConsoleStartup &startup = commandLine.startup();

    quitOnTerminationSignals(app);

    // Declared first so that it is destroyed last: the windows' connections close before
    // the demo server stops.
    demo::DemoServer demoServer;
    ui::ConsoleController controller;
    if (startup.target == profiles::ConsoleStartup::Target::Server) {
        // Null while a profile's SSH tunnel opens: its window comes once it is up.
        if (ui::MainWindow *window = controller.openSession(startup.profile, startup.password))
            window->showTab(startup.tab);
        return QApplication::exec();
    }
    if (startup.target == profiles::ConsoleStartup::Target::ConnectDialog) {
        if (!controller.showConnectDialog())
            return 0; // cancelled: nothing to show
        return QApplication::exec();
    }

    // No connection given: the embedded demo.
    if (!demoServer.start()) {
        ui::reportStartupError(
            core::Sentence::translated(StartupContext,
                                       QT_TRANSLATE_NOOP("main", "The embedded demo could not "
                                                                 "start.")),
            demoServer.error());
        return 1;
    }
    profiles::ConnectionProfile demoProfile;
    demoProfile.name = QStringLiteral("demo");
    const redis::ConnectionOptions demoOptions = demoServer.connectionOptions();
    demoProfile.host = demoOptions.host;
    demoProfile.port = demoOptions.port;
    demoProfile.environment = QStringLiteral("local");
    ui::MainWindow *window = controller.openSession(demoProfile, {}, {}, demoServer.pid());
    window->seedDemo({}, demoServer.ledgerPath());
    window->showTab(startup.tab);
    const int rc = QApplication::exec();
    return rc; // the controller closes the windows (and connections) before the server stops
}
