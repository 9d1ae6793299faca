// SPDX-License-Identifier: GPL-3.0-or-later
// How the console starts from a desktop launcher: a positional URL opens that server, and a
// bad argument is explained in a message box (a launcher has no terminal for stderr).
#include "RedisFixture.h"
#include "ui/StartupError.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

class TstConsoleStartup : public QObject
{
    Q_OBJECT

    static QString console()
    {
        const QString path = qEnvironmentVariable("INVENTORY_CONSOLE");
        if (path.isEmpty())
            qFatal("INVENTORY_CONSOLE is not set: tests/CMakeLists.txt sets it for every test");
        return path;
    }

    // Starts the console and waits until Qt's widget painting log says `widget` (a pattern)
    // has been drawn: it is on screen, in the event loop that waits for the user.
    static bool startUntilDrawn(QProcess &app, const QStringList &args, const QString &widget,
                                QProcessEnvironment env, QByteArray &err)
    {
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("qt.widgets.painting=true"));
        app.setProcessEnvironment(env);
        app.start(console(), args);
        if (!app.waitForStarted())
            return false;
        const QRegularExpression flushed(QStringLiteral("Flushing .* of ") + widget);
        return QTest::qWaitFor(
            [&] { return QString::fromUtf8(err += app.readAllStandardError()).contains(flushed); },
            20000);
    }

    // The names of the clients connected to the server ("inventory-console", ...).
    static QList<QByteArray> clientNames(testsupport::StandaloneRedis &server)
    {
        auto options = server.options();
        options.clientName = "tst-console-startup"; // not counted as the console
        auto client = server.connect(options);
        const auto r = client->call({"CLIENT", "LIST"});
        QList<QByteArray> names;
        if (!r.ok())
            return names;
        for (const QByteArray &line : r->bytes().split('\n')) {
            for (const QByteArray &field : line.split(' ')) {
                if (field.startsWith("name=") && field.size() > 5)
                    names << field.mid(5);
            }
        }
        return names;
    }

private slots:
    void startupErrorIsAMessageBox()
    {
        QString title, text, detail;
        bool found = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box)
                return;
            found = box->objectName() == QLatin1String("startupError");
            title = box->windowTitle();
            text = box->text();
            detail = box->informativeText();
            box->button(QMessageBox::Close)->click();
        });
        poll.start(20);
        // The box shows the window's copy (stderr gets the English).
        ui::reportStartupError({QStringLiteral("The console cannot start with these arguments."),
                                QStringLiteral("window: cannot start")},
                               {QStringLiteral("The server URL was refused: bad port"),
                                QStringLiteral("window: bad port")});
        QVERIFY(found);
        QCOMPARE(title, QStringLiteral("Inventory Console"));
        QCOMPARE(text, QStringLiteral("window: cannot start"));
        QCOMPARE(detail, QStringLiteral("window: bad port"));
    }

    // Exec=inventory-console %U: the launcher passes the URL alone.
    void positionalUrlOpensThatServer()
    {
        testsupport::StandaloneRedis server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QVERIFY(!clientNames(server).contains("inventory-console"));
        QProcess app;
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        app.start(console(), {QStringLiteral("redis://127.0.0.1:%1").arg(server.port())});
        QVERIFY(app.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(clientNames(server).contains("inventory-console"), 20000);
        QCOMPARE(app.state(), QProcess::Running);
        app.terminate();
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
    }

    // A malformed URL from a launcher: the line on stderr, and the console stays up showing
    // the message box instead of vanishing silently. The password is never repeated.
    void badPositionalUrlWaitsInAMessageBox()
    {
        QProcess app;
        QByteArray err;
        QVERIFY(startUntilDrawn(app, {QStringLiteral("redis://alice:Secr3t@127.0.0.1:99999")},
                                QStringLiteral(R"(QMessageBox\([^)]*name="startupError"\))"),
                                QProcessEnvironment::systemEnvironment(), err));
        QVERIFY2(err.contains("cannot start"), err.constData());
        QVERIFY2(err.contains("port"), err.constData());
        QVERIFY2(!err.contains("Secr3t"), err.constData());
        QCOMPARE(app.state(), QProcess::Running); // the box waits for the user
        app.kill();
        app.waitForFinished(5000);
    }

    // Issue 14, item 6: an argument that is not UTF-8 is refused like a bad URL (the line on
    // stderr, the box for a launcher), and exits 2 once the box is closed.
    void argumentNotUtf8IsRefused()
    {
        QProcess app;
        // QProcess encodes its arguments as UTF-8: only a shell can pass the raw byte.
        app.start(QStringLiteral("/bin/sh"),
                  {QStringLiteral("-c"),
                   QStringLiteral("exec \"$0\" \"$(printf 'redis://h\\376')\""), console()});
        QVERIFY(app.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += app.readAllStandardError()).contains("cannot start"),
                                 10000);
        QVERIFY2(err.contains("argument 1 is not valid UTF-8"), err.constData());
        QVERIFY2(!err.contains("\xef\xbf\xbd"), err.constData()); // no U+FFFD anywhere
        app.kill();
        app.waitForFinished(5000);
    }

    // SIGTERM while a modal dialog runs its own event loop (with --connect, before the main
    // one starts): the console drains its signal pipe, cancels the dialog and exits 0, instead
    // of waking on the undrained pipe forever at 100% CPU.
    void terminateWhileAModalDialogIsOpenExits()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home.path()); // no saved profiles, no keychain
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + QStringLiteral("/data"));
        QProcess app;
        QByteArray err;
        QVERIFY(startUntilDrawn(
            app, {QStringLiteral("--connect")},
            QStringLiteral(R"(ui::ConnectionDialog\([^)]*name="connectionDialog"\))"), env, err));
        app.terminate();
        const bool finished = app.waitForFinished(10000);
        if (!finished) {
            app.kill();
            app.waitForFinished(5000);
        }
        QVERIFY2(finished, "still running 10 s after SIGTERM with the dialog open");
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
    }

    void helpAndVersionNeedNoDisplay()
    {
        QProcess app;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        app.setProcessEnvironment(env);
        app.start(console(), {QStringLiteral("--version")});
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(app.readAllStandardOutput().startsWith("inventory-console "));
        app.start(console(), {QStringLiteral("--help")});
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(app.readAllStandardOutput().contains("[URL]"));
    }
};

QTEST_MAIN(TstConsoleStartup)
#include "tst_console_startup.moc"
