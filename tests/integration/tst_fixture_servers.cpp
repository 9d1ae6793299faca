// SPDX-License-Identifier: GPL-3.0-or-later
// Proves the test fixture itself (tests/support/RedisFixture.h): the servers the other
// integration tests rely on start as described, are the processes we think, and go away.
#include "RedisFixture.h"
#include "overview/ServerOverview.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace redis;
using testsupport::render;

namespace {
bool portAccepts(quint16 port)
{
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, port);
    return probe.waitForConnected(500);
}

QByteArray infoField(const QByteArray &info, const QByteArray &name)
{
    for (const QByteArray &line : info.split('\n'))
        if (line.startsWith(name + ':'))
            return line.mid(name.size() + 1).trimmed();
    return {};
}

// A process's command line, NUL separators as they are ("" when it is gone).
QByteArray readCmdline(qint64 pid)
{
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return cmdline.open(QIODevice::ReadOnly) ? cmdline.readAll() : QByteArray();
}

// A client that tries once and reports how it ended (Ready or not).
std::unique_ptr<RedisClient> tryConnect(ConnectionOptions o)
{
    o.connectTimeoutMs = 3000;
    o.autoReconnect = false;
    auto c = std::make_unique<RedisClient>(o);
    c->open();
    c->waitUntilReady(o.connectTimeoutMs + 1000);
    return c;
}
} // namespace

class TstFixtureServers : public QObject
{
    Q_OBJECT

    std::unique_ptr<testsupport::RedisCluster> m_cluster;
    std::unique_ptr<testsupport::TlsRedis> m_tls;
    std::unique_ptr<testsupport::TlsRedis> m_mutualTls;
    std::map<quint16, int> m_nodeByPort; // cluster node port -> node index

    // CLUSTER SLOTS as (first slot, last slot) -> primary port.
    std::map<std::pair<int, int>, quint16> slotRanges(RedisClient &c)
    {
        std::map<std::pair<int, int>, quint16> out;
        auto slotTable = c.call({"CLUSTER", "SLOTS"});
        if (!slotTable.ok())
            return out;
        for (const Reply &range : slotTable->elements())
            out[{int(range.at(0).toInteger()), int(range.at(1).toInteger())}] =
                quint16(range.at(2).at(1).toInteger());
        return out;
    }

private slots:
    void initTestCase()
    {
        m_cluster = std::make_unique<testsupport::RedisCluster>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        const auto nodes = m_cluster->nodes();
        for (int i = 0; i < nodes.size(); ++i)
            m_nodeByPort[nodes[i].port] = i;
        m_tls = std::make_unique<testsupport::TlsRedis>();
        QVERIFY2(m_tls->start(), qPrintable(m_tls->errorString()));
        m_mutualTls = std::make_unique<testsupport::TlsRedis>();
        QVERIFY2(m_mutualTls->start(true), qPrintable(m_mutualTls->errorString()));
    }

    // --- standalone ---

    void standaloneIsTheProcessItSaysAndStops()
    {
        testsupport::StandaloneRedis s;
        QVERIFY2(s.start(), qPrintable(s.errorString()));
        const qint64 pid = s.server().pid();
        const quint16 port = s.port();
        QVERIFY(pid > 0);
        QVERIFY(testsupport::processExists(pid));
        const QByteArray cmd = readCmdline(pid);
        // The binary the fixtures chose (INVENTORY_REDIS_SERVER in the server matrix).
        const QString program = QFileInfo(demo::LocalRedisServer::findExecutable()).fileName();
        QVERIFY2(cmd.contains(program.toLocal8Bit()), cmd.constData());
        // The server we talk to on that port is that process, on loopback.
        {
            auto c = s.connect();
            QCOMPARE(c->state(), ConnectionState::Ready);
            QCOMPARE(render(c->call({"PING"})), QStringLiteral("+PONG"));
            auto info = c->call({"INFO", "server"});
            QVERIFY(info.ok());
            QCOMPARE(infoField(info->bytes(), "process_id"), QByteArray::number(pid));
            QCOMPARE(infoField(info->bytes(), "tcp_port"), QByteArray::number(port));
            auto bind = c->call({"CONFIG", "GET", "bind"});
            QCOMPARE(render(bind), QStringLiteral("{\"bind\",\"127.0.0.1\"}"));
        }
        s.server().stop();
        QVERIFY(!s.server().isRunning());
        QVERIFY2(!testsupport::processExists(pid), qPrintable(QString::number(pid)));
        QVERIFY(!portAccepts(port));
    }

