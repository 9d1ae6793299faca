// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionProfile.h"

#include "AnnouncedMapField.h"
#include "sentinel/SentinelUrl.h"
#include "ssh/SshTarget.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>
#include <functional>

namespace profiles {

namespace {
// What is wrong with a profile, in the window's language (the CLI prints the English).
struct ProfileText
{
    Q_DECLARE_TR_FUNCTIONS(profiles::ConnectionProfile)
};
} // namespace

namespace {

// The content of the first hash tag in a key template, as Redis reads it: the text between
// the first '{' and the next '}', when not empty.
std::optional<QString> hashTag(const QString &keyTemplate)
{
    const qsizetype open = keyTemplate.indexOf(QLatin1Char('{'));
    if (open < 0)
        return std::nullopt;
    const qsizetype close = keyTemplate.indexOf(QLatin1Char('}'), open + 1);
    if (close < 0 || close == open + 1)
        return std::nullopt;
    return keyTemplate.mid(open + 1, close - open - 1);
}

bool validHostName(const QString &host)
{
    if (!QHostAddress(host).isNull())
        return true;
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,252})$"));
    return name.match(host).hasMatch();
}

QByteArray expand(const QString &keyTemplate, const QByteArray &sku, const QByteArray &order)
{
    QByteArray out = keyTemplate.toUtf8();
    out.replace("<sku>", sku);
    out.replace("<order>", order);
    return out;
}

} // namespace

std::optional<Environment> ConnectionProfile::environmentKind() const
{
    // Through a tunnel, a loopback address is the bastion's, not this machine's; behind
    // Sentinel, the host is only where the primary was last.
    if (!isLabelled())
        return ssh.enabled() || sentinel.enabled() ? Environment::Production
                                                   : defaultEnvironmentForHost(host);
    return parseEnvironment(environment.trimmed());
}

QString ConnectionProfile::environmentLabel() const
{
    const auto kind = environmentKind();
    return kind ? environmentName(*kind) : environment;
}

bool ConnectionProfile::startsReadOnly() const
{
    const auto kind = environmentKind();
    return !kind || *kind == Environment::Production;
}

std::optional<QString> profileNameProblem(const QString &name)
{
    if (name.trimmed().isEmpty())
        return ProfileText::tr("the profile needs a name");
    if (name != name.trimmed())
        return ProfileText::tr("the profile name must not start or end with a space");
    if (name.size() > 64)
        return ProfileText::tr("the profile name is longer than 64 characters");
    for (QChar c : name)
        if (c == QLatin1Char('/') || c == QLatin1Char('\\') || c.category() == QChar::Other_Control)
            return ProfileText::tr("the profile name must not contain '/', '\\' or control "
                                   "characters");
    return std::nullopt;
}

