#include "RedisFixture.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QThread>

namespace testsupport {

QByteArray functionSource(const QString &fileName)
{
    QFile f(QStringLiteral(INVENTORY_SOURCE_DIR "/functions/") + fileName);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read functions/%s", qPrintable(fileName));
    return f.readAll();
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
    m_extraArgs = QStringList{QStringLiteral("--enable-debug-command"), QStringLiteral("yes")}
                  + extraArgs;
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
        o.extraArgs = QStringList{QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                                  QStringLiteral("--cluster-config-file"),
                                  QStringLiteral("nodes.conf"),
                                  QStringLiteral("--cluster-node-timeout"),
                                  QStringLiteral("3000")};
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
    o.extraArgs = QStringList{QStringLiteral("--port"), QStringLiteral("0"),
                              QStringLiteral("--tls-port"), QString::number(port),
                              QStringLiteral("--tls-cert-file"),
                              m_certDir.filePath(QStringLiteral("server.crt")),
                              QStringLiteral("--tls-key-file"),
                              m_certDir.filePath(QStringLiteral("server.key")),
                              QStringLiteral("--tls-ca-cert-file"), caFile(),
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
