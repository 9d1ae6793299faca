// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProfileStore.h"

#include "ProfilesLog.h"
#include "core/DataPaths.h"

#include <QCoreApplication>
#include <QSettings>
#include <QUrl>
#include <algorithm>

namespace profiles {

namespace {
const QString Root = QStringLiteral("profiles");

void write(QSettings &s, const ConnectionProfile &p)
{
    s.setValue(QStringLiteral("name"), p.name);
    s.setValue(QStringLiteral("host"), p.host);
    s.setValue(QStringLiteral("port"), p.port);
    s.setValue(QStringLiteral("database"), p.database);
    s.setValue(QStringLiteral("username"), p.username);
    s.setValue(QStringLiteral("environment"), p.environment);
    s.setValue(QStringLiteral("stockKeyTemplate"), p.stockKeyTemplate);
    s.setValue(QStringLiteral("receiptKeyTemplate"), p.receiptKeyTemplate);
    s.setValue(QStringLiteral("releaseKeyTemplate"), p.releaseKeyTemplate);
    s.setValue(QStringLiteral("adjustmentKeyTemplate"), p.adjustmentKeyTemplate);
    s.setValue(QStringLiteral("receiptTtlSeconds"), p.receiptTtlSeconds);
    s.setValue(QStringLiteral("releaseUsername"), p.releaseUsername);
    s.setValue(QStringLiteral("timeoutMs"), p.timeoutMs);
    s.setValue(QStringLiteral("announcedMap"), p.announcedMap);
    s.setValue(QStringLiteral("tls/enabled"), p.tls.enabled);
    s.setValue(QStringLiteral("tls/caFile"), p.tls.caFile);
    s.setValue(QStringLiteral("tls/certFile"), p.tls.certFile);
    s.setValue(QStringLiteral("tls/keyFile"), p.tls.keyFile);
    s.setValue(QStringLiteral("tls/serverName"), p.tls.serverName);
    s.setValue(QStringLiteral("tls/verifyPeer"), p.tls.verifyPeer);
    s.setValue(QStringLiteral("ssh/bastion"), p.ssh.bastion);
    s.setValue(QStringLiteral("ssh/jump"), p.ssh.jump);
    s.setValue(QStringLiteral("ssh/identityFile"), p.ssh.identityFile);
    s.setValue(QStringLiteral("ssh/useSshConfig"), p.ssh.useSshConfig);
    s.setValue(QStringLiteral("sentinel/sentinels"), p.sentinel.sentinels);
    s.setValue(QStringLiteral("sentinel/masterName"), p.sentinel.masterName);
    s.setValue(QStringLiteral("sentinel/username"), p.sentinel.username);
    s.setValue(QStringLiteral("ledger/source"), p.ledger.source);
    s.setValue(QStringLiteral("ledger/query"), p.ledger.query);
    s.setValue(QStringLiteral("ledger/table"), p.ledger.table);
    s.setValue(QStringLiteral("ledger/columns"), p.ledger.columns);
    s.setValue(QStringLiteral("ledger/states"), p.ledger.states);
}

ConnectionProfile read(const QSettings &s)
{
    ConnectionProfile p;
    const auto str = [&s](const char *key, const QString &fallback) {
        return s.value(QLatin1String(key), fallback).toString();
    };
    p.name = str("name", {});
    p.host = str("host", p.host);
    p.port = s.value(QStringLiteral("port"), p.port).toInt();
    p.database = s.value(QStringLiteral("database"), p.database).toInt();
    p.username = str("username", {});
    p.environment = str("environment", p.environment);
    p.stockKeyTemplate = str("stockKeyTemplate", p.stockKeyTemplate);
    p.receiptKeyTemplate = str("receiptKeyTemplate", p.receiptKeyTemplate);
    p.releaseKeyTemplate = str("releaseKeyTemplate", p.releaseKeyTemplate);
    p.adjustmentKeyTemplate = str("adjustmentKeyTemplate", p.adjustmentKeyTemplate);
    p.receiptTtlSeconds =
        s.value(QStringLiteral("receiptTtlSeconds"), p.receiptTtlSeconds).toLongLong();
    p.releaseUsername = str("releaseUsername", {});
    p.timeoutMs = s.value(QStringLiteral("timeoutMs"), p.timeoutMs).toInt();
    p.announcedMap = s.value(QStringLiteral("announcedMap")).toStringList();
    p.tls.enabled = s.value(QStringLiteral("tls/enabled"), false).toBool();
    p.tls.caFile = str("tls/caFile", {});
    p.tls.certFile = str("tls/certFile", {});
    p.tls.keyFile = str("tls/keyFile", {});
    p.tls.serverName = str("tls/serverName", {});
    p.tls.verifyPeer = s.value(QStringLiteral("tls/verifyPeer"), true).toBool();
    p.ssh.bastion = str("ssh/bastion", {});
    p.ssh.jump = str("ssh/jump", {});
    p.ssh.identityFile = str("ssh/identityFile", {});
    p.ssh.useSshConfig = s.value(QStringLiteral("ssh/useSshConfig"), false).toBool();
    p.sentinel.sentinels = str("sentinel/sentinels", {});
    p.sentinel.masterName = str("sentinel/masterName", {});
    p.sentinel.username = str("sentinel/username", {});
    p.ledger.source = str("ledger/source", {});
    p.ledger.query = str("ledger/query", {});
    p.ledger.table = str("ledger/table", {});
    p.ledger.columns = str("ledger/columns", {});
    p.ledger.states = str("ledger/states", {});
    return p;
}
} // namespace

ProfileStore::ProfileStore()
    : m_owned(std::make_unique<QSettings>())
    , m_settings(m_owned.get())
{}

ProfileStore::ProfileStore(QSettings *settings)
    : m_settings(settings)
{}

ProfileStore::~ProfileStore() = default;

// Group names are percent-encoded so that any valid profile name is one plain key segment.
QString ProfileStore::groupFor(const QString &name) const
{
    return Root + QLatin1Char('/') + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

QList<ConnectionProfile> ProfileStore::list() const
{
    QList<ConnectionProfile> out;
    m_settings->beginGroup(Root);
    const QStringList groups = m_settings->childGroups();
    for (const QString &g : groups) {
        m_settings->beginGroup(g);
        ConnectionProfile p = read(*m_settings);
        if (p.name.isEmpty())
            p.name = QUrl::fromPercentEncoding(g.toLatin1());
        out << p;
        m_settings->endGroup();
    }
    m_settings->endGroup();
    std::sort(out.begin(), out.end(), [](const ConnectionProfile &a, const ConnectionProfile &b) {
        return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
    });
    return out;
}

std::optional<ConnectionProfile> ProfileStore::find(const QString &name) const
{
    if (name.isEmpty())
        return std::nullopt;
    m_settings->beginGroup(groupFor(name));
    const bool exists = !m_settings->childKeys().isEmpty();
    std::optional<ConnectionProfile> out;
    if (exists)
        out = read(*m_settings);
    m_settings->endGroup();
    if (out && out->name.isEmpty())
        out->name = name;
    return out;
}

core::Result<ConnectionProfile, QList<ProfileProblem>>
ProfileStore::save(const ConnectionProfile &profile, const QString &previousName)
{
    const QList<ProfileProblem> problems = profile.validate();
    if (!problems.isEmpty())
        return problems;
    // No secret is in it, but hosts, users, bastions and ledgers are nobody else's business:
    // private before the write, like every file the console writes.
    if (auto privateFile = core::makeFilePrivate(m_settings->fileName()); !privateFile)
        return QList<ProfileProblem>{{QStringLiteral("name"), privateFile.error().text}};
    m_settings->remove(groupFor(profile.name)); // drop keys of an older format
    m_settings->beginGroup(groupFor(profile.name));
    write(*m_settings, profile);
    m_settings->endGroup();
    if (!previousName.isEmpty() && previousName != profile.name)
        m_settings->remove(groupFor(previousName));
    m_settings->sync();
    if (m_settings->status() != QSettings::NoError)
        return QList<ProfileProblem>{
            {QStringLiteral("name"),
             QCoreApplication::translate("profiles::ProfileStore",
                                         "the settings file %1 could not be written")
                 .arg(m_settings->fileName())}};
    qCInfo(lcProfiles) << "saved connection profile" << profile.name;
    return profile;
}

bool ProfileStore::remove(const QString &name)
{
    if (!find(name))
        return false;
    m_settings->remove(groupFor(name));
    m_settings->sync();
    qCInfo(lcProfiles) << "removed connection profile" << name;
    return true;
}

} // namespace profiles
