// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionArgs.h"

#include "gate/WriteGate.h"
#include "profiles/AnnouncedMapField.h"
#include "profiles/ProfileStore.h"
#include "profiles/RedisUrl.h"
#include "profiles/SavedLabel.h"
#include "profiles/SecretStore.h"
#include "redis/Blocking.h"
#include "redis/ClusterRouter.h"
#include "redis/RedisClient.h"
#include "sentinel/SentinelResolver.h"
#include "sentinel/SentinelUrl.h"
#include "session/SentinelConfig.h"
#include "session/TunnelRoute.h"
#include "ssh/SshTunnel.h"

#include <QEventLoop>
#include <QIODevice>
#include <QSettings>

namespace cli {

namespace {
// The desktop console's settings (organisation and application names of main_console).
QSettings consoleSettings()
{
    return QSettings(QStringLiteral("InventoryConsole"), QStringLiteral("inventory-console"));
}

} // namespace

std::optional<QString> readLine(QIODevice &in)
{
    QByteArray line = in.readLine();
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty())
        return std::nullopt;
    return QString::fromUtf8(line);
}

std::optional<QString> keyringPassword(const QString &profileName,
                                       profiles::SecretStore::Account account)
{
    profiles::SecretStore secrets;
    if (!secrets.waitForBackend(5000) || !secrets.isPersistent())
        return std::nullopt;
    return redis::blockUntilReply<std::optional<QString>>([&](QObject *context, auto done) {
        secrets.load(profiles::SecretStore::keyFor(profileName, account), context, done);
    });
}

std::optional<profiles::ConnectionProfile>
ConnectionArgs::savedProfile(const QCommandLineParser &parser) const
{
    if (!parser.isSet(m_profile))
        return std::nullopt;
    QSettings settings = consoleSettings();
    return profiles::ProfileStore(&settings).find(parser.value(m_profile));
}

std::optional<QString> ConnectionArgs::applyLabelProblem(const QCommandLineParser &parser,
                                                         profiles::ConnectionProfile &profile,
                                                         bool fromUrl) const
{
    std::optional<profiles::Environment> env;
    const QString label = parser.value(m_environment);
    if (parser.isSet(m_environment)) {
        env = profiles::parseEnvironment(label);
        if (!env)
            return QStringLiteral("--environment: give local, test, staging or production");
    }
    if (fromUrl) {
        QSettings settings = consoleSettings();
        const profiles::UrlLabel saved =
            profiles::labelForUrl(profile, env, profiles::ProfileStore(&settings).list());
        if (!saved.refusal.isEmpty())
            return QStringLiteral("--environment: %1").arg(saved.refusal.english);
        profile.environment = saved.environment; // empty: environmentKind() applies the host rule
        return std::nullopt;
    }
    if (!env)
        return std::nullopt;
    // A saved label is the user's decision; the command line may not quietly change it.
    if (profile.isLabelled() && profile.environmentKind() != env)
        return QStringLiteral("--environment %1 contradicts the profile's label (%2)")
            .arg(label, profile.environment);
    profile.environment = profiles::environmentName(*env);
    return std::nullopt;
}

QString scrub(QString text, const QString &password)
{
    if (password.size() >= 4)
        text.replace(password, QStringLiteral("***"));
    return text;
}

void ConnectionArgs::addScanTo(QCommandLineParser &parser)
{
    parser.addOption(m_scanRate);
}

std::optional<browse::ScanPace> ConnectionArgs::scanPace(const QCommandLineParser &parser,
                                                         const profiles::ConnectionProfile &profile,
                                                         Context &context, int *exitCode) const
{
    if (parser.isSet(m_scanRate)) {
        QString error;
        auto pace = browse::parseScanRate(parser.value(m_scanRate), &error);
        if (!pace)
            *exitCode = context.fail(ExitUsage, error);
        return pace;
    }
    // resolve() refused an unknown label; an unlabelled profile has the host rule's.
    return browse::ScanPace::forEnvironment(
        profile.environmentKind().value_or(profiles::Environment::Production));
}

void ConnectionArgs::addTo(QCommandLineParser &parser)
{
    parser.addOptions({m_url, m_profile, m_passwordStdin, m_environment, m_releaseUser,
                       m_releasePasswordStdin, m_tlsCa, m_tlsCert, m_tlsKey, m_tlsServerName,
                       m_timeout, m_announcedMap, m_ssh, m_sshIdentity, m_sshJump, m_sshConfig,
                       m_sshTrust});
    parser.addOptions({m_sentinelUser, m_sentinelPasswordStdin});
}

