// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "Isolation.h"

#include "core/Bytes.h"
#include "functions/LocalCatalog.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QThread>
#include <algorithm>
#include <cerrno>
#include <csignal>

namespace testsupport {

QByteArray functionSource(const QString &fileName)
{
    QFile f(QStringLiteral(INVENTORY_SOURCE_DIR "/functions/") + fileName);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read functions/%s", qPrintable(fileName));
    return f.readAll();
}

QByteArray previousReleaseSource()
{
    functions::initFunctionResources();
    QFile f(functions::previousReleasePath());
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(functions::previousReleasePath()));
    return f.readAll();
}

QString render(const redis::Reply &reply)
{
    using T = redis::Reply::Type;
    switch (reply.type()) {
    case T::Nil:
        return QStringLiteral("nil");
    case T::Integer:
        return QString::number(reply.toInteger());
    case T::Bulk:
        return QLatin1Char('"') + core::escapeBytes(reply.bytes()) + QLatin1Char('"');
    case T::Status:
        return QLatin1Char('+') + core::escapeBytes(reply.bytes());
    case T::Error:
        return QStringLiteral("error: ") + core::escapeBytes(reply.bytes());
    case T::Array: {
        QStringList parts;
        for (const redis::Reply &e : reply.elements())
            parts << render(e);
        return QLatin1Char('{') + parts.join(QLatin1Char(',')) + QLatin1Char('}');
    }
    }
    return QStringLiteral("?");
}

QString render(const redis::ReplyResult &result)
{
    if (result.ok())
        return render(result.value());
    const redis::RedisError &e = result.error();
    if (e.kind == redis::RedisError::Kind::Server)
        return QStringLiteral("error: ") + e.message.english;
    return e.mayHaveRun() ? e.toString().english
                          : e.kindName().english + QStringLiteral(": ") + e.message.english;
}

Snapshot snapshot(redis::CommandSender &client, const QList<QByteArray> &keys)
{
    Snapshot s;
    QList<redis::Command> batch{{"DBSIZE"}, {"KEYS", "*"}};
    for (const QByteArray &k : keys)
        batch << redis::Command{"TYPE", k} << redis::Command{"DUMP", k}
              << redis::Command{"PTTL", k};
    const auto results = client.callBatch(batch);
    for (const auto &r : results) {
        if (!r.ok()) {
            s.error = QStringLiteral("snapshot failed: ") + render(r);
            return s;
        }
    }
    s.dbSize = results.at(0)->toInteger();
    for (const redis::Reply &k : results.at(1)->elements())
        s.allKeys << k.bytes();
    std::sort(s.allKeys.begin(), s.allKeys.end());
    for (qsizetype i = 0; i < keys.size(); ++i) {
        KeyState ks;
        ks.key = keys.at(i);
        ks.type = results.at(2 + 3 * i)->bytes();
        ks.dump = results.at(3 + 3 * i)->bytes();
        ks.pttlMs = results.at(4 + 3 * i)->toInteger();
        s.keys << ks;
    }
    return s;
}

QString snapshotDifference(const Snapshot &before, const Snapshot &after, qint64 ttlSlackMs)
{
    if (!before.error.isEmpty())
        return before.error;
    if (!after.error.isEmpty())
        return after.error;
    QStringList diffs;
    if (before.dbSize != after.dbSize)
        diffs << QStringLiteral("DBSIZE %1 -> %2").arg(before.dbSize).arg(after.dbSize);
    const auto names = [](const QList<QByteArray> &keys) {
        QStringList out;
        for (const QByteArray &k : keys)
            out << core::escapeBytes(k);
        return out.join(QLatin1Char(' '));
    };
    if (before.allKeys != after.allKeys)
        diffs
            << QStringLiteral("keys [%1] -> [%2]").arg(names(before.allKeys), names(after.allKeys));
    if (before.keys.size() != after.keys.size())
        return QStringLiteral("snapshots of different key lists");
    for (qsizetype i = 0; i < before.keys.size(); ++i) {
        const KeyState &b = before.keys.at(i);
        const KeyState &a = after.keys.at(i);
        const QString key = core::escapeBytes(b.key);
        if (b.type != a.type)
            diffs << QStringLiteral("%1: type %2 -> %3")
                         .arg(key, QString::fromLatin1(b.type), QString::fromLatin1(a.type));
        if (b.dump != a.dump)
            diffs << QStringLiteral("%1: value changed (DUMP %2 -> %3)")
                         .arg(key, core::escapeBytes(b.dump, 80), core::escapeBytes(a.dump, 80));
        const bool ttlSame = (b.pttlMs < 0 || a.pttlMs < 0)
                                 ? b.pttlMs == a.pttlMs
                                 : (a.pttlMs <= b.pttlMs && b.pttlMs - a.pttlMs <= ttlSlackMs);
        if (!ttlSame)
            diffs << QStringLiteral("%1: PTTL %2 -> %3").arg(key).arg(b.pttlMs).arg(a.pttlMs);
    }
    return diffs.join(QStringLiteral("; "));
}

