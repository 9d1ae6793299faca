// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/LocalRedisServer.h"
#include "redis/ClusterRouter.h"
#include "redis/RedisClient.h"

#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <vector>

// Real redis-server processes for tests: loopback, free ports, temp dirs, torn down by the
// destructors (and killed with the test process if it dies, see LocalRedisServer).
namespace testsupport {

// Reads a file shipped in functions/ (from the source tree).
QByteArray functionSource(const QString &fileName);
// The frozen 1.0.0 release of inventory_lib_v1 the demo loads, from the core's resources.
QByteArray previousReleaseSource();

// A reply rendered for exact comparison in tests: integers as 7, bulk strings as "7",
// status as +OK, nil as nil, arrays as {1,7}, errors as "error: <whole message>", and
// transport failures as "<kind>: <message>". Integer and string never render alike.
QString render(const redis::ReplyResult &result);
QString render(const redis::Reply &reply);

// The observable state of some keys (existence and type, value through DUMP, PTTL) and of
// the whole database (DBSIZE and every key name), to prove that a refused call wrote nothing.
struct KeyState
{
    QByteArray key;
    QByteArray type;    // "none" when the key does not exist
    QByteArray dump;    // DUMP payload (type-independent value), empty when missing
    qint64 pttlMs = -2; // -2 missing, -1 no TTL
};
struct Snapshot
{
    QString error; // non-empty when the snapshot itself could not be taken
    qint64 dbSize = -1;
    QList<QByteArray> allKeys; // sorted
    QList<KeyState> keys;
};
Snapshot snapshot(redis::CommandSender &client, const QList<QByteArray> &keys);
// Empty when after equals before: same keys, types, values, DBSIZE; a TTL equal or lower
// by at most ttlSlackMs (time passes between the two snapshots). Otherwise what differs.
QString snapshotDifference(const Snapshot &before, const Snapshot &after, qint64 ttlSlackMs = 1000);

// Short timeouts for tests of a silent or dead server (kill -STOP, SIGKILL): a command
// timeout of 300 ms, silence closes the connection after 600 ms, reconnects within 400 ms.
redis::ConnectionOptions quickFailure(redis::ConnectionOptions options);

// What the server says it is, read from INFO server here and not through
// overview::serverIdentity, so that tests check the console against the server itself:
// "Valkey 8.0.1" when it names itself Valkey, else "Redis <redis_version>"; empty on failure.
QString serverLabel(redis::CommandSender &client);

// How many times the server ran a command ("set", "script|load"), from INFO commandstats;
// 0 when it never ran, -1 when INFO could not be read (never a count). Ask on a connection
// of the test's own.
qint64 commandCalls(redis::CommandSender &admin, const QByteArray &command);

// How the server words a script's command that its ACL user may not run: Redis 7.0 says
// "ERR The user executing the script can't run this command...", Redis 7.2 and later and
// Valkey "ERR ACL failure in script: User <name> has no permissions to run...". The console
// classifies by the error, never by this wording; tests that quote it accept either.
const QStringList &scriptAclDenials();
// Whether `text` holds one of them right after `before` ("" to test the start of `text`).
bool saysScriptAclDenied(const QString &text, const QString &before = {});

// Whether a process with this id exists (a reaped child does not).
bool processExists(qint64 pid);

// The partial-write case: the frozen 1.0.0 of inventory_lib_v1 (it does not check permissions
// before writing) is loaded through `admin`, and an ACL user "partial" (password "pw") who may
// run anything but SET is created, so inventory_deduct_v1 decrements and then fails. Returns
// `base` with that user's credentials; false from undo() when the cleanup failed.
redis::ConnectionOptions setUpPartialWrite(redis::CommandSender &admin,
                                           redis::ConnectionOptions base);
// Puts the shipped library back and removes the user.
bool undoPartialWrite(redis::CommandSender &admin);

// A standalone server.
class StandaloneRedis
{
public:
    bool start(const QStringList &extraArgs = {});
    // Starts as a replica of `primary` (--replicaof 127.0.0.1 <its port>).
    bool startReplicaOf(const StandaloneRedis &primary);
    QString errorString() const { return m_server.error().english; }
    redis::ConnectionOptions options() const;
    // A connected client (waits until ready).
    std::unique_ptr<redis::RedisClient> connect(redis::ConnectionOptions options) const;
    std::unique_ptr<redis::RedisClient> connect() const { return connect(options()); }
    demo::LocalRedisServer &server() { return m_server; }
    quint16 port() const { return m_server.port(); }
    // Stops and starts again on the same port (the data is not kept).
    bool restart();

private:
    demo::LocalRedisServer m_server;
    QStringList m_extraArgs;
};

// Three primaries, slots spread by redis-cli --cluster create; by default no replicas.
// With replicasPerPrimary 1 (3+3) start() returns once every replica is in sync, so that a
// CLUSTER FAILOVER or a primary's death has a replica ready to take over.
class RedisCluster
{
public:
    struct Options
    {
        int replicasPerPrimary = 0;
        // How long a silent node takes to be marked failed (and replaced by its replica).
        int nodeTimeoutMs = 3000;
        // Off: the other primaries keep serving their slots while one node is down.
        bool requireFullCoverage = true;
    };
    bool start() { return start(Options()); }
    bool start(const Options &options);
    QString errorString() const { return m_error; }
    // Every node, primaries and replicas, in the order they were started.
    QList<redis::ConnectionOptions> nodes() const;
    int size() const { return int(m_servers.size()); }
    std::unique_ptr<redis::RedisClient> connectNode(int index) const;
    // A router seeded with the first node, the topology discovered.
    std::unique_ptr<redis::ClusterRouter> router(int commandTimeoutMs = 3000) const;
    // The same with these connection options (the seed's address is set here).
    std::unique_ptr<redis::ClusterRouter> router(redis::ConnectionOptions seed) const;
    qint64 pid(int index) const { return m_servers.at(size_t(index))->pid(); }
    void kill(int index) { m_servers.at(size_t(index))->kill(); }

