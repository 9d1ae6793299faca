// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelFixture.h"

#include <QDeadlineTimer>
#include <QThread>

namespace testsupport {

namespace {
redis::ConnectionOptions onLoopback(quint16 port, const QByteArray &password)
{
    redis::ConnectionOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = port;
    o.password = QString::fromUtf8(password);
    o.connectTimeoutMs = 3000;
    o.commandTimeoutMs = 5000;
    o.autoReconnect = false;
    return o;
}

std::unique_ptr<redis::RedisClient> ready(const redis::ConnectionOptions &o)
{
    auto client = std::make_unique<redis::RedisClient>(o);
    client->open();
    client->waitUntilReady(o.connectTimeoutMs + 1000);
    return client;
}

// Polls `check` (empty: done) every 50 ms until it holds or the time is up; its last answer.
QString waitFor(int timeoutMs, const std::function<QString()> &check)
{
    const QDeadlineTimer deadline(timeoutMs);
    QString why = check();
    while (!why.isEmpty() && !deadline.hasExpired()) {
        QThread::msleep(50);
        why = check();
    }
    return why;
}

// One field of a SENTINEL MASTER reply (a flat field/value list).
QByteArray field(const redis::Reply &flat, const QByteArray &name)
{
    for (qsizetype i = 0; i + 1 < flat.size(); i += 2)
        if (flat.at(i).bytes() == name)
            return flat.at(i + 1).bytes();
    return {};
}
} // namespace

QByteArray SentinelGroup::sentinelConfig(const QByteArray &name, quint16 port, int quorum) const
{
    QByteArray c = "sentinel monitor " + name + " 127.0.0.1 " + QByteArray::number(port) + ' '
                   + QByteArray::number(quorum) + '\n';
    c += "sentinel down-after-milliseconds " + name + ' '
         + QByteArray::number(m_options.downAfterMs) + '\n';
    c += "sentinel failover-timeout " + name + ' ' + QByteArray::number(m_options.failoverTimeoutMs)
         + '\n';
    if (!m_options.dataPassword.isEmpty())
        c += "sentinel auth-pass " + name + ' ' + m_options.dataPassword + '\n';
    if (!m_options.sentinelPassword.isEmpty())
        c += "requirepass " + m_options.sentinelPassword + "\nsentinel sentinel-pass "
             + m_options.sentinelPassword + '\n';
    return c;
}

bool SentinelGroup::startSentinel(const QByteArray &config)
{
    auto s = std::make_unique<demo::LocalRedisServer>();
    demo::LocalRedisServer::Options o;
    o.configText = config;
    o.extraArgs = {QStringLiteral("--sentinel")};
    if (!s->start(o)) {
        m_error = QStringLiteral("sentinel: %1").arg(s->error().english);
        return false;
    }
    m_sentinels.push_back(std::move(s));
    return true;
}

bool SentinelGroup::start(const Options &options)
{
    m_options = options;
    QStringList auth;
    if (!options.dataPassword.isEmpty())
        auth = {QStringLiteral("--requirepass"), QString::fromUtf8(options.dataPassword),
                QStringLiteral("--masterauth"), QString::fromUtf8(options.dataPassword)};
    for (int i = 0; i < (options.withReplica ? 2 : 1); ++i) {
        auto node = std::make_unique<demo::LocalRedisServer>();
        demo::LocalRedisServer::Options o;
        o.extraArgs = auth;
        if (i == 1)
            o.extraArgs << QStringLiteral("--replicaof") << QStringLiteral("127.0.0.1")
                        << QString::number(dataPort(0));
        if (!node->start(o)) {
            m_error = QStringLiteral("data node %1: %2").arg(i).arg(node->error().english);
            return false;
        }
        m_data.push_back(std::move(node));
    }
    for (int i = 0; i < options.sentinels; ++i)
        if (!startSentinel(sentinelConfig(options.masterName, dataPort(0), 2)))
            return false;
    return true;
}

int SentinelGroup::addSentinel(const QByteArray &name, int index)
{
    return startSentinel(sentinelConfig(name, dataPort(index), 1)) ? sentinelCount() - 1 : -1;
}

redis::ConnectionOptions SentinelGroup::dataOptions(int index) const
{
    return onLoopback(dataPort(index), m_options.dataPassword);
}

redis::ConnectionOptions SentinelGroup::sentinelOptions(int index) const
{
    return onLoopback(sentinelPort(index), m_options.sentinelPassword);
}

std::unique_ptr<redis::RedisClient> SentinelGroup::connectData(int index) const
{
    return ready(dataOptions(index));
}

std::unique_ptr<redis::RedisClient> SentinelGroup::connectSentinel(int index) const
{
    return ready(sentinelOptions(index));
}

int SentinelGroup::primary() const
{
    int found = -1;
    for (int i = 0; i < int(m_data.size()); ++i) {
        const auto role = connectData(i)->call({"ROLE"});
        if (role.ok() && role->at(0).bytes() == "master") {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found;
}

QString SentinelGroup::waitUntilSettled(int timeoutMs) const
{
    return waitFor(timeoutMs, [this]() -> QString {
        for (int i = 0; i < sentinelCount(); ++i) {
            const auto master =
                connectSentinel(i)->call({"SENTINEL", "MASTER", m_options.masterName});
            if (!master.ok())
                return QStringLiteral("sentinel %1: %2").arg(i).arg(master.error().message.english);
            if (field(*master, "num-other-sentinels").toInt() != sentinelCount() - 1
                || field(*master, "num-slaves").toInt() != int(m_data.size()) - 1)
                return QStringLiteral("sentinel %1 knows %2 other sentinels and %3 replicas")
                    .arg(i)
                    .arg(QString::fromUtf8(field(*master, "num-other-sentinels")),
                         QString::fromUtf8(field(*master, "num-slaves")));
        }
        const int primaryNow = primary();
        if (primaryNow < 0)
            return QStringLiteral("no single primary");
        for (int i = 0; i < int(m_data.size()); ++i) {
            const auto info = connectData(i)->call({"INFO", "replication"});
            if (i != primaryNow && (!info.ok() || !info->bytes().contains("master_link_status:up")))
                return QStringLiteral("replica %1 is not in sync").arg(i);
        }
        return {};
    });
}

QString SentinelGroup::failover(int timeoutMs) const
{
    const int before = primary();
    if (before < 0)
        return QStringLiteral("no single primary before the failover");
    const int after = 1 - before;
    int asker = 0;
    while (asker < sentinelCount() && !m_sentinels.at(size_t(asker))->isRunning())
        ++asker;
    const auto asked = connectSentinel(asker)->call({"SENTINEL", "FAILOVER", m_options.masterName});
    if (!asked.ok())
        return QStringLiteral("SENTINEL FAILOVER: %1").arg(asked.error().message.english);
    return waitFor(timeoutMs, [&]() -> QString {
        if (primary() != after)
            return QStringLiteral("data node %1 is not the only primary yet").arg(after);
        for (int i = 0; i < sentinelCount(); ++i) {
            if (!m_sentinels.at(size_t(i))->isRunning())
                continue;
            const auto addr = connectSentinel(i)->call(
                {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", m_options.masterName});
            if (!addr.ok() || addr->at(1).bytes().toInt() != dataPort(after))
                return QStringLiteral("sentinel %1 does not name data node %2 yet")
                    .arg(i)
                    .arg(after);
        }
        return {};
    });
}

} // namespace testsupport