redis::ConnectionOptions quickFailure(redis::ConnectionOptions o)
{
    o.commandTimeoutMs = 300;
    o.connectTimeoutMs = 400;
    o.silentCloseMs = 600;
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 400;
    return o;
}

qint64 commandCalls(redis::CommandSender &admin, const QByteArray &command)
{
    const auto info = admin.call({"INFO", "commandstats"});
    if (!info.ok())
        return -1;
    const QByteArray prefix = "cmdstat_" + command + ":calls=";
    for (const QByteArray &line : info->bytes().split('\n'))
        if (line.startsWith(prefix)) {
            const QByteArray rest = line.mid(prefix.size());
            return rest.left(rest.indexOf(',')).toLongLong();
        }
    return 0;
}

QString serverLabel(redis::CommandSender &client)
{
    const auto info = client.call({"INFO", "server"});
    if (!info.ok() || !info->string())
        return {};
    QByteArray redisVersion, valkeyVersion;
    for (const QByteArray &line : info->string()->split('\n')) {
        const QByteArray l = line.trimmed();
        if (l.startsWith("redis_version:"))
            redisVersion = l.mid(14);
        else if (l.startsWith("valkey_version:"))
            valkeyVersion = l.mid(15);
    }
    return valkeyVersion.isEmpty() ? QStringLiteral("Redis ") + QString::fromLatin1(redisVersion)
                                   : QStringLiteral("Valkey ") + QString::fromLatin1(valkeyVersion);
}

const QStringList &scriptAclDenials()
{
    static const QStringList denials{
        QStringLiteral("ERR The user executing the script can't run this command"),
        QStringLiteral("ERR ACL failure in script: User ")};
    return denials;
}

bool saysScriptAclDenied(const QString &text, const QString &before)
{
    for (const QString &d : scriptAclDenials())
        if (before.isEmpty() ? text.startsWith(d) : text.contains(before + d))
            return true;
    return false;
}

