// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Environment.h"
#include "redis/ClusterTopology.h"
#include "redis/ConnectionOptions.h"

#include <QList>
#include <QString>
#include <optional>

namespace profiles {

// One field of a profile that failed validation; `field` names the member ("port",
// "tls.caFile", ...) so a form can point at it.
struct ProfileProblem
{
    QString field;
    QString message;
};

// How a profile reaches its server through an SSH bastion (ssh/SshTarget.h parses these).
// The bastion empty: directly.
struct SshSettings
{
    QString bastion;      // user@host[:port], or a ~/.ssh/config Host alias with useSshConfig
    QString jump;         // optional ProxyJump host, user@host[:port]
    QString identityFile; // optional; empty: the agent (or ~/.ssh/config's IdentityFile)
    bool useSshConfig = false;

    bool enabled() const { return !bastion.trimmed().isEmpty(); }
};

// How a profile finds its server through Redis Sentinel (sentinel/SentinelResolver): the
// primary the sentinels name for the master, confirmed by ROLE, and followed after a failover.
// The master name empty: the host and port are the server. The sentinels' password, like the
// data node's, lives in the SecretStore.
struct SentinelSettings
{
    QString sentinels;  // host[:port] entries, 26379 by default (sentinel::parseSentinelList)
    QString masterName; // as the sentinels monitor it
    QString username;   // the sentinels' own ACL user; empty: none, or the default user

    bool enabled() const { return !masterName.trimmed().isEmpty(); }
};

// The order ledger reconcile reads for this server, as the user last saved it from the
// Reconcile tab (reconcile/SavedLedger turns it into a ledger::LedgerSpec and checks it): a
// file, or a sqlite:// or postgresql:// URL that never holds a password (a PostgreSQL
// password lives in the SecretStore, Account::Ledger). Texts as `inventory-cli reconcile`
// takes them. The source empty: none saved.
struct LedgerSettings
{
    QString source;  // as --ledger
    QString query;   // as --ledger-query
    QString table;   // as --ledger-table; query and table empty: the mapped columns of orders
    QString columns; // as --ledger-columns
    QString states;  // as --ledger-states

    bool enabled() const { return !source.trimmed().isEmpty(); }
    bool operator==(const LedgerSettings &) const = default;
};

// A saved connection, without its password (that lives in the SecretStore or in memory).
struct ConnectionProfile
{
    static constexpr const char *DefaultStockTemplate = "stock:{<sku>}:available";
    static constexpr const char *DefaultReceiptTemplate = "idem:{<sku>}:<order>";
    static constexpr const char *DefaultReleaseTemplate = "rel:{<sku>}:<order>";
    static constexpr const char *DefaultAdjustmentTemplate = "adj:{<sku>}:<id>";
    static constexpr qint64 DefaultReceiptTtlSeconds = 604800; // 7 days
    static constexpr qint64 MaxReceiptTtlSeconds = 31536000;   // the function's bound

    QString name;
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379; // int, not quint16, so that a bad value can be held and reported
    int database = 0;
    QString username; // empty: the default user
    redis::TlsOptions tls;
    // The label (see profiles/Environment.h). Empty means nobody labelled the server: the host
    // decides (defaultEnvironmentForHost), so a profile that forgets its label fails safe.
    QString environment;
    QString stockKeyTemplate = QLatin1String(DefaultStockTemplate);
    QString receiptKeyTemplate = QLatin1String(DefaultReceiptTemplate);
    // The repair records' keys (inventory/KeySchema::withRepairTemplates checks them).
    QString releaseKeyTemplate = QLatin1String(DefaultReleaseTemplate);
    QString adjustmentKeyTemplate = QLatin1String(DefaultAdjustmentTemplate);
    qint64 receiptTtlSeconds = DefaultReceiptTtlSeconds;
    QString releaseUsername; // optional ACL user for loading libraries
    int timeoutMs = 5000;    // connect and command timeout
    // Cluster nodes' announced addresses mapped to reachable ones, "announced=reachable"
    // (profiles/AnnouncedMapField.h); empty: connect to what the cluster announces.
    QStringList announcedMap;
    SshSettings ssh;
    SentinelSettings sentinel;
    LedgerSettings ledger;
    // How this process reaches the server once a tunnel is up (session/TunnelRoute.h); copied
    // into every ConnectionOptions made from the profile. Never saved.
    redis::Route route;

    // The label as an enum: the host's default when unlabelled (production through an SSH
    // bastion, where the host is as the bastion sees it, and behind Sentinel, which may name
    // any host after a failover); nullopt for a label this version does not know.
    std::optional<Environment> environmentKind() const;
    // The label as shown and recorded: "production", ... (an unknown label as it is written).
    QString environmentLabel() const;
    bool isLabelled() const { return !environment.trimmed().isEmpty(); }
    // Production, or a label this version cannot read (fail safe).
    bool startsReadOnly() const;

    // Empty when the profile can be saved and used.
    QList<ProfileProblem> validate() const;

    // What the transport needs; the password is supplied by the caller, never stored here.
    redis::ConnectionOptions toConnectionOptions(const QString &password) const;
    // The same server as the release user (for loading libraries); empty user when none is set.
    redis::ConnectionOptions toReleaseConnectionOptions(const QString &releasePassword) const;

    // What the cluster router connects to instead of announced addresses.
    redis::AnnouncedAddressMap addressMap() const;

    // The user ACL checks are about ("default" when no user name is set).
    QString effectiveUsername() const;

    // The stock and receipt keys for one SKU and order, from the templates.
    QByteArray stockKey(const QByteArray &sku) const;
    QByteArray receiptKey(const QByteArray &sku, const QByteArray &orderId) const;

    bool operator==(const ConnectionProfile &other) const;
};

// Validates a profile name alone (also used before renaming).
std::optional<QString> profileNameProblem(const QString &name);

} // namespace profiles