std::optional<ConnectionArgs::Resolved>
ConnectionArgs::resolve(const QCommandLineParser &parser, Context &context, int *exitCode) const
{
    const auto usage = [&](const QString &message) {
        *exitCode = context.fail(ExitUsage, message);
        return std::nullopt;
    };
    if (parser.isSet(m_url) == parser.isSet(m_profile))
        return usage(QStringLiteral("give either --url or --profile (see %1 --help)")
                         .arg(context.commandName));
    Resolved r;
    // In this order, so that the first problem on the line is the one reported.
    if (const auto problem = readTarget(parser, context, r))
        return usage(*problem);
    // Behind Sentinel (a redis-sentinel:// URL or a saved Sentinel profile) the server is known
    // once the sentinels are asked, after the options that say how to reach them: its label is
    // applied then.
    const bool viaSentinel = r.profile.sentinel.enabled();
    if (const auto problem =
            viaSentinel ? std::nullopt : applyLabelProblem(parser, r.profile, parser.isSet(m_url)))
        return usage(*problem);
    if (const auto problem = applyReleaseAndMap(parser, context, r))
        return usage(*problem);
    if (const auto problem = applyTransport(parser, r))
        return usage(*problem);
    if (viaSentinel) {
        // Through --ssh the sentinels are asked through the tunnel too, so it opens first.
        if (parser.isSet(m_ssh)) {
            if (const auto problem = openTunnel(parser, r, exitCode)) {
                context.fail(*exitCode, *problem);
                return std::nullopt;
            }
        }
        if (const auto problem = resolveSentinel(parser, context, r, exitCode)) {
            context.fail(*exitCode, *problem);
            return std::nullopt;
        }
        if (const auto problem = applyLabelProblem(parser, r.profile, parser.isSet(m_url)))
            return usage(*problem);
    } else if (parser.isSet(m_sentinelUser) || parser.isSet(m_sentinelPasswordStdin)) {
        return usage(QStringLiteral("--sentinel-user and --sentinel-password-stdin need --url "
                                    "redis-sentinel://... or a Sentinel profile"));
    }
    for (const profiles::ProfileProblem &p : r.profile.validate())
        return usage(p.message);
    if (parser.isSet(m_ssh)) {
        // (Opened already for a sentinel URL, whose sentinels are asked through it.)
        const auto problem = r.tunnel ? std::nullopt : openTunnel(parser, r, exitCode);
        if (problem) {
            context.fail(*exitCode, *problem);
            return std::nullopt;
        }
    } else if (parser.isSet(m_sshIdentity) || parser.isSet(m_sshJump) || parser.isSet(m_sshConfig)
               || parser.isSet(m_sshTrust)) {
        return usage(QStringLiteral("--ssh-identity, --ssh-jump, --ssh-config and "
                                    "--ssh-trust-host-key need --ssh user@host[:port]"));
    }
    return r;
}

std::optional<QString> ConnectionArgs::readTarget(const QCommandLineParser &parser,
                                                  Context &context, Resolved &r) const
{
    bool passwordFromUrl = false;
    if (parser.isSet(m_url) && sentinel::isSentinelUrl(parser.value(m_url))) {
        // The server comes from the sentinels (resolveSentinel); the URL's credentials are
        // the data node's, as in Lettuce.
        const auto parsed = sentinel::parseSentinelUrl(parser.value(m_url));
        if (!parsed.ok())
            return QStringLiteral("--url: %1").arg(parsed.error());
        r.profile.name = QStringLiteral("command line");
        r.profile.username = parsed->username;
        r.profile.database = parsed->database;
        r.profile.tls.enabled = parsed->tls;
        QStringList sentinels;
        for (const sentinel::NodeAddress &a : parsed->sentinels)
            sentinels << a.toString();
        r.profile.sentinel.sentinels = sentinels.join(QLatin1Char(','));
        r.profile.sentinel.masterName = parsed->masterName;
        r.password = parsed->password;
        passwordFromUrl = parsed->hasPassword;
    } else if (parser.isSet(m_url)) {
        const auto parsed = profiles::parseRedisUrl(parser.value(m_url));
        if (!parsed.ok())
            return QStringLiteral("--url: %1").arg(parsed.error().message);
        r.profile = parsed->profile;
        r.profile.name = QStringLiteral("command line");
        r.password = parsed->password;
        passwordFromUrl = parsed->hasPassword;
    } else {
        const auto profile = savedProfile(parser);
        if (!profile)
            return QStringLiteral("no saved profile named '%1'").arg(parser.value(m_profile));
        r.profile = *profile;
    }
    if (parser.isSet(m_passwordStdin)) {
        if (passwordFromUrl)
            return QStringLiteral("the URL has a password and --password-stdin is given: use "
                                  "one of them");
        const auto line = readLine(context.in);
        if (!line)
            return QStringLiteral("--password-stdin: standard input has no password line");
        r.password = *line;
    } else if (parser.isSet(m_profile)) {
        r.password = keyringPassword(r.profile.name).value_or(QString());
    }
    return std::nullopt;
}