bool processExists(qint64 pid)
{
    if (pid <= 0)
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

redis::ConnectionOptions setUpPartialWrite(redis::CommandSender &admin,
                                           redis::ConnectionOptions base)
{
    const auto user = admin.call(
        {"ACL", "SETUSER", "partial", "reset", "on", ">pw", "~*", "&*", "+@all", "-set"});
    const auto load = admin.call({"FUNCTION", "LOAD", "REPLACE", previousReleaseSource()});
    if (!user.ok() || !load.ok())
        qWarning("partial-write setup failed: %s; %s", qPrintable(render(user)),
                 qPrintable(render(load)));
    base.username = QStringLiteral("partial");
    base.password = QStringLiteral("pw");
    return base;
}

bool undoPartialWrite(redis::CommandSender &admin)
{
    return admin.call({"FUNCTION", "LOAD", "REPLACE", functionSource("inventory_lib_v1.lua")}).ok()
           && admin.call({"ACL", "DELUSER", "partial"}).ok();
}

static redis::ConnectionOptions loopback(quint16 port)
{
    redis::ConnectionOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = port;
    o.connectTimeoutMs = 3000;
    o.commandTimeoutMs = 5000;
    return o;
}

static std::unique_ptr<redis::RedisClient> connected(const redis::ConnectionOptions &options)
{
    requireContainedHost(options.host);
    auto client = std::make_unique<redis::RedisClient>(options);
    client->open();
    client->waitUntilReady(options.connectTimeoutMs + 1000);
    return client;
}

bool StandaloneRedis::start(const QStringList &extraArgs)
{
    // Tests use DEBUG SLEEP to hold replies back; Redis 7 disables DEBUG by default.
    m_extraArgs =
        QStringList{QStringLiteral("--enable-debug-command"), QStringLiteral("yes")} + extraArgs;
    demo::LocalRedisServer::Options o;
    o.extraArgs = m_extraArgs;
    return m_server.start(o);
}

bool StandaloneRedis::startReplicaOf(const StandaloneRedis &primary)
{
    return start({QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                  QString::number(primary.port())});
}

bool StandaloneRedis::restart()
{
    const quint16 port = m_server.port();
    demo::LocalRedisServer::Options o;
    o.port = port;
    o.extraArgs = m_extraArgs;
    return m_server.start(o);
}

redis::ConnectionOptions StandaloneRedis::options() const
{
    return loopback(m_server.port());
}

std::unique_ptr<redis::RedisClient> StandaloneRedis::connect(redis::ConnectionOptions o) const
{
    return connected(o);
}

bool RedisCluster::start(const Options &options)
{
    m_options = options;
    const int count = 3 * (1 + options.replicasPerPrimary);
    QStringList endpoints;
    for (int i = 0; i < count; ++i) {
        auto server = std::make_unique<demo::LocalRedisServer>();
        demo::LocalRedisServer::Options o;
        o.needsBusPort = true;
        o.extraArgs = QStringList{
            QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
            QStringLiteral("--cluster-config-file"), QStringLiteral("nodes.conf"),
            QStringLiteral("--cluster-node-timeout"), QString::number(options.nodeTimeoutMs),
            QStringLiteral("--cluster-require-full-coverage"),
            options.requireFullCoverage ? QStringLiteral("yes") : QStringLiteral("no"),
            // A replica's first sync starts at once instead of after the default 5 s pause.
            QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0"),
            QStringLiteral("--enable-debug-command"), QStringLiteral("yes")};
        if (!server->start(o)) {
            m_error = server->error().english;
            return false;
        }
        endpoints << QStringLiteral("127.0.0.1:%1").arg(server->port());
        m_servers.push_back(std::move(server));
    }
    QProcess create;
    create.setProcessChannelMode(QProcess::MergedChannels);
    create.start(QStringLiteral("redis-cli"),
                 QStringList{QStringLiteral("--cluster"), QStringLiteral("create")} + endpoints
                     + QStringList{QStringLiteral("--cluster-replicas"),
                                   QString::number(options.replicasPerPrimary),
                                   QStringLiteral("--cluster-yes")});
    if (!create.waitForFinished(30000) || create.exitCode() != 0) {
        m_error = QStringLiteral("redis-cli --cluster create failed (%1, exit %2): %3")
                      .arg(create.errorString())
                      .arg(create.exitCode())
                      .arg(QString::fromUtf8(create.readAll()));
        for (const auto &s : m_servers)
            m_error += QStringLiteral("\n-- node %1 running=%2 log:\n%3")
                           .arg(s->port())
                           .arg(s->isRunning())
                           .arg(s->logTail(8));
        return false;
    }
    // Every node must agree the cluster is up (and every replica be in sync) before tests
    // route by slot or fail a primary over.
    m_error = waitUntilFormed(20000);
    return m_error.isEmpty();
}

namespace {
// One line of CLUSTER NODES: "<id> <ip:port@bus> <flags> <primary id> ...".
struct NodeLine
{
    QByteArray id;
    QList<QByteArray> flags;
};
QList<NodeLine> nodeLines(redis::RedisClient &client)
{
    QList<NodeLine> out;
    const auto nodes = client.call({"CLUSTER", "NODES"});
    if (!nodes.ok())
        return out;
    for (const QByteArray &line : nodes->bytes().split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        if (f.size() >= 3)
            out << NodeLine{f[0], f[2].split(',')};
    }
    return out;
}
bool clusterOk(redis::RedisClient &client)
{
    const auto info = client.call({"CLUSTER", "INFO"});
    return info.ok() && info->bytes().contains("cluster_state:ok");
}
// A node stopped with SIGSTOP answers nothing: asking it would only wait for a timeout.
bool stopped(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) == "T";
}
} // namespace

bool RedisCluster::isLive(int index) const
{
    const auto &s = m_servers.at(size_t(index));
    return s->isRunning() && !stopped(s->pid());
}

