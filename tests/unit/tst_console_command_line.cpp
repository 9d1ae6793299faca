// SPDX-License-Identifier: GPL-3.0-or-later
// The console's command line: a positional URL (what a desktop launcher passes for %U) opens
// that server with the same safe default as --url, and anything unusable is refused with a
// reason that never repeats a password.
#include "profiles/ConsoleCommandLine.h"

#include <QTest>

using profiles::ConsoleCommandLine;
using profiles::ConsoleStartup;

namespace {

QStringList argv(QStringList args)
{
    args.prepend(QStringLiteral("inventory-console"));
    return args;
}

} // namespace

class TstConsoleCommandLine : public QObject
{
    Q_OBJECT

private slots:
    void writtenAsLoopback_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("loopback");
        QTest::newRow("localhost") << "localhost" << true;
        QTest::newRow("LOCALHOST") << "LOCALHOST" << true;
        QTest::newRow("127.0.0.1") << "127.0.0.1" << true;
        QTest::newRow("127.8.9.10") << "127.8.9.10" << true;
        QTest::newRow("::1") << "::1" << true;
        QTest::newRow("[::1]") << "[::1]" << true;
        QTest::newRow("128.0.0.1") << "128.0.0.1" << false;
        QTest::newRow("10.0.0.1") << "10.0.0.1" << false;
        QTest::newRow("0.0.0.0") << "0.0.0.0" << false;
        QTest::newRow("::2") << "::2" << false;
        // Names that resolve to loopback (an SSH tunnel to production) are not written as it.
        QTest::newRow("localhost.localdomain") << "localhost.localdomain" << false;
        QTest::newRow("localhost.example") << "localhost.example" << false;
        QTest::newRow("127.0.0.1.nip.io") << "127.0.0.1.nip.io" << false;
        QTest::newRow("staging") << "redis-staging.internal.example" << false;
        QTest::newRow("empty") << "" << false;
    }
    void writtenAsLoopback()
    {
        QFETCH(QString, host);
        QFETCH(bool, loopback);
        QCOMPARE(profiles::isWrittenAsLoopback(host), loopback);
        QCOMPARE(profiles::defaultEnvironmentForHost(host),
                 loopback ? profiles::Environment::Local : profiles::Environment::Production);
    }

    void serverFromUrl_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("environment");
        QTest::addColumn<QString>("password");

        QTest::newRow("positional remote is production")
            << QStringList{"rediss://support@redis-staging.internal.example:6380/0"}
            << "redis-staging.internal.example" << 6380 << "production"
            << "";
        QTest::newRow("positional loopback is local")
            << QStringList{"redis://127.0.0.1:6390"} << "127.0.0.1" << 6390 << "local"
            << "";
        QTest::newRow("positional localhost is local")
            << QStringList{"redis://localhost"} << "localhost" << 6379 << "local"
            << "";
        QTest::newRow("positional IPv6 loopback is local")
            << QStringList{"redis://[::1]:7000"} << "::1" << 7000 << "local"
            << "";
        QTest::newRow("tunnel name is production")
            << QStringList{"redis://localhost.localdomain:6379"} << "localhost.localdomain" << 6379
            << "production"
            << "";
        QTest::newRow("--url remote is production")
            << QStringList{"--url", "redis://10.1.2.3"} << "10.1.2.3" << 6379 << "production"
            << "";
        QTest::newRow("--env labels a positional URL")
            << QStringList{"redis://10.1.2.3", "--env", "Staging"} << "10.1.2.3" << 6379
            << "staging"
            << "";
        QTest::newRow("--env production on loopback")
            << QStringList{"--env", "production", "redis://127.0.0.1"} << "127.0.0.1" << 6379
            << "production"
            << "";
        QTest::newRow("password kept for the session")
            << QStringList{"redis://:pw@127.0.0.1:1234"} << "127.0.0.1" << 1234 << "local"
            << "pw";
        QTest::newRow("scheme in capitals")
            << QStringList{"REDIS://127.0.0.1"} << "127.0.0.1" << 6379 << "local"
            << "";
    }
    void serverFromUrl()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, environment);
        QFETCH(QString, password);
        ConsoleCommandLine line;
        QCOMPARE(line.parse(argv(args)), ConsoleCommandLine::Action::Run);
        const ConsoleStartup &s = line.startup();
        QCOMPARE(s.target, ConsoleStartup::Target::Server);
        QCOMPARE(s.profile.host, host);
        QCOMPARE(s.profile.port, port);
        QCOMPARE(s.profile.environment, environment);
        QCOMPARE(s.profile.startsReadOnly(), environment == QLatin1String("production"));
        QCOMPARE(s.password, password);
        QCOMPARE(s.profile.name,
                 QStringLiteral("%1:%2").arg(host).arg(port)); // as the CLI names it
    }

    void otherTargets()
    {
        ConsoleCommandLine line;
        QCOMPARE(line.parse(argv({})), ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().target, ConsoleStartup::Target::Demo);
        QCOMPARE(line.parse(argv({"--demo", "--tab", "Keys"})), ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().target, ConsoleStartup::Target::Demo);
        QCOMPARE(line.startup().tab, QStringLiteral("keys"));
        // A page of the Charts tab.
        QCOMPARE(line.parse(argv({"--demo", "--tab", "charts/stock"})),
                 ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().tab, QStringLiteral("charts/stock"));
        QCOMPARE(line.parse(argv({"--connect"})), ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().target, ConsoleStartup::Target::ConnectDialog);
        QCOMPARE(line.parse(argv({"--help"})), ConsoleCommandLine::Action::ShowHelp);
        QVERIFY(line.helpText().contains(QLatin1String("inventory-console [options] [URL]")));
        QCOMPARE(line.parse(argv({"--version"})), ConsoleCommandLine::Action::ShowVersion);
    }

    void refused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown option") << QStringList{"--bogus"} << "bogus";
        QTest::newRow("not a URL") << QStringList{"/home/me/notes.txt"} << "not a redis://";
        QTest::newRow("http URL") << QStringList{"http://127.0.0.1"} << "not a redis://";
        QTest::newRow("bad port") << QStringList{"redis://127.0.0.1:99999"} << "port";
        QTest::newRow("bad port with --url") << QStringList{"--url", "redis://h:0"} << "port";
        QTest::newRow("two URLs") << QStringList{"redis://a", "redis://b"} << "one server";
        QTest::newRow("--url and positional")
            << QStringList{"--url", "redis://a", "redis://b"} << "one server";
        QTest::newRow("--url twice")
            << QStringList{"--url", "redis://a", "--url", "redis://b"} << "more than once";
        QTest::newRow("demo and URL") << QStringList{"--demo", "redis://a"} << "Choose one";
        QTest::newRow("demo and connect") << QStringList{"--demo", "--connect"} << "Choose one";
        QTest::newRow("bad env") << QStringList{"redis://a", "--env", "prod"} << "--env must";
        QTest::newRow("env without server") << QStringList{"--env", "test"} << "--env labels";
        QTest::newRow("bad tab") << QStringList{"--tab", "graphs"} << "--tab must";
    }
    void refused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        ConsoleCommandLine line;
        QCOMPARE(line.parse(argv(args)), ConsoleCommandLine::Action::Refuse);
        QVERIFY2(line.error().english.contains(reason), qPrintable(line.error().english));
    }

    // A URL for a server saved as production is production (issue 28): "prod-30001" is a
    // tunnel on 127.0.0.1:30001, which the host's rule alone would call local. --env may
    // raise a saved label, never lower it; another user at the same address is another
    // profile.
    void savedProfileLendsItsLabel_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("environment"); // empty: refused
        const QString url = QStringLiteral("redis://127.0.0.1:30001");
        QTest::newRow("no --env") << QStringList{url} << "production";
        QTest::newRow("--url, no --env") << QStringList{"--url", url} << "production";
        QTest::newRow("localhost is not the same host")
            << QStringList{"redis://localhost:30001"} << "local";
        QTest::newRow("--env local") << QStringList{url, "--env", "local"} << QString();
        QTest::newRow("--env staging") << QStringList{url, "--env", "staging"} << QString();
        QTest::newRow("--env production")
            << QStringList{url, "--env", "production"} << "production";
        QTest::newRow("another user") << QStringList{"redis://bob@127.0.0.1:30001"} << "local";
        QTest::newRow("staging server, --env test")
            << QStringList{"redis://127.0.0.1:30002", "--env", "test"} << QString();
        QTest::newRow("staging server, --env production")
            << QStringList{"redis://127.0.0.1:30002", "--env", "production"} << "production";
    }
    void savedProfileLendsItsLabel()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, environment);
        profiles::ConnectionProfile prod;
        prod.name = QStringLiteral("prod-30001");
        prod.port = 30001;
        prod.environment = QStringLiteral("production");
        profiles::ConnectionProfile staging = prod;
        staging.name = QStringLiteral("staging-30002");
        staging.port = 30002;
        staging.environment = QStringLiteral("staging");
        ConsoleCommandLine line;
        line.setSavedProfiles({prod, staging});
        const auto action = line.parse(argv(args));
        if (environment.isEmpty()) {
            QCOMPARE(action, ConsoleCommandLine::Action::Refuse);
            QVERIFY2(line.error().english.contains(QLatin1String("would lower the server's saved "
                                                                 "label: profile '")),
                     qPrintable(line.error().english));
            return;
        }
        QCOMPARE(action, ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().profile.environment, environment);
    }

    // A launcher may hand over a URL with a password; a refusal never repeats it.
    void refusalNeverShowsThePassword_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("bad port") << QStringList{"redis://alice:Secr3t@host:99999"};
        QTest::newRow("lost scheme") << QStringList{"alice:Secr3t@host"};
        QTest::newRow("two URLs") << QStringList{"redis://:Secr3t@a", "redis://:Secr3t@b"};
        QTest::newRow("bad db") << QStringList{"redis://:Secr3t@host/x"};
    }
    void refusalNeverShowsThePassword()
    {
        QFETCH(QStringList, args);
        ConsoleCommandLine line;
        QCOMPARE(line.parse(argv(args)), ConsoleCommandLine::Action::Refuse);
        QVERIFY2(!line.error().english.contains(QLatin1String("Secr3t")),
                 qPrintable(line.error().english));
    }

    // Issue 14, item 6: bytes that are not UTF-8 are refused, never read as U+FFFD (two
    // different bad bytes would otherwise name the same server or password).
    void argumentsThatAreNotUtf8AreRefused()
    {
        ConsoleCommandLine line;
        const char *bad[] = {"inventory-console", "--url", "redis://:p\xfe@127.0.0.1"};
        QCOMPARE(line.parse(3, bad), ConsoleCommandLine::Action::Refuse);
        QVERIFY2(line.error().english.contains(QLatin1String("the value of --url (argument 2) is "
                                                             "not valid UTF-8")),
                 qPrintable(line.error().english));
        QVERIFY(!line.error().english.contains(QChar(0xFFFD)));
        const char *positional[] = {"inventory-console", "redis://h\xff"};
        QCOMPARE(line.parse(2, positional), ConsoleCommandLine::Action::Refuse);
        QVERIFY2(line.error().english.startsWith(QLatin1String("argument 1 is not valid UTF-8")),
                 qPrintable(line.error().english));
        // Valid arguments pass through to the parser unchanged.
        const char *good[] = {"inventory-console", "--tab", "keys", "redis://127.0.0.1"};
        QCOMPARE(line.parse(4, good), ConsoleCommandLine::Action::Run);
        QCOMPARE(line.startup().tab, QStringLiteral("keys"));
    }
};

QTEST_GUILESS_MAIN(TstConsoleCommandLine)
#include "tst_console_command_line.moc"