std::optional<QString> ConnectionArgs::applyReleaseAndMap(const QCommandLineParser &parser,
                                                          Context &context, Resolved &r) const
{
    if (parser.isSet(m_releaseUser)) {
        const QString user = parser.value(m_releaseUser).trimmed();
        if (!r.profile.releaseUsername.isEmpty() && user != r.profile.releaseUsername)
            return QStringLiteral("--release-user %1 contradicts the profile's release user (%2)")
                .arg(user, r.profile.releaseUsername);
        r.profile.releaseUsername = user;
    }
    if (parser.isSet(m_announcedMap)) {
        // Replaces a saved profile's map: the command line says what to reach now.
        const auto entries = profiles::parseAnnouncedEntries(parser.value(m_announcedMap));
        if (!entries.ok())
            return QStringLiteral("--announced-map: %1").arg(entries.error().english);
        r.profile.announcedMap = entries.value();
    }
    if (parser.isSet(m_releasePasswordStdin)) {
        if (r.profile.releaseUsername.isEmpty())
            return QStringLiteral("--release-password-stdin: there is no release user (give "
                                  "--release-user NAME)");
        const auto line = readLine(context.in);
        if (!line)
            return QStringLiteral("--release-password-stdin: standard input has no line for "
                                  "the release password");
        r.releasePassword = *line;
    }
    return std::nullopt;
}

std::optional<QString> ConnectionArgs::applyTransport(const QCommandLineParser &parser,
                                                      Resolved &r) const
{
    if (parser.isSet(m_tlsCa)) {
        r.profile.tls.enabled = true;
        r.profile.tls.caFile = parser.value(m_tlsCa);
    }
    if (parser.isSet(m_tlsCert) || parser.isSet(m_tlsKey)) {
        r.profile.tls.enabled = true;
        r.profile.tls.certFile = parser.value(m_tlsCert);
        r.profile.tls.keyFile = parser.value(m_tlsKey);
    }
    if (parser.isSet(m_tlsServerName)) {
        r.profile.tls.enabled = true;
        r.profile.tls.serverName = parser.value(m_tlsServerName);
    }
    if (parser.isSet(m_timeout)) {
        bool ok = false;
        const int ms = parser.value(m_timeout).toInt(&ok);
        if (!ok || ms < 100 || ms > 600000)
            return QStringLiteral("--timeout-ms: give a number from 100 to 600000");
        r.profile.timeoutMs = ms;
        r.timeoutGiven = true;
    }
    return std::nullopt;
}

std::optional<QString> ConnectionArgs::openTunnel(const QCommandLineParser &parser, Resolved &r,
                                                  int *exitCode) const
{
    *exitCode = ExitUsage;
    const auto target = ssh::parseTarget({parser.value(m_ssh), parser.value(m_sshJump),
                                          parser.value(m_sshIdentity), parser.isSet(m_sshConfig)});
    if (!target)
        return QStringLiteral("--ssh: %1").arg(target.error());
    // Through a tunnel the host as written is as the bastion sees it: a loopback address there
    // is not this machine. Production until labelled, and never local.
    const auto env = profiles::parseEnvironment(parser.value(m_environment));
    if (env == profiles::Environment::Local)
        return QStringLiteral("--environment local: a server reached through --ssh does not run "
                              "on this machine");
    r.profile.environment = profiles::environmentName(
        parser.isSet(m_environment) && env ? *env : profiles::Environment::Production);
    // The profile says it is reached through a bastion: a label read again later (a sentinel
    // URL's, once the primary is known) keeps production as the default, never the host rule.
    r.profile.ssh.bastion = parser.value(m_ssh);
    ssh::SshOptions options;
    options.connectTimeoutSec = qBound(1, r.profile.timeoutMs / 1000, 60);
    auto tunnel = std::make_shared<ssh::SshTunnel>(target.value(), options);
    *exitCode = ExitConnection;
    const int waitMs = (options.connectTimeoutSec * 2 + 20) * 1000;
    tunnel->start();
    if (!tunnel->waitUntilSettled(waitMs) && tunnel->error().kind == ssh::SshFailure::HostKeyUnknown
        && parser.isSet(m_sshTrust)) {
        const auto trusted = tunnel->trustHostKey(parser.value(m_sshTrust).trimmed());
        if (!trusted)
            return QStringLiteral("--ssh-trust-host-key: %1").arg(trusted.error().message.english);
        tunnel->start();
        tunnel->waitUntilSettled(waitMs);
        // A jump host trusted first may leave the bastion's own key unknown: say so below.
    }
    if (tunnel->state() != ssh::SshTunnel::State::Up) {
        const ssh::SshError e = tunnel->error();
        QString line = QStringLiteral("--ssh: %1").arg(e.message.english);
        if (e.kind == ssh::SshFailure::HostKeyUnknown)
            line += QStringLiteral(" To trust it: --ssh-trust-host-key %1")
                        .arg(e.hostKey.offeredFingerprint);
        return line.simplified();
    }
    // Every connection the verb makes from the profile goes through the tunnel: the server,
    // and a cluster's nodes as it announces them (as the bastion sees them). TLS still
    // verifies against the host as written.
    r.profile.route = session::tunnelRoute(tunnel);
    r.tunnel = std::move(tunnel);
    return std::nullopt;
}

