// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Subcommand.h"
#include "browse/KeysReport.h"
#include "browse/ScanPace.h"
#include "inventory/KeySchema.h"
#include "profiles/ConnectionProfile.h"
#include "profiles/SecretStore.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <memory>

namespace ssh {
class SshTunnel;
}

namespace redis {
class RedisClient;
class ClusterRouter;
struct ConnectionOptions;
} // namespace redis

namespace cli {

// One line of standard input without its line end; nullopt when it is empty or missing.
std::optional<QString> readLine(QIODevice &in);

// A saved profile's password from the system keyring; nullopt when there is no keyring or no
// such entry.
std::optional<QString>
keyringPassword(const QString &profileName,
                profiles::SecretStore::Account account = profiles::SecretStore::Account::Main);

// The connection options every subcommand that talks to Redis shares:
//   --url URL | --profile NAME, --password-stdin, --environment LABEL, --release-user NAME,
//   --release-password-stdin, --tls-ca, --tls-cert, --tls-key, --tls-server-name, --timeout-ms,
//   --announced-map, --ssh, --ssh-identity, --ssh-jump, --ssh-config, --ssh-trust-host-key
// A --url server's label comes from profiles::labelForUrl (a saved profile for the same server
// lends its label; --environment may not lower it), else the host's rule, whose Local the
// WriteGate proves before any write. --env is the short name of --environment.
class ConnectionArgs
{
public:
    void addTo(QCommandLineParser &parser);
    // --scan-rate, for the verbs that scan (keys, order); scanInventory reads it.
    void addScanTo(QCommandLineParser &parser);
    // The pace a scan of this profile runs at: --scan-rate when given, else the label's
    // (production: gentle, capped; any other: fast). On a bad value prints one line and
    // returns nullopt with *exitCode = ExitUsage.
    std::optional<browse::ScanPace> scanPace(const QCommandLineParser &parser,
                                             const profiles::ConnectionProfile &profile,
                                             Context &context, int *exitCode) const;

    struct Resolved
    {
        profiles::ConnectionProfile profile;
        QString password;
        // From --release-password-stdin; nullopt: look in the keyring (a saved profile).
        std::optional<QString> releasePassword;
        bool timeoutGiven = false; // --timeout-ms was given
        // --ssh: the tunnel the profile's route goes through (every connection made from the
        // profile, each node of a cluster too); it closes when the last copy of this goes.
        std::shared_ptr<ssh::SshTunnel> tunnel;

        // The timeout of a long step (a scan page, a library change): --timeout-ms when
        // given, else the longer of the profile's and `longDefaultMs`.
        int timeoutFor(int longDefaultMs) const
        {
            return timeoutGiven ? profile.timeoutMs : qMax(longDefaultMs, profile.timeoutMs);
        }
    };
    // The saved profile --profile names; nullopt with --url or when there is no such profile
    // (resolve() says so).
    std::optional<profiles::ConnectionProfile> savedProfile(const QCommandLineParser &parser) const;

    // After parsing. On a problem prints one line (never the password) and returns the exit
    // code instead.
    std::optional<Resolved> resolve(const QCommandLineParser &parser, Context &context,
                                    int *exitCode) const;

private:
    // --url or --profile, and the password (from the URL, standard input or the keyring).
    std::optional<QString> readTarget(const QCommandLineParser &parser, Context &context,
                                      Resolved &r) const;
    // --release-user, --announced-map and --release-password-stdin.
    std::optional<QString> applyReleaseAndMap(const QCommandLineParser &parser, Context &context,
                                              Resolved &r) const;
    // --tls-* and --timeout-ms.
    std::optional<QString> applyTransport(const QCommandLineParser &parser, Resolved &r) const;
    // --ssh: opens the tunnel, trusts --ssh-trust-host-key when the host key is unknown, and
    // routes every connection made from the profile through it. The reason when it cannot.
    std::optional<QString> openTunnel(const QCommandLineParser &parser, Resolved &r,
                                      int *exitCode) const;
    // --url redis-sentinel://...#name: the sentinels asked (with --sentinel-user and
    // --sentinel-password-stdin) and the profile pointed at the primary they name, once ROLE
    // confirmed it. The reason when it cannot be, with *exitCode set.
    std::optional<QString> resolveSentinel(const QCommandLineParser &parser, Context &context,
                                           Resolved &r, int *exitCode) const;
    // --environment applied to the profile (and, for a URL, the saved profiles' labels); the
    // reason when it cannot be.
    std::optional<QString> applyLabelProblem(const QCommandLineParser &parser,
                                             profiles::ConnectionProfile &profile,
                                             bool fromUrl) const;