    // Indexes of the nodes that are primaries now, asked of each live node (ROLE).
    QList<int> primaries() const;
    // The index of a primary's replica, -1 when it has none.
    int replicaOf(int primary) const;
    // Waits until every live replica has applied everything its primary has (replication is
    // asynchronous: a primary killed right after a write may take it with it). Empty on
    // success, else which replica is behind.
    QString waitUntilReplicated(int timeoutMs = 10000) const;
    // Runs CLUSTER FAILOVER on a replica and waits until it is a primary in every live node's
    // view and the cluster is ok again. Empty on success, else what went wrong.
    QString failover(int replica, int timeoutMs = 15000) const;
    // Waits until the node is a primary in the view of every live node and every live node
    // says cluster_state:ok (after a failover, or after a primary died and its replica took
    // over). Empty on success, else what the cluster still says.
    QString waitUntilPrimary(int index, int timeoutMs = 15000) const;

private:
    QString waitUntilFormed(int timeoutMs) const;
    bool isLive(int index) const;
    std::vector<std::unique_ptr<demo::LocalRedisServer>> m_servers;
    Options m_options;
    QString m_error;
};

// A TLS-only server with a CA, server and client certificates generated by openssl.
class TlsRedis
{
public:
    // The server certificate names localhost and 127.0.0.1; with `certifiedAddress` (another
    // loopback address) it names that address alone, and the server listens there too.
    bool start(bool requireClientCert = false, const QString &certifiedAddress = {});
    QString errorString() const { return m_error; }
    redis::ConnectionOptions options() const; // TLS on, verify on, the generated CA
    QString caFile() const;
    QString otherCaFile() const; // a CA that did not sign the server certificate
    QString clientCertFile() const;
    QString clientKeyFile() const;
    quint16 port() const { return m_server.port(); }

private:
    bool generateCertificates(const QString &subjectAltName);
    QTemporaryDir m_certDir;
    demo::LocalRedisServer m_server;
    QString m_error;
};

} // namespace testsupport