std::optional<QString> ConnectionArgs::resolveSentinel(const QCommandLineParser &parser,
                                                       Context &context, Resolved &r,
                                                       int *exitCode) const
{
    *exitCode = ExitUsage;
    const QString where = parser.isSet(m_url) ? QStringLiteral("--url")
                                              : QStringLiteral("profile '%1'").arg(r.profile.name);
    if (parser.isSet(m_sentinelUser))
        r.profile.sentinel.username = parser.value(m_sentinelUser);
    QString sentinelPassword;
    if (parser.isSet(m_sentinelPasswordStdin)) {
        const auto line = readLine(context.in);
        if (!line)
            return QStringLiteral("--sentinel-password-stdin: standard input has no line for "
                                  "the sentinels' password");
        sentinelPassword = *line;
    } else if (parser.isSet(m_profile)) {
        sentinelPassword = keyringPassword(r.profile.name, profiles::SecretStore::Account::Sentinel)
                               .value_or(QString());
    }
    auto built = session::sentinelConfig(r.profile, r.password, sentinelPassword);
    if (!built.ok())
        return QStringLiteral("%1: %2").arg(where, built.error());
    sentinel::ResolverConfig config = built.value();
    config.dataOptions.onCallerThread = true;
    config.sentinelOptions.onCallerThread = true;
    *exitCode = ExitConnection;
    const auto found = sentinel::resolveBlocking(config);
    if (!found.ok())
        return scrub(
            scrub(QStringLiteral("%1: %2").arg(where, found.error().message.english), r.password),
            config.sentinelOptions.password);
    context.err << QStringLiteral("%1: sentinel %2 names %3 as the primary of '%4' (ROLE "
                                  "confirmed)\n")
                       .arg(context.commandName, found->answeredBy.toString(),
                            found->primary.toString(), config.masterName);
    context.err.flush();
    r.profile.host = found->primary.host;
    r.profile.port = found->primary.port;
    return std::nullopt;
}

ScannedInventory::~ScannedInventory() = default;

int ScannedInventory::exitCode(Context &context, const QString &what) const
{
    if (facts.complete)
        return ExitOk;
    return context.fail(
        ExitFailed,
        QStringLiteral("the %1 is incomplete: %2")
            .arg(what, scrub(facts.error.isEmpty() ? QStringLiteral("cancelled") : facts.error,
                             target.password)));
}

void nameUrlTargetByAddress(const QCommandLineParser &parser, profiles::ConnectionProfile &profile)
{
    if (parser.isSet(QStringLiteral("url")))
        profile.name = QStringLiteral("%1:%2").arg(profile.host).arg(profile.port);
}

std::optional<inventory::KeySchema> keySchema(const profiles::ConnectionProfile &profile,
                                              Context &context, int *exitCode)
{
    auto schema =
        inventory::KeySchema::fromTemplates(profile.stockKeyTemplate, profile.receiptKeyTemplate);
    if (!schema.ok()) {
        *exitCode = context.fail(ExitUsage, schema.error());
        return std::nullopt;
    }
    // The repair templates (release, adjust) are checked with the others: a profile whose
    // templates cannot name every key family is refused by every verb alike.
    auto withRepairs = schema.value().withRepairTemplates(profile.releaseKeyTemplate,
                                                          profile.adjustmentKeyTemplate);
    if (!withRepairs.ok()) {
        *exitCode = context.fail(ExitUsage, withRepairs.error());
        return std::nullopt;
    }
    return withRepairs.value();
}