namespace {
using AddProblem = std::function<void(const char *field, const QString &message)>;

// How the profile reaches its server: through an SSH bastion, behind Sentinel.
void addRouteProblems(const ConnectionProfile &p, const AddProblem &add)
{
    if (p.ssh.enabled()) {
        const auto target =
            ssh::parseTarget({p.ssh.bastion, p.ssh.jump, p.ssh.identityFile, p.ssh.useSshConfig},
                             core::Wording::Translated); // as ProfileText::tr: English in the CLI
        if (!target)
            add("ssh.bastion", ProfileText::tr("SSH: %1").arg(target.error()));
        if (p.environmentKind() == Environment::Local)
            add("environment", ProfileText::tr("a server reached through an SSH bastion does not "
                                               "run on this machine: label it test, staging or "
                                               "production"));
    } else if (!p.ssh.jump.trimmed().isEmpty() || !p.ssh.identityFile.trimmed().isEmpty()) {
        add("ssh.bastion", ProfileText::tr("SSH: a jump host or identity file is set but no "
                                           "bastion: give the bastion or clear them"));
    }
    if (p.sentinel.enabled()) {
        // Translated as ProfileText::tr is: English where no translator is installed (the CLI).
        if (const auto list =
                sentinel::parseSentinelList(p.sentinel.sentinels, core::Wording::Translated);
            !list.ok())
            add("sentinel.sentinels", ProfileText::tr("Sentinel: %1").arg(list.error()));
        if (p.sentinel.masterName.contains(QLatin1Char(' ')) || p.sentinel.masterName.size() > 128)
            add("sentinel.masterName", ProfileText::tr("Sentinel: the master name must not "
                                                       "contain spaces (at most 128 characters)"));
        if (p.sentinel.username.contains(QLatin1Char(' ')))
            add("sentinel.username",
                ProfileText::tr("Sentinel: the user name must not contain spaces"));
        if (p.environmentKind() == Environment::Local)
            add("environment", ProfileText::tr("Sentinel may name a primary on another machine "
                                               "after a failover: label it test, staging or "
                                               "production"));
        if (!p.announcedMap.isEmpty())
            add("announcedMap", ProfileText::tr("announced addresses are for a cluster's nodes; "
                                                "they are not applied to what sentinels name"));
    } else if (!p.sentinel.sentinels.trimmed().isEmpty() || !p.sentinel.username.isEmpty()) {
        add("sentinel.masterName", ProfileText::tr("Sentinel: sentinels are listed but no master "
                                                   "name: give the name they monitor, or clear "
                                                   "them"));
    }
}
} // namespace

QList<ProfileProblem> ConnectionProfile::validate() const
{
    QList<ProfileProblem> out;
    const auto add = [&out](const char *field, const QString &message) {
        out << ProfileProblem{QLatin1String(field), message};
    };
    if (auto p = profileNameProblem(name))
        add("name", *p);
    if (host.trimmed().isEmpty())
        add("host", ProfileText::tr("the host is empty: give a host name or an IP address"));
    else if (!validHostName(host))
        add("host", ProfileText::tr("'%1' is not a valid host name or IP address").arg(host));
    if (port < 1 || port > 65535)
        add("port", ProfileText::tr("the port must be between 1 and 65535 (got %1)").arg(port));
    if (database < 0 || database > 65535)
        add("database", ProfileText::tr("the database number must be between 0 and 65535 (got "
                                        "%1)")
                            .arg(database));
    if (!environmentKind()) {
        QStringList known;
        for (Environment e :
             {Environment::Local, Environment::Test, Environment::Staging, Environment::Production})
            known << environmentName(e);
        add("environment", ProfileText::tr("unknown environment label '%1': use one of %2")
                               .arg(environment, known.join(QStringLiteral(", "))));
    }
    addRouteProblems(*this, add);
    // The ledger is checked where it is read (reconcile/SavedLedger); a password is refused
    // here, so that it can never be written to the settings file.
    if (!QUrl(ledger.source.trimmed()).password().isEmpty())
        add("ledger.source", ProfileText::tr("the ledger URL holds a password: it belongs in the "
                                             "keyring, never in the profile"));
    if (username.contains(QLatin1Char(' ')))
        add("username", ProfileText::tr("the user name must not contain spaces"));
    if (releaseUsername.contains(QLatin1Char(' ')))
        add("releaseUsername", ProfileText::tr("the release user name must not contain spaces"));
    if (const auto map = parseAnnouncedEntries(announcedMap.join(QLatin1Char('\n'))); !map.ok())
        add("announcedMap", ProfileText::tr("announced addresses, %1").arg(map.error().text));
    if (!tls.enabled && (!tls.caFile.isEmpty() || !tls.certFile.isEmpty()))
        add("tls.enabled", ProfileText::tr("TLS files are set but TLS is off: turn TLS on or "
                                           "clear the files"));
    if (tls.certFile.isEmpty() != tls.keyFile.isEmpty())
        add(tls.certFile.isEmpty() ? "tls.certFile" : "tls.keyFile",
            ProfileText::tr("a client certificate needs both the certificate and its key file"));
    const bool stockOk = stockKeyTemplate.contains(QLatin1String("<sku>"));
    if (!stockOk)
        add("stockKeyTemplate",
            ProfileText::tr("the stock key template must contain <sku> (default %1)")
                .arg(QLatin1String(DefaultStockTemplate)));
    if (!receiptKeyTemplate.contains(QLatin1String("<sku>"))
        || !receiptKeyTemplate.contains(QLatin1String("<order>")))
        add("receiptKeyTemplate",
            ProfileText::tr("the receipt key template must contain <sku> and <order> (default %1)")
                .arg(QLatin1String(DefaultReceiptTemplate)));
    else if (stockOk && hashTag(stockKeyTemplate) != hashTag(receiptKeyTemplate))
        add("receiptKeyTemplate",
            ProfileText::tr("the stock and receipt templates must use the same hash tag (such as "
                            "{<sku>}) so that both keys land in one cluster slot"));
    if (receiptTtlSeconds < 1 || receiptTtlSeconds > MaxReceiptTtlSeconds)
        add("receiptTtlSeconds", ProfileText::tr("the receipt TTL must be between 1 and %1 seconds")
                                     .arg(MaxReceiptTtlSeconds));
    if (timeoutMs < 100 || timeoutMs > 600000)
        add("timeoutMs", ProfileText::tr("the timeout must be between 100 ms and 10 minutes"));
    return out;
}