    // The server matrix (scripts/servers, ctest -L matrix) swaps the binary through one
    // variable; a fixture that ignored it would test Debian's server under another name.
    void chosenServerBinaryIsTheOneStarted()
    {
        const QByteArray saved = qgetenv("INVENTORY_REDIS_SERVER");
        const QString real = demo::LocalRedisServer::findExecutable();
        QVERIFY(!real.isEmpty());
        QTemporaryDir dir;
        const QString chosen = dir.filePath(QStringLiteral("chosen-server"));
        QVERIFY(QFile::link(real, chosen));
        qputenv("INVENTORY_REDIS_SERVER", chosen.toLocal8Bit());
        testsupport::StandaloneRedis s;
        const bool started = s.start();
        const QByteArray cmd = started ? readCmdline(s.server().pid()) : QByteArray();
        qputenv("INVENTORY_REDIS_SERVER", dir.filePath(QStringLiteral("missing")).toLocal8Bit());
        testsupport::StandaloneRedis missing;
        const bool missingStarted = missing.start();
        saved.isEmpty() ? qunsetenv("INVENTORY_REDIS_SERVER")
                        : qputenv("INVENTORY_REDIS_SERVER", saved);
        QVERIFY2(started, qPrintable(s.errorString()));
        QVERIFY2(cmd.startsWith(chosen.toLocal8Bit()), cmd.constData());
        QVERIFY(!missingStarted);
        QVERIFY2(missing.errorString().contains(QLatin1String("INVENTORY_REDIS_SERVER")),
                 qPrintable(missing.errorString()));
    }

    void standaloneDestructorLeavesNothing()
    {
        qint64 pid = 0;
        quint16 port = 0;
        QString dir;
        {
            testsupport::StandaloneRedis s;
            QVERIFY2(s.start(), qPrintable(s.errorString()));
            pid = s.server().pid();
            port = s.port();
            dir = s.server().directory();
            QVERIFY(testsupport::processExists(pid));
            QVERIFY(QDir(dir).exists());
            QVERIFY(portAccepts(port));
        }
        QVERIFY(!testsupport::processExists(pid));
        QVERIFY(!QDir(dir).exists());
        QVERIFY(!portAccepts(port));
    }

    void standaloneKillAndRestart()
    {
        testsupport::StandaloneRedis s;
        QVERIFY2(s.start(), qPrintable(s.errorString()));
        const qint64 first = s.server().pid();
        const quint16 port = s.port();
        QCOMPARE(render(s.connect()->call({"SET", "k", "v"})), QStringLiteral("+OK"));
        s.server().kill();
        QVERIFY(!testsupport::processExists(first));
        QVERIFY(s.restart());
        const qint64 second = s.server().pid();
        QVERIFY(second != first && testsupport::processExists(second));
        QCOMPARE(s.port(), port);
        auto c = s.connect();
        QCOMPARE(render(c->call({"GET", "k"})), QStringLiteral("nil")); // data not kept
        c.reset();
        s.server().stop();
        QVERIFY(!testsupport::processExists(second));
    }

    // A node started with cluster mode gets a port whose bus port (+10000) exists and is
    // free, whether or not the caller said so: one above 55535 never answers (tst_cli_keys
    // flaked on that about once in six runs).
    void clusterModeNodeGetsABusPort()
    {
        for (int i = 0; i < 12; ++i) {
            testsupport::StandaloneRedis node;
            QVERIFY2(node.start({"--cluster-enabled", "yes"}), qPrintable(node.errorString()));
            QVERIFY2(node.port() <= 55535, qPrintable(QString::number(node.port())));
            QVERIFY(portAccepts(quint16(node.port() + 10000)));
        }
    }