namespace {

// Why a connection did not become ready, never an empty line: when the wait ran out while
// the setup was still under way (a server asleep in DEBUG SLEEP, a slow TLS handshake), the
// connection has no detail to give yet.
QString setupFailure(const QString &detail, const redis::ConnectionOptions &options)
{
    if (!detail.trimmed().isEmpty())
        return detail;
    return QStringLiteral("no answer to the connection setup from %1 within %2 ms")
        .arg(options.address())
        .arg(options.connectTimeoutMs + 1000);
}

} // namespace

std::unique_ptr<redis::RedisClient> connectClient(redis::ConnectionOptions options,
                                                  Context &context, int failExit, int *exitCode)
{
    options.onCallerThread = true;
    auto client = std::make_unique<redis::RedisClient>(options);
    client->open();
    if (!client->waitUntilReady(options.connectTimeoutMs + 1000)) {
        *exitCode =
            context.fail(failExit, scrub(setupFailure(client->stateDetail().english, options),
                                         options.password));
        return nullptr;
    }
    return client;
}

std::unique_ptr<redis::ClusterRouter> connectRouter(redis::ConnectionOptions options,
                                                    Context &context, int failExit, int *exitCode,
                                                    const redis::AnnouncedAddressMap &addressMap)
{
    options.onCallerThread = true;
    redis::ClusterRouter::Options o;
    o.seed = options;
    o.addressMap = addressMap;
    auto router = std::make_unique<redis::ClusterRouter>(o);
    router->open();
    if (!router->waitUntilDiscovered(options.connectTimeoutMs + 1000)) {
        // The seed's own state says it best when it could not connect at all.
        const QString why = router->seed().state() != redis::ConnectionState::Ready
                                ? router->seed().stateDetail().english
                                : router->discoveryError().english;
        *exitCode = context.fail(failExit, scrub(setupFailure(why, options), options.password));
        return nullptr;
    }
    return router;
}

std::unique_ptr<ScannedInventory> scanInventory(const ConnectionArgs &connection,
                                                const QCommandLineParser &parser, Context &context,
                                                browse::InventoryScan::Options options,
                                                int *exitCode)
{
    auto target = connection.resolve(parser, context, exitCode);
    if (!target)
        return nullptr;
    auto run = std::make_unique<ScannedInventory>();
    run->target = std::move(*target);
    const profiles::ConnectionProfile &profile = run->target.profile;
    const auto schema = keySchema(profile, context, exitCode);
    if (!schema)
        return nullptr;
    auto pace = connection.scanPace(parser, profile, context, exitCode);
    if (!pace)
        return nullptr;
    run->client = connectRouter(profile.toConnectionOptions(run->target.password), context,
                                ExitConnection, exitCode, profile.addressMap());
    if (!run->client)
        return nullptr;
    // A Local claim's fast pace holds only once proven (a tunnel on 127.0.0.1 to production
    // is production, and scans gently): the write gate's rule, read the same way.
    QString label = profile.environmentLabel();
    if (!parser.isSet(QStringLiteral("scan-rate"))
        && profile.environmentKind() == profiles::Environment::Local) {
        gate::WriteGate gate(*run->client, profile);
        gate.waitForServer(profile.timeoutMs + 1000);
        pace = browse::ScanPace::forEnvironment(gate.environmentKind());
        label = gate.environmentReason();
    }
    pace->applyTo(options);
    run->scan = std::make_unique<browse::InventoryScan>(*run->client, *schema);
    options.timeoutMs = run->target.timeoutFor(30000);
    QEventLoop loop;
    QObject::connect(run->scan.get(), &browse::InventoryScan::finished, &loop, &QEventLoop::quit);
    if (pace->isGentle()) // why a production scan takes its time, and how long
        QObject::connect(&run->scan->scanner(), &browse::KeyspaceScanner::dbSizeKnown, &loop,
                         [&context, label, pace = *pace](qint64 dbSize) {
                             context.err << context.commandName << ": scan pace "
                                         << pace.describeFor(dbSize) << " (" << label
                                         << "; --scan-rate changes it)\n";
                             context.err.flush();
                         });
    run->scan->start(options);
    loop.exec();
    run->facts = browse::ScanFacts::of(*run->scan);
    return run;
}

} // namespace cli