QString RedisCluster::waitUntilFormed(int timeoutMs) const
{
    const int count = size();
    const int replicas = 3 * m_options.replicasPerPrimary;
    const QDeadlineTimer deadline(timeoutMs);
    QString why;
    for (;;) {
        why.clear();
        for (int i = 0; i < count && why.isEmpty(); ++i) {
            auto client = connectNode(i);
            const auto lines = nodeLines(*client);
            int replicaLines = 0;
            for (const NodeLine &l : lines) {
                if (l.flags.contains("handshake") || l.flags.contains("noaddr"))
                    why = QStringLiteral("node %1 still meets the others").arg(i);
                if (l.flags.contains("slave"))
                    ++replicaLines;
            }
            if (lines.size() != count || replicaLines != replicas)
                why = QStringLiteral("node %1 knows %2 nodes, %3 of them replicas")
                          .arg(i)
                          .arg(lines.size())
                          .arg(replicaLines);
            else if (!clusterOk(*client))
                why = QStringLiteral("node %1 does not say cluster_state:ok").arg(i);
            const auto role = client->call({"ROLE"});
            if (why.isEmpty() && role.ok() && role->size() >= 4
                && role->elements().at(0).bytes() == "slave"
                && role->elements().at(3).bytes() != "connected")
                why = QStringLiteral("replica %1 is not in sync with its primary yet").arg(i);
        }
        if (why.isEmpty())
            return {};
        if (deadline.hasExpired())
            return QStringLiteral("the cluster did not form: ") + why;
        QThread::msleep(50);
    }
}

QList<int> RedisCluster::primaries() const
{
    QList<int> out;
    for (int i = 0; i < size(); ++i) {
        if (!isLive(i))
            continue;
        const auto role = connectNode(i)->call({"ROLE"});
        if (role.ok() && role->size() > 0 && role->elements().at(0).bytes() == "master")
            out << i;
    }
    return out;
}

int RedisCluster::replicaOf(int primary) const
{
    const quint16 port = m_servers.at(size_t(primary))->port();
    for (int i = 0; i < size(); ++i) {
        if (i == primary || !isLive(i))
            continue;
        const auto role = connectNode(i)->call({"ROLE"});
        // {"slave", host, port, state, offset}
        if (role.ok() && role->size() >= 3 && role->elements().at(0).bytes() == "slave"
            && role->elements().at(2).toInteger() == port)
            return i;
    }
    return -1;
}

QString RedisCluster::waitUntilReplicated(int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    for (int i = 0; i < size(); ++i) {
        if (!isLive(i))
            continue;
        auto replica = connectNode(i);
        for (;;) {
            // A replica's ROLE: {"slave", host, port, state, processed offset}; its
            // primary's: {"master", offset, ...}. The replica's own offset moves at once,
            // where the primary's view of it waits for the next REPLCONF ACK (1 s).
            const auto role = replica->call({"ROLE"});
            if (!role.ok() || role->at(0).bytes() != "slave")
                break;
            const auto primaryRole =
                connected(loopback(quint16(role->at(2).toInteger())))->call({"ROLE"});
            if (primaryRole.ok() && role->at(4).toInteger() >= primaryRole->at(1).toInteger())
                break;
            if (deadline.hasExpired())
                return QStringLiteral("replica %1 is still behind its primary").arg(i);
            QThread::msleep(20);
        }
    }
    return {};
}

QString RedisCluster::failover(int replica, int timeoutMs) const
{
    const auto asked = connectNode(replica)->call({"CLUSTER", "FAILOVER"});
    if (!asked.ok())
        return QStringLiteral("CLUSTER FAILOVER on node %1: %2").arg(replica).arg(render(asked));
    return waitUntilPrimary(replica, timeoutMs);
}

QString RedisCluster::waitUntilPrimary(int index, int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    const auto myId = connectNode(index)->call({"CLUSTER", "MYID"});
    if (!myId.ok())
        return QStringLiteral("node %1 did not say its id: %2").arg(index).arg(render(myId));
    QString why;
    for (;;) {
        why.clear();
        for (int i = 0; i < size() && why.isEmpty(); ++i) {
            if (!isLive(i))
                continue;
            auto client = connectNode(i);
            bool seenAsPrimary = false;
            for (const NodeLine &l : nodeLines(*client))
                if (l.id == myId->bytes())
                    seenAsPrimary = l.flags.contains("master") && !l.flags.contains("fail")
                                    && !l.flags.contains("fail?");
            if (!seenAsPrimary)
                why = QStringLiteral("node %1 does not see node %2 as a primary").arg(i).arg(index);
            else if (!clusterOk(*client))
                why = QStringLiteral("node %1 does not say cluster_state:ok").arg(i);
        }
        if (why.isEmpty())
            return {};
        if (deadline.hasExpired())
            return why;
        QThread::msleep(50);
    }
}

