// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConsoleCommandLine.h"

#include "RedisUrl.h"
#include "SavedLabel.h"
#include "core/Arguments.h"

namespace profiles {

namespace {

const QString DemoOption = QStringLiteral("demo");
const QString ConnectOption = QStringLiteral("connect");
const QString UrlOption = QStringLiteral("url");
const QString EnvOption = QStringLiteral("env");
const QString TabOption = QStringLiteral("tab");

core::Sentence said(const char *source)
{
    return core::Sentence::translated("profiles::ConsoleCommandLine", source);
}

} // namespace

QStringList consoleTabNames()
{
    return {QStringLiteral("overview"),  QStringLiteral("keys"),  QStringLiteral("deductions"),
            QStringLiteral("libraries"), QStringLiteral("audit"), QStringLiteral("charts"),
            QStringLiteral("readiness"), QStringLiteral("lab"),   QStringLiteral("reconcile")};
}

ConsoleCommandLine::ConsoleCommandLine()
{
    m_parser.setApplicationDescription(
        QStringLiteral("Admin console for the Redis side of stock deduction.\n"
                       "With no connection given, it opens the embedded demo."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOption(
        {DemoOption, QStringLiteral("Start a private redis-server with demo data (loopback, "
                                    "temporary, no persistence; stopped when the console "
                                    "exits). The default.")});
    m_parser.addOption(
        {UrlOption,
         QStringLiteral("Connect to this server: redis://[user[:password]@]host[:port][/db], or "
                        "rediss:// for TLS (verified). The URL may also be given alone."),
         QStringLiteral("URL")});
    m_parser.addOption(
        {EnvOption,
         QStringLiteral("Environment label of the server: local, test, staging or production "
                        "(default: a saved profile's for the same server, else local for a "
                        "host written as localhost, 127.x.x.x or ::1 once the server's process "
                        "is proven to run here, production otherwise; production is read-only "
                        "until unlocked). It may not lower a saved profile's label."),
         QStringLiteral("LABEL")});
    m_parser.addOption(
        {TabOption,
         QStringLiteral("Open on this tab: %1 (charts/PAGE opens a page of the Charts tab: "
                        "server, slow, stock, outcomes, receipt).")
             .arg(consoleTabNames().join(QStringLiteral(", "))),
         QStringLiteral("NAME")});
    m_parser.addOption(
        {ConnectOption, QStringLiteral("Open the connection dialog (saved profiles) at start.")});
    m_parser.addPositionalArgument(QStringLiteral("URL"),
                                   QStringLiteral("A redis:// or rediss:// URL, as --url."),
                                   QStringLiteral("[URL]"));
}

QString ConsoleCommandLine::helpText() const
{
    // Without an application object the parser does not know the program's name.
    QString text = m_parser.helpText();
    const QString usage = QStringLiteral("Usage: ");
    if (text.startsWith(usage))
        text.replace(usage.size(), text.indexOf(QLatin1Char(' '), usage.size()) - usage.size(),
                     QStringLiteral("inventory-console"));
    return text;
}

ConsoleCommandLine::Action ConsoleCommandLine::refuse(const core::Sentence &why)
{
    m_error = why;
    return Action::Refuse;
}

ConsoleCommandLine::Action ConsoleCommandLine::parse(int argc, const char *const *argv)
{
    const core::DecodedArguments decoded = core::decodeUtf8Arguments(argc, argv);
    if (decoded.badArgument.isEmpty())
        return parse(decoded.arguments);
    m_startup = {};
    return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                         "%1 is not valid UTF-8: a server URL is sent as text, "
                                         "so a byte cannot be guessed; give the text in UTF-8"))
                      .arg(decoded.badArgument));
}

ConsoleCommandLine::Action ConsoleCommandLine::parse(const QStringList &arguments)
{
    m_startup = {};
    m_error = {};
    if (!m_parser.parse(arguments))
        return refuse(core::Sentence::plain(m_parser.errorText())); // Qt's words, Qt's translation
    if (m_parser.isSet(QStringLiteral("help")))
        return Action::ShowHelp;
    if (m_parser.isSet(QStringLiteral("version")))
        return Action::ShowVersion;

    // QCommandLineParser keeps the last of a repeated option; a repeated one is a mistake
    // here (which server was meant?), so it is refused rather than guessed.
    for (const QString &name : {UrlOption, EnvOption, TabOption}) {
        if (m_parser.values(name).size() > 1)
            return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                                 "--%1 is given more than once."))
                              .arg(name));
    }

    QStringList urls = m_parser.values(UrlOption);
    urls += m_parser.positionalArguments();
    if (urls.size() > 1)
        return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                             "Give one server: %1 URLs were given."))
                          .arg(urls.size()));

    const bool demo = m_parser.isSet(DemoOption);
    const bool connect = m_parser.isSet(ConnectOption);
    if (int(demo) + int(connect) + int(!urls.isEmpty()) > 1)
        return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                             "Choose one of --demo, --connect or a server URL.")));

    if (m_parser.isSet(TabOption)) {
        m_startup.tab = m_parser.value(TabOption).toLower();
        if (!consoleTabNames().contains(m_startup.tab.section(QLatin1Char('/'), 0, 0)))
            return refuse(
                said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine", "--tab must be one of %1."))
                    .arg(consoleTabNames().join(QStringLiteral(", "))));
    }

    if (urls.isEmpty()) {
        if (m_parser.isSet(EnvOption))
            return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                                 "--env labels a server given by URL; the demo "
                                                 "is always local and a saved profile has its "
                                                 "own label.")));
        m_startup.target =
            connect ? ConsoleStartup::Target::ConnectDialog : ConsoleStartup::Target::Demo;
        return Action::Run;
    }

    const QString &url = urls.first();
    const bool fromOption = m_parser.isSet(UrlOption);
    if (!fromOption && !url.startsWith(QLatin1String("redis://"), Qt::CaseInsensitive)
        && !url.startsWith(QLatin1String("rediss://"), Qt::CaseInsensitive)) {
        // Never echo the argument: it may be a URL with a password that lost its scheme.
        return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                             "The argument is not a redis:// or rediss:// URL.")));
    }
    auto parsed = parseRedisUrl(url);
    if (!parsed.ok())
        return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                             "The server URL was refused: %1"))
                          .arg(parsed.error().message));

    m_startup.target = ConsoleStartup::Target::Server;
    m_startup.profile = parsed->profile;
    m_startup.password = parsed->password;
    std::optional<Environment> given;
    if (m_parser.isSet(EnvOption)) {
        given = parseEnvironment(m_parser.value(EnvOption));
        if (!given)
            return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine",
                                                 "--env must be local, test, staging or "
                                                 "production.")));
    }
    const UrlLabel label = labelForUrl(m_startup.profile, given, m_saved);
    if (!label.refusal.isEmpty())
        return refuse(said(QT_TRANSLATE_NOOP("profiles::ConsoleCommandLine", "--env: %1."))
                          .arg(label.refusal));
    // Unlabelled, the host's rule claims a label; a Local claim still needs its proof
    // (gate/WriteGate) before anything is written.
    m_startup.profile.environment =
        label.environment.isEmpty()
            ? environmentName(defaultEnvironmentForHost(m_startup.profile.host))
            : label.environment;
    // host:port, as inventory-cli names a --url session: the audit log and the unlock then
    // tell two servers on one host apart, and both tools name the same server alike.
    if (m_startup.profile.name.isEmpty())
        m_startup.profile.name =
            QStringLiteral("%1:%2").arg(m_startup.profile.host).arg(m_startup.profile.port);
    return Action::Run;
}

} // namespace profiles
