#include "RedisFixture.h"

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
        return QStringLiteral("error: ") + e.message;
    return e.kindName() + QStringLiteral(": ") + e.message;
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

bool RedisCluster::start()
{
    QStringList endpoints;
    for (int i = 0; i < 3; ++i) {
        auto server = std::make_unique<demo::LocalRedisServer>();
        demo::LocalRedisServer::Options o;
        o.needsBusPort = true;
        o.extraArgs =
            QStringList{QStringLiteral("--cluster-enabled"),      QStringLiteral("yes"),
                        QStringLiteral("--cluster-config-file"),  QStringLiteral("nodes.conf"),
                        QStringLiteral("--cluster-node-timeout"), QStringLiteral("3000")};
        if (!server->start(o)) {
            m_error = server->errorString();
            return false;
        }
        endpoints << QStringLiteral("127.0.0.1:%1").arg(server->port());
        m_servers.push_back(std::move(server));
    }
    QProcess create;
    create.start(QStringLiteral("redis-cli"),
                 QStringList{QStringLiteral("--cluster"), QStringLiteral("create")} + endpoints
                     + QStringList{QStringLiteral("--cluster-yes")});
    if (!create.waitForFinished(30000) || create.exitCode() != 0) {
        m_error = QStringLiteral("redis-cli --cluster create failed: %1")
                      .arg(QString::fromUtf8(create.readAll()));
        return false;
    }
    // Every node must agree the cluster is up before tests route by slot.
    const QDeadlineTimer deadline(20000);
    for (int i = 0; i < 3; ++i) {
        auto client = connectNode(i);
        for (;;) {
            auto info = client->call({"CLUSTER", "INFO"});
            if (info.ok() && info->bytes().contains("cluster_state:ok"))
                break;
            if (deadline.hasExpired()) {
                m_error = QStringLiteral("the cluster did not reach cluster_state:ok");
                return false;
            }
            QThread::msleep(100);
        }
    }
    return true;
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

bool TlsRedis::generateCertificates()
{
    const QString d = m_certDir.path();
    const QString script = QStringLiteral(R"(set -e
cd "%1"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Inventory Test CA" \
  -keyout ca.key -out ca.crt 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Some Other CA" \
  -keyout other-ca.key -out other-ca.crt 2>/dev/null
printf "subjectAltName=DNS:localhost,IP:127.0.0.1\n" > san.ext
for name in server client; do
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout $name.key -out $name.csr 2>/dev/null
  openssl x509 -req -in $name.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
    -extfile san.ext -out $name.crt 2>/dev/null
done
)")
                               .arg(d);
    QProcess sh;
    sh.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
    if (!sh.waitForFinished(60000) || sh.exitCode() != 0) {
        m_error = QStringLiteral("openssl could not generate test certificates: %1")
                      .arg(QString::fromUtf8(sh.readAllStandardError()));
        return false;
    }
    return true;
}

bool TlsRedis::start(bool requireClientCert)
{
    if (!m_certDir.isValid() || !generateCertificates())
        return false;
    const quint16 port = demo::LocalRedisServer::freePort();
    demo::LocalRedisServer::Options o;
    o.port = port;
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
    if (!m_server.start(o)) {
        m_error = m_server.errorString();
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