    QCommandLineOption m_url{QStringLiteral("url"),
                             QStringLiteral("redis://[user[:password]@]host[:port][/db] or "
                                            "rediss://... for TLS, or "
                                            "redis-sentinel://host[:26379][,host2...][/db]#master "
                                            "for the primary its sentinels name. Prefer "
                                            "--password-stdin to a password in the URL (others "
                                            "can see the command line)."),
                             QStringLiteral("URL")};
    QCommandLineOption m_profile{QStringLiteral("profile"),
                                 QStringLiteral("A connection profile saved by the console; its "
                                                "password comes from the keyring or "
                                                "--password-stdin."),
                                 QStringLiteral("NAME")};
    QCommandLineOption m_passwordStdin{QStringLiteral("password-stdin"),
                                       QStringLiteral("Read the password from the first line of "
                                                      "standard input.")};
    QCommandLineOption m_environment{
        QStringList{QStringLiteral("environment"), QStringLiteral("env")},
        QStringLiteral("The server's label: local, test, staging or production. Default: the "
                       "profile's; for --url, a saved profile's for the same server, else local "
                       "for a host written as localhost, 127.x.x.x or ::1 once the server's "
                       "process is proven to run on this machine, production otherwise "
                       "(read-only until --unlock). It may not lower a saved label."),
        QStringLiteral("LABEL")};
    QCommandLineOption m_releaseUser{QStringLiteral("release-user"),
                                     QStringLiteral("The ACL user that reads, backs up and loads "
                                                    "function libraries (default: the "
                                                    "profile's)."),
                                     QStringLiteral("NAME")};
    QCommandLineOption m_releasePasswordStdin{
        QStringLiteral("release-password-stdin"),
        QStringLiteral("Read the release user's password from standard input (the line after "
                       "the password when --password-stdin is given too) instead of the "
                       "keyring.")};
    QCommandLineOption m_tlsCa{QStringLiteral("tls-ca"),
                               QStringLiteral("CA certificate file (PEM) to verify the server "
                                              "with; turns TLS on."),
                               QStringLiteral("FILE")};
    QCommandLineOption m_tlsCert{QStringLiteral("tls-cert"),
                                 QStringLiteral("Client certificate file (PEM)."),
                                 QStringLiteral("FILE")};
    QCommandLineOption m_tlsKey{QStringLiteral("tls-key"),
                                QStringLiteral("Client private key file (PEM)."),
                                QStringLiteral("FILE")};
    QCommandLineOption m_tlsServerName{QStringLiteral("tls-server-name"),
                                       QStringLiteral("Name to verify in the server certificate "
                                                      "(default: the host)."),
                                       QStringLiteral("NAME")};
    QCommandLineOption m_scanRate{
        QStringLiteral("scan-rate"),
        QStringLiteral("Keys per second the scan may walk (%1 to %2), or 'unlimited'. "
                       "Default: %3 with one page in flight for a production server (its other "
                       "clients keep their latency), unlimited otherwise.")
            .arg(browse::ScanPace::MinKeysPerSecond)
            .arg(browse::ScanPace::MaxKeysPerSecond)
            .arg(browse::ScanPace::DefaultGentleKeysPerSecond),
        QStringLiteral("N")};
    QCommandLineOption m_announcedMap{
        QStringLiteral("announced-map"),
        QStringLiteral("Cluster nodes' and replicas' announced addresses mapped to ones this "
                       "machine can reach (NAT, containers, cluster-announce-hostname, "
                       "replica-announce-ip): 'announced=reachable,...', "
                       "each side host:port or a host, e.g. 10.0.0.5:6379=127.0.0.1:7001. "
                       "Replaces the profile's map."),
        QStringLiteral("MAP")};
    QCommandLineOption m_ssh{
        QStringLiteral("ssh"),
        QStringLiteral("Reach the server (standalone, a cluster, or the sentinels of a "
                       "redis-sentinel:// URL and the primary they name) through an SSH bastion "
                       "(the system's ssh client; the agent or "
                       "--ssh-identity). The host in --url is as the "
                       "bastion sees it; the server is labelled production "
                       "unless --environment says otherwise."),
        QStringLiteral("user@host[:port]")};
    QCommandLineOption m_sshIdentity{QStringLiteral("ssh-identity"),
                                     QStringLiteral("Private key file for the bastion (default: "
                                                    "the agent). A key with a passphrase must "
                                                    "be in the agent."),
                                     QStringLiteral("FILE")};
    QCommandLineOption m_sshJump{QStringLiteral("ssh-jump"),
                                 QStringLiteral("A jump host on the way to the bastion."),
                                 QStringLiteral("user@host[:port]")};
    QCommandLineOption m_sshConfig{QStringLiteral("ssh-config"),
                                   QStringLiteral("Read ~/.ssh/config too: a Host alias works as "
                                                  "the bastion (host-key checks stay strict).")};
    QCommandLineOption m_sshTrust{QStringLiteral("ssh-trust-host-key"),
                                  QStringLiteral("Trust the bastion's (or jump host's) unknown "
                                                 "host key when its fingerprint is exactly this; "
                                                 "compare it with one from the host's "
                                                 "administrator. A changed key is never "
                                                 "trusted."),
                                  QStringLiteral("SHA256:...")};
    QCommandLineOption m_sentinelUser{QStringLiteral("sentinel-user"),
                                      QStringLiteral("The ACL user for the sentinels of a "
                                                     "redis-sentinel:// URL (its credentials "
                                                     "are the data node's)."),
                                      QStringLiteral("NAME")};
    QCommandLineOption m_sentinelPasswordStdin{
        QStringLiteral("sentinel-password-stdin"),
        QStringLiteral("Read the sentinels' password from standard input (the line after the "
                       "password's and the release password's when those are read too).")};
    QCommandLineOption m_timeout{QStringLiteral("timeout-ms"),
                                 QStringLiteral("Connect and command timeout in milliseconds "
                                                "(default 5000; a scan page and a library "
                                                "change wait up to 30000 and 10000 unless "
                                                "given)."),
                                 QStringLiteral("N")};
};

// A URL names no profile, so there is no name to type for an unlock: the address as written
// (through --ssh too) stands in, and names the session in the audit log.
void nameUrlTargetByAddress(const QCommandLineParser &parser, profiles::ConnectionProfile &profile);

// The profile's key schema (its stock, receipt, release and adjustment key templates). On a
// problem prints it and returns nullopt with *exitCode = ExitUsage.
std::optional<inventory::KeySchema> keySchema(const profiles::ConnectionProfile &profile,
                                              Context &context, int *exitCode);

// Opens a client with `options` and waits until it is ready (its connect timeout and 1 s). On
// failure prints one line, the client's state with options.password hidden, and returns
// nullptr with *exitCode = failExit (ExitConnection, or a verb's own number).
// Every verb reads its socket on its own thread (ConnectionOptions::onCallerThread): no
// thread hop each way per round trip, and for a scan no second thread competing for the
// cores with the decoding (1M keys: 3.15-3.57 s against 3.72-3.81 s on the transport thread,
// docs/performance.md).
std::unique_ptr<redis::RedisClient> connectClient(redis::ConnectionOptions options,
                                                  Context &context, int failExit, int *exitCode);
// The same for a server that may be a cluster node: the router finds out, and routes each
// command to the primary owning its keys (a standalone server is talked to directly).
// `addressMap`: the profile's announced addresses (ConnectionProfile::addressMap()).
std::unique_ptr<redis::ClusterRouter>
connectRouter(redis::ConnectionOptions options, Context &context, int failExit, int *exitCode,
              const redis::AnnouncedAddressMap &addressMap = {});

// A scan of the stock and receipt families run to its end, with the connection it ran on:
// what `keys` and `order` share.
struct ScannedInventory
{
    ConnectionArgs::Resolved target;
    std::unique_ptr<redis::ClusterRouter> client;
    std::unique_ptr<browse::InventoryScan> scan; // destroyed before the client it sends on
    browse::ScanFacts facts;

    ~ScannedInventory();
    // ExitOk when the scan ran to its end; otherwise one line "the <what> did not finish: <why>"
    // and ExitFailed.
    int exitCode(Context &context, const QString &what) const;
};

// After parsing: resolves the target, keySchema, the scan pace (ConnectionArgs::scanPace, applied
// to `options`; a gentle one is announced on stderr with its expected duration once DBSIZE
// answers), connectClient, then runs one InventoryScan with `options` (its timeout at least
// 30 s and the profile's). On a problem prints one line (never the
// password) and returns nullptr with *exitCode set: ExitUsage (arguments, key schema) or
// ExitConnection.
std::unique_ptr<ScannedInventory> scanInventory(const ConnectionArgs &connection,
                                                const QCommandLineParser &parser, Context &context,
                                                browse::InventoryScan::Options options,
                                                int *exitCode);

// Replaces every occurrence of the password with "***" (defence in depth for any text that
// leaves the process).
QString scrub(QString text, const QString &password);

} // namespace cli