    // --- cluster ---

    void clusterIsUp()
    {
        for (int i = 0; i < 3; ++i) {
            auto c = m_cluster->connectNode(i);
            auto info = c->call({"CLUSTER", "INFO"});
            QVERIFY2(info.ok(), qPrintable(render(info)));
            QCOMPARE(infoField(info->bytes(), "cluster_state"), QByteArray("ok"));
            QCOMPARE(infoField(info->bytes(), "cluster_slots_assigned"), QByteArray("16384"));
            QCOMPARE(infoField(info->bytes(), "cluster_slots_ok"), QByteArray("16384"));
            QCOMPARE(infoField(info->bytes(), "cluster_known_nodes"), QByteArray("3"));
            QCOMPARE(infoField(info->bytes(), "cluster_size"), QByteArray("3"));
        }
    }

    // Every slot is served exactly once, by one of the three fixture nodes, all primaries.
    void clusterSlotsCoverEverySlot()
    {
        for (int i = 0; i < 3; ++i) {
            auto c = m_cluster->connectNode(i);
            auto slotTable = c->call({"CLUSTER", "SLOTS"});
            QVERIFY2(slotTable.ok() && slotTable->isArray(), qPrintable(render(slotTable)));
            QList<int> owner(16384, -1);
            QSet<quint16> primaries;
            for (const Reply &range : slotTable->elements()) {
                QCOMPARE(range.size(), 3); // first, last, primary; no replicas
                const int first = int(range.at(0).toInteger());
                const int last = int(range.at(1).toInteger());
                QVERIFY(first >= 0 && first <= last && last < 16384);
                const quint16 port = quint16(range.at(2).at(1).toInteger());
                QVERIFY2(m_nodeByPort.count(port), qPrintable(QString::number(port)));
                primaries.insert(port);
                for (int s = first; s <= last; ++s) {
                    QVERIFY2(owner[s] == -1, qPrintable(QStringLiteral("slot %1 twice").arg(s)));
                    owner[s] = port;
                }
            }
            QCOMPARE(primaries.size(), 3);
            QCOMPARE(owner.count(-1), 0);
            auto role = c->call({"ROLE"});
            QVERIFY(role.ok());
            QCOMPARE(render(role->at(0)), QStringLiteral("\"master\""));
        }
    }

    // FUNCTION LOAD is per node (not propagated); once on every primary, FCALL runs on the
    // node that owns the keys' slot and the others redirect.
    void clusterLoadsLibraryOnEveryPrimary()
    {
        const QByteArray lib = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QList<std::shared_ptr<RedisClient>> nodes;
        for (int i = 0; i < 3; ++i)
            nodes << std::shared_ptr<RedisClient>(m_cluster->connectNode(i));
        for (auto &n : nodes)
            QCOMPARE(render(n->call({"FUNCTION", "FLUSH", "SYNC"})), QStringLiteral("+OK"));
        QCOMPARE(render(nodes[0]->call({"FUNCTION", "LOAD", "REPLACE", lib})),
                 QStringLiteral("\"inventory_lib_v1\""));
        // A library reaches another node only by replication: once every replica of node 0
        // has acknowledged the load (WAIT), it has gone wherever it would go.
        const auto replication =
            overview::parseInfo(nodes[0]->call({"INFO", "replication"})->bytes());
        const QByteArray followers = replication.value("connected_slaves");
        QVERIFY2(!followers.isEmpty(), "INFO replication names no connected_slaves");
        QCOMPARE(render(nodes[0]->call({"WAIT", followers, "60000"})),
                 QString::fromLatin1(followers));
        QCOMPARE(render(nodes[1]->call({"FUNCTION", "LIST"})), QStringLiteral("{}"));
        QCOMPARE(render(nodes[2]->call({"FUNCTION", "LIST"})), QStringLiteral("{}"));
        for (int i = 1; i < 3; ++i)
            QCOMPARE(render(nodes[i]->call({"FUNCTION", "LOAD", "REPLACE", lib})),
                     QStringLiteral("\"inventory_lib_v1\""));
        for (auto &n : nodes) {
            auto list = n->call({"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1"});
            QVERIFY2(list.ok() && list->size() == 1, qPrintable(render(list)));
        }
    }