redis::ConnectionOptions ConnectionProfile::toConnectionOptions(const QString &password) const
{
    redis::ConnectionOptions o;
    o.host = host.trimmed();
    o.port = quint16(port);
    o.database = database;
    o.username = username;
    o.password = password;
    o.tls = tls;
    o.connectTimeoutMs = timeoutMs;
    o.commandTimeoutMs = timeoutMs;
    o.route = route;
    return o;
}

redis::ConnectionOptions
ConnectionProfile::toReleaseConnectionOptions(const QString &releasePassword) const
{
    redis::ConnectionOptions o = toConnectionOptions(releasePassword);
    o.username = releaseUsername;
    o.clientName = "inventory-console-release";
    return o;
}

QString ConnectionProfile::effectiveUsername() const
{
    return username.isEmpty() ? QStringLiteral("default") : username;
}

QByteArray ConnectionProfile::stockKey(const QByteArray &sku) const
{
    return expand(stockKeyTemplate, sku, {});
}

QByteArray ConnectionProfile::receiptKey(const QByteArray &sku, const QByteArray &orderId) const
{
    return expand(receiptKeyTemplate, sku, orderId);
}

bool ConnectionProfile::operator==(const ConnectionProfile &o) const
{
    const auto sameTls = [](const redis::TlsOptions &a, const redis::TlsOptions &b) {
        return a.enabled == b.enabled && a.caFile == b.caFile && a.certFile == b.certFile
               && a.keyFile == b.keyFile && a.serverName == b.serverName
               && a.verifyPeer == b.verifyPeer;
    };
    return name == o.name && host == o.host && port == o.port && database == o.database
           && username == o.username && sameTls(tls, o.tls) && environment == o.environment
           && stockKeyTemplate == o.stockKeyTemplate && receiptKeyTemplate == o.receiptKeyTemplate
           && releaseKeyTemplate == o.releaseKeyTemplate
           && adjustmentKeyTemplate == o.adjustmentKeyTemplate
           && receiptTtlSeconds == o.receiptTtlSeconds && releaseUsername == o.releaseUsername
           && timeoutMs == o.timeoutMs && announcedMap == o.announcedMap
           && ssh.bastion == o.ssh.bastion && ssh.jump == o.ssh.jump
           && ssh.identityFile == o.ssh.identityFile && ssh.useSshConfig == o.ssh.useSshConfig
           && sentinel.sentinels == o.sentinel.sentinels
           && sentinel.masterName == o.sentinel.masterName
           && sentinel.username == o.sentinel.username && ledger == o.ledger;
}

redis::AnnouncedAddressMap ConnectionProfile::addressMap() const
{
    return announcedMapOf(announcedMap);
}

} // namespace profiles