QList<redis::ConnectionOptions> RedisCluster::nodes() const
{
    QList<redis::ConnectionOptions> out;
    for (const auto &s : m_servers)
        out << loopback(s->port());
    return out;
}

std::unique_ptr<redis::RedisClient> RedisCluster::connectNode(int index) const
{
    return connected(loopback(m_servers.at(size_t(index))->port()));
}

std::unique_ptr<redis::ClusterRouter> RedisCluster::router(int commandTimeoutMs) const
{
    redis::ConnectionOptions seed = loopback(m_servers.front()->port());
    seed.commandTimeoutMs = commandTimeoutMs;
    return router(seed);
}

std::unique_ptr<redis::ClusterRouter> RedisCluster::router(redis::ConnectionOptions seed) const
{
    redis::ClusterRouter::Options o;
    o.seed = std::move(seed);
    o.seed.host = QStringLiteral("127.0.0.1");
    o.seed.port = m_servers.front()->port();
    auto r = std::make_unique<redis::ClusterRouter>(o);
    r->open();
    r->waitUntilDiscovered(5000);
    return r;
}

QString TlsRedis::caFile() const
{
    return m_certDir.filePath(QStringLiteral("ca.crt"));
}
QString TlsRedis::otherCaFile() const
{
    return m_certDir.filePath(QStringLiteral("other-ca.crt"));
}
QString TlsRedis::clientCertFile() const
{
    return m_certDir.filePath(QStringLiteral("client.crt"));
}
QString TlsRedis::clientKeyFile() const
{
    return m_certDir.filePath(QStringLiteral("client.key"));
}

bool TlsRedis::generateCertificates(const QString &subjectAltName)
{
    const QString d = m_certDir.path();
    const QString script = QStringLiteral(R"(set -e
cd "%1"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Inventory Test CA" \
  -keyout ca.key -out ca.crt 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Some Other CA" \
  -keyout other-ca.key -out other-ca.crt 2>/dev/null
printf "subjectAltName=%2\n" > san.ext
for name in server client; do
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout $name.key -out $name.csr 2>/dev/null
  openssl x509 -req -in $name.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
    -extfile san.ext -out $name.crt 2>/dev/null
done
)")
                               .arg(d, subjectAltName);
    QProcess sh;
    sh.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
    if (!sh.waitForFinished(60000) || sh.exitCode() != 0) {
        m_error = QStringLiteral("openssl could not generate test certificates: %1")
                      .arg(QString::fromUtf8(sh.readAllStandardError()));
        return false;
    }
    return true;
}

bool TlsRedis::start(bool requireClientCert, const QString &certifiedAddress)
{
    const QString names = certifiedAddress.isEmpty() ? QStringLiteral("DNS:localhost,IP:127.0.0.1")
                                                     : QStringLiteral("IP:") + certifiedAddress;
    if (!m_certDir.isValid() || !generateCertificates(names))
        return false;
    const quint16 port = demo::LocalRedisServer::freePort();
    demo::LocalRedisServer::Options o;
    o.port = port;
    o.answersPlainPing = false;
    o.extraArgs = QStringList{QStringLiteral("--port"),
                              QStringLiteral("0"),
                              QStringLiteral("--tls-port"),
                              QString::number(port),
                              QStringLiteral("--tls-cert-file"),
                              m_certDir.filePath(QStringLiteral("server.crt")),
                              QStringLiteral("--tls-key-file"),
                              m_certDir.filePath(QStringLiteral("server.key")),
                              QStringLiteral("--tls-ca-cert-file"),
                              caFile(),
                              QStringLiteral("--tls-auth-clients"),
                              requireClientCert ? QStringLiteral("yes") : QStringLiteral("no")};
    if (!certifiedAddress.isEmpty())
        o.extraArgs << QStringLiteral("--bind") << QStringLiteral("127.0.0.1") << certifiedAddress;
    if (!m_server.start(o)) {
        m_error = m_server.error().english;
        return false;
    }
    return true;
}

redis::ConnectionOptions TlsRedis::options() const
{
    redis::ConnectionOptions o = loopback(m_server.port());
    o.tls.enabled = true;
    o.tls.caFile = caFile();
    o.tls.serverName = QStringLiteral("localhost");
    return o;
}

} // namespace testsupport