    void clusterFcallOnSlotOwner()
    {
        // Ensure loaded on every primary even when run alone (-functions / a single test).
        const QByteArray lib = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QList<std::shared_ptr<RedisClient>> nodes;
        for (int i = 0; i < 3; ++i) {
            nodes << std::shared_ptr<RedisClient>(m_cluster->connectNode(i));
            QCOMPARE(render(nodes[i]->call({"FUNCTION", "LOAD", "REPLACE", lib})),
                     QStringLiteral("\"inventory_lib_v1\""));
        }
        const auto ranges = slotRanges(*nodes[0]);
        QVERIFY(!ranges.empty());
        const auto ownerOf = [&](int slot) {
            for (const auto &[range, port] : ranges)
                if (slot >= range.first && slot <= range.second)
                    return m_nodeByPort.at(port);
            return -1;
        };
        QSet<int> covered;
        for (int sku = 1; covered.size() < 3 && sku < 200; ++sku) {
            const QByteArray stock = "stock:{" + QByteArray::number(sku) + "}:available";
            const QByteArray receipt = "idem:{" + QByteArray::number(sku) + "}:9001";
            auto slot = nodes[0]->call({"CLUSTER", "KEYSLOT", stock});
            QVERIFY2(slot.ok() && slot->isInteger(), qPrintable(render(slot)));
            // The hash tag puts stock and receipt in one slot.
            QCOMPARE(render(nodes[0]->call({"CLUSTER", "KEYSLOT", receipt})),
                     QString::number(slot->toInteger()));
            const int owner = ownerOf(int(slot->toInteger()));
            QVERIFY(owner >= 0);
            if (covered.contains(owner))
                continue;
            covered.insert(owner);
            RedisClient &o = *nodes[owner];
            QCOMPARE(render(o.call({"SET", stock, "10"})), QStringLiteral("+OK"));
            const Command fcall{"FCALL", "inventory_deduct_v1", "2", stock, receipt, "1", "60"};
            // Another node redirects to the owner and runs nothing.
            RedisClient &other = *nodes[(owner + 1) % 3];
            auto moved = other.call(fcall);
            QVERIFY(!moved.ok());
            QCOMPARE(moved.error().code, QByteArray("MOVED"));
            QCOMPARE(moved.error().message.english, QStringLiteral("MOVED %1 127.0.0.1:%2")
                                                        .arg(slot->toInteger())
                                                        .arg(m_cluster->nodes().at(owner).port));
            QCOMPARE(render(o.call(fcall)), QStringLiteral("{1,9}"));
            QCOMPARE(render(o.call(fcall)), QStringLiteral("{2,9}"));
            QCOMPARE(render(o.call({"GET", receipt})), QStringLiteral("\"9\""));
            QCOMPARE(render(o.call({"GET", stock})), QStringLiteral("\"9\""));
            // Keys of two SKUs (two slots) in one call are refused, nothing written.
            const QByteArray otherReceipt = "idem:{other" + QByteArray::number(sku) + "}:1";
            auto cross =
                o.call({"FCALL", "inventory_deduct_v1", "2", stock, otherReceipt, "1", "60"});
            QVERIFY(!cross.ok());
            QVERIFY2(cross.error().code == "CROSSSLOT" || cross.error().code == "MOVED",
                     qPrintable(render(cross)));
            QCOMPARE(render(o.call({"GET", stock})), QStringLiteral("\"9\""));
        }
        QCOMPARE(covered.size(), 3);
    }

    // --- TLS ---

    void tlsWithGeneratedCa()
    {
        auto c = tryConnect(m_tls->options());
        QVERIFY2(c->state() == ConnectionState::Ready, qPrintable(c->stateDetail().english));
        QCOMPARE(render(c->call({"PING"})), QStringLiteral("+PONG"));
        // It really is TLS: the same port refuses a plaintext client.
        ConnectionOptions plain = m_tls->options();
        plain.tls.enabled = false;
        auto p = tryConnect(plain);
        qInfo() << "plaintext to TLS port:" << p->stateDetail().english;
        QVERIFY(p->state() != ConnectionState::Ready);
        QVERIFY(!p->call({"PING"}).ok());
    }

    void tlsWithOtherCaFails()
    {
        ConnectionOptions o = m_tls->options();
        o.tls.caFile = m_tls->otherCaFile();
        auto c = tryConnect(o);
        QCOMPARE(c->state(), ConnectionState::Failed);
        const QString detail = c->stateDetail().english;
        qInfo() << "other CA:" << detail;
        QVERIFY2(detail.contains(QStringLiteral("TLS")), qPrintable(detail));
        QVERIFY2(detail.contains(QStringLiteral("certificate"), Qt::CaseInsensitive),
                 qPrintable(detail));
        auto r = c->call({"PING"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::NotSent);
    }

    void tlsVerifyWithoutCaFails()
    {
        ConnectionOptions o = m_tls->options();
        o.tls.caFile.clear(); // the system store does not know the test CA
        o.tls.verifyPeer = true;
        auto c = tryConnect(o);
        qInfo() << "no CA:" << c->stateDetail().english;
        QCOMPARE(c->state(), ConnectionState::Failed);
        QVERIFY2(c->stateDetail().english.contains(QStringLiteral("TLS")),
                 qPrintable(c->stateDetail().english));
        QVERIFY(!c->call({"PING"}).ok());
        // Without verification the same connection is accepted (the option is honoured).
        o.tls.verifyPeer = false;
        auto unverified = tryConnect(o);
        QVERIFY2(unverified->state() == ConnectionState::Ready,
                 qPrintable(unverified->stateDetail().english));
        QCOMPARE(render(unverified->call({"PING"})), QStringLiteral("+PONG"));
    }

    void tlsWrongServerNameFails()
    {
        ConnectionOptions o = m_tls->options();
        o.tls.serverName = QStringLiteral("not-the-server.example");
        auto c = tryConnect(o);
        qInfo() << "wrong name:" << c->stateDetail().english;
        QCOMPARE(c->state(), ConnectionState::Failed);
        QVERIFY2(c->stateDetail().english.contains(QStringLiteral("TLS")),
                 qPrintable(c->stateDetail().english));
    }

    void tlsClientCertificateRequired()
    {
        ConnectionOptions o = m_mutualTls->options();
        o.tls.certFile = m_mutualTls->clientCertFile();
        o.tls.keyFile = m_mutualTls->clientKeyFile();
        auto withCert = tryConnect(o);
        QVERIFY2(withCert->state() == ConnectionState::Ready,
                 qPrintable(withCert->stateDetail().english));
        QCOMPARE(render(withCert->call({"PING"})), QStringLiteral("+PONG"));

        ConnectionOptions none = m_mutualTls->options();
        auto without = tryConnect(none);
        qInfo() << "no client certificate:" << without->stateDetail().english;
        QVERIFY2(without->state() != ConnectionState::Ready,
                 qPrintable(without->stateDetail().english));
        QCOMPARE(without->state(), ConnectionState::Failed);
        QVERIFY2(without->stateDetail().english.contains(QStringLiteral("certificate")),
                 qPrintable(without->stateDetail().english));
        QVERIFY(!without->call({"PING"}).ok());
    }

    // Torn down: no fixture server keeps its port.
    void cleanupTestCase()
    {
        QList<quint16> ports;
        if (m_cluster)
            for (const auto &n : m_cluster->nodes())
                ports << n.port;
        if (m_tls)
            ports << m_tls->port();
        if (m_mutualTls)
            ports << m_mutualTls->port();
        m_cluster.reset();
        m_tls.reset();
        m_mutualTls.reset();
        for (quint16 port : ports)
            QVERIFY2(!portAccepts(port), qPrintable(QString::number(port)));
    }
};

QTEST_GUILESS_MAIN(TstFixtureServers)
#include "tst_fixture_servers.moc"
