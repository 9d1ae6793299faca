// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditTrail.h"
#include "ChangeFixture.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "core/DataPaths.h"
#include "functions/ClusterNodes.h"
#include "functions/LibraryChange.h"
#include "functions/LibraryMatrix.h"
#include "functions/LoadJournal.h"
#include "functions/LocalCatalog.h"
#include "gate/WriteGate.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace redis;
using testsupport::runCli;

// Function libraries on a real Redis Cluster of 3 primaries with a replica each. FUNCTION
// LOAD is not propagated between shards: the matrix reads every node, drift made by loading
// directly on one node is found and brought in line, and a load that one primary refuses
// leaves nothing changed on the others.
class TstFunctionsCluster : public QObject
{
    Q_OBJECT

    testsupport::RedisCluster m_cluster;
    QByteArray m_shipped;
    QByteArray m_previous;

    QString address(int i) const
    {
        return QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(i).port);
    }
    QString url() const { return QStringLiteral("redis://%1").arg(address(0)); }

    QByteArray code(int node, const QByteArray &library = "inventory_lib_v1") const
    {
        auto r = m_cluster.connectNode(node)->call(
            {"FUNCTION", "LIST", "LIBRARYNAME", library, "WITHCODE"});
        if (!r.ok())
            return "error: " + r.error().message.english.toUtf8();
        auto libs = decodeFunctionList(*r);
        for (const LibraryInfo &l : libs.value())
            if (l.name == QString::fromUtf8(library))
                return l.code;
        return {};
    }

    void loadEverywhere(const QByteArray &library)
    {
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)->call({"FUNCTION", "LOAD", "REPLACE", library}).ok());
    }

    // What `functions status --json` says once the replicas have caught up (or the last
    // answer after 5 s): a replica applies its primary's load a moment later.
    testsupport::CliRun status(int expectedExit)
    {
        testsupport::CliRun r;
        for (int attempt = 0; attempt < 50; ++attempt) {
            r = runCli({"functions", "status", "--url", url(), "--json", "--timeout-ms", "2000"});
            if (r.exitCode == expectedExit)
                break;
            QTest::qWait(100);
        }
        return r;
    }

    static QJsonObject json(const testsupport::CliRun &r)
    {
        return QJsonDocument::fromJson(r.out).object();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        testsupport::RedisCluster::Options options;
        options.replicasPerPrimary = 1;
        QVERIFY2(m_cluster.start(options), qPrintable(m_cluster.errorString()));
        m_shipped = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        m_previous = testsupport::previousReleaseSource();
    }

    void init() { loadEverywhere(m_shipped); }

    // Every primary and replica, read over its own connection, in line.
    void matrixInLine()
    {
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        ClusterRouter router(o);
        router.open();
        QVERIFY(router.waitUntilDiscovered(5000));
        QVERIFY(router.isCluster());
        functions::ClusterNodes nodes(router);
        const QList<functions::MatrixNode> list = nodes.matrixNodes();
        QCOMPARE(list.size(), 6);
        QCOMPARE(nodes.primaries().size(), 3);
        // Each primary is followed by its own replica.
        QVERIFY(list.at(0).primary);
        QVERIFY(!list.at(1).primary);
        QCOMPARE(list.at(1).primaryAddress, list.at(0).address);
        functions::LibraryMatrix m;
        for (int attempt = 0; attempt < 50; ++attempt) {
            m = functions::readLibraryMatrixBlocking(list, 5000);
            if (m.state() == functions::LibraryMatrix::State::InLine)
                break;
            QTest::qWait(100);
        }
        QCOMPARE(functions::matrixStateName(m.state()), QStringLiteral("in-line"));
        QCOMPARE(m.libraries(), QStringList{QStringLiteral("inventory_lib_v1")});
        for (const functions::NodeLibraries &n : m.nodes())
            QCOMPARE(n.library(QStringLiteral("inventory_lib_v1"))->code, m_shipped);

        const auto r = status(0);
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QCOMPARE(json(r).value("nodes").toArray().size(), 6);
        QCOMPARE(json(r).value("state").toString(), QStringLiteral("in-line"));
        const auto text = runCli({"functions", "status", "--url", url()});
        QVERIFY2(text.out.contains("Libraries by node (3 primaries, 3 replicas)"), text.out);
        QVERIFY2(text.out.contains("in line: 6 nodes hold the same libraries"), text.out);
    }

    // Drift made behind the console's back: another version loaded on one primary directly.
    void driftDetectedThenAligned()
    {
        QVERIFY(m_cluster.connectNode(1)->call({"FUNCTION", "LOAD", "REPLACE", m_previous}).ok());
        auto r = status(1);
        QVERIFY2(r.exitCode == 1, r.out + r.err);
        const QJsonArray drift = json(r).value("drift").toArray();
        QVERIFY2(!drift.isEmpty(), r.out);
        const QJsonObject first = drift.first().toObject();
        QCOMPARE(first.value("node").toString(), address(1));
        QCOMPARE(first.value("kind").toString(), QStringLiteral("different-version"));
        QCOMPARE(first.value("library").toString(), QStringLiteral("inventory_lib_v1"));
        // Its replica follows it, and is named too.
        r = status(1);
        bool replicaNamed = false;
        for (const QJsonValue &d : json(r).value("drift").toArray())
            replicaNamed |=
                d.toObject().value("node").toString() == address(m_cluster.replicaOf(1));
        QVERIFY2(replicaNamed, r.out);
        const auto text = runCli({"functions", "status", "--url", url()});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("DIFFERENT VERSION"), text.out);
        QVERIFY2(text.out.contains("functions align --from " + address(0).toUtf8()), text.out);

        QTemporaryDir dir;
        const auto aligned =
            runCli({"functions", "align", "--url", url(), "--from", address(0), "--library",
                    "inventory_lib_v1", "--confirm", "inventory_lib_v1", "--allow-breaking",
                    "--backup-dir", dir.path(), "--json"});
        QVERIFY2(aligned.exitCode == 0, aligned.out + aligned.err);
        QCOMPARE(code(1), m_shipped);
        // Only the drifted primary was loaded; the others were left alone.
        for (const QJsonValue &n : json(aligned).value("nodes").toArray()) {
            const QJsonObject o = n.toObject();
            QCOMPARE(o.value("final_state").toString(), o.value("address").toString() == address(1)
                                                            ? QStringLiteral("loaded")
                                                            : QStringLiteral("unchanged"));
        }
        r = status(0);
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        // Nothing left to align.
        const auto again = runCli({"functions", "align", "--url", url(), "--from", address(0),
                                   "--library", "inventory_lib_v1", "--confirm", "inventory_lib_v1",
                                   "--backup-dir", dir.path()});
        QVERIFY2(again.exitCode == 0, again.out + again.err);
        QVERIFY2(again.out.contains("in line: every primary already holds"), again.out);
    }

    void missingAndDifferentCodeDetected()
    {
        QVERIFY(m_cluster.connectNode(2)->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());
        // Same version line, one more byte: different code.
        QVERIFY(m_cluster.connectNode(1)
                    ->call({"FUNCTION", "LOAD", "REPLACE", m_shipped + "\n-- edited by hand\n"})
                    .ok());
        const auto r = status(1);
        QVERIFY2(r.exitCode == 1, r.out + r.err);
        QMap<QString, QString> kinds;
        for (const QJsonValue &d : json(r).value("drift").toArray())
            kinds.insert(d.toObject().value("node").toString(),
                         d.toObject().value("kind").toString());
        QCOMPARE(kinds.value(address(2)), QStringLiteral("missing"));
        QCOMPARE(kinds.value(address(1)), QStringLiteral("different-code"));
        QTemporaryDir dir;
        const auto aligned = runCli({"functions", "align", "--url", url(), "--from", address(0),
                                     "--library", "inventory_lib_v1", "--confirm",
                                     "inventory_lib_v1", "--backup-dir", dir.path()});
        QVERIFY2(aligned.exitCode == 0, aligned.out + aligned.err);
        QCOMPARE(code(1), m_shipped);
        QCOMPARE(code(2), m_shipped);
        QVERIFY2(status(0).exitCode == 0, "still drifting after align");
    }

    // An ACL on one node only: the preflight refuses before anything is written, naming it.
    void preflightRefusedOnOneNode()
    {
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)
                        ->call({"ACL", "SETUSER", "loader", "reset", "on", ">loader-pw", "~*",
                                "+@all", i == 2 ? "-function|load" : "+function|load"})
                        .ok());
        QTemporaryDir dir;
        const QString url = QStringLiteral("redis://loader:loader-pw@%1").arg(address(0));
        const auto r = runCli({"functions", "load", ":/releases/inventory_lib_v1-1.0.0.lua",
                               "--url", url, "--confirm", "inventory_lib_v1", "--allow-breaking",
                               "--backup-dir", dir.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("preflight refused: Permission on " + address(2).toUtf8()), r.err);
        QVERIFY2(r.err.contains("user 'loader' may not run FUNCTION LOAD REPLACE"), r.err);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(code(i), m_shipped);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty()); // not even a backup
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)->call({"ACL", "DELUSER", "loader"}).ok());
    }

    // The ACL changes on one primary after the preflight: its load is refused, and the two
    // primaries loaded before it get their backed-up code back. Every node's end is reported.
    void refusedAtLoadRolledBackOnTheOthers()
    {
        for (int i = 0; i < 3; ++i)
            QVERIFY(
                m_cluster.connectNode(i)
                    ->call({"ACL", "SETUSER", "loader", "reset", "on", ">loader-pw", "~*", "+@all"})
                    .ok());
        ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        ClusterRouter router(o);
        router.open();
        QVERIFY(router.waitUntilDiscovered(5000));
        ConnectionOptions loader = m_cluster.nodes().first();
        loader.username = QStringLiteral("loader");
        loader.password = QStringLiteral("loader-pw");
        functions::ClusterNodes nodes(router, loader);
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("cluster");
        profile.host = QStringLiteral("127.0.0.1");
        profile.port = m_cluster.nodes().first().port;
        profile.environment = QStringLiteral("local");
        gate::WriteGate gate(router.seed(), profile);
        QTemporaryDir dir;
        functions::ChangeContext context;
        context.nodes = nodes.primaries();
        QCOMPARE(context.nodes.size(), 3);
        QCOMPARE(context.nodes.at(2).address, address(2));
        context.loadUser = QStringLiteral("loader");
        context.gate = &gate;
        context.profile = profile.name;
        context.backupDirectory = dir.filePath(QStringLiteral("backups"));
        context.auditPath = dir.filePath(QStringLiteral("audit.jsonl"));
        auto inspected = functions::inspectFile(functions::previousReleasePath());
        QVERIFY(inspected.ok());
        functions::LibraryChange change(context, functions::LibraryChange::loadSpec(*inspected));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        QCOMPARE(change.confirm(QStringLiteral("inventory_lib_v1"), true), QString());
        // After the preflight and the backup: node 2 no longer lets loader load.
        QVERIFY(
            m_cluster.connectNode(2)->call({"ACL", "SETUSER", "loader", "-function|load"}).ok());
        const functions::ExecutionReport report = change.executeBlocking();
        QCOMPARE(report.nodes.size(), 3);
        QVERIFY(!report.succeeded());
        QVERIFY(report.rolledBack());
        for (int i = 0; i < 2; ++i) {
            const functions::NodeOutcome &n = report.nodes.at(i);
            QCOMPARE(n.address, address(i));
            QCOMPARE(n.finalState, functions::FinalState::RolledBack);
            QVERIFY(n.rolledBack);
            QVERIFY2(n.message.english.startsWith("loaded, then rolled back as " + address(2)
                                                  + " failed"),
                     qPrintable(n.message.english));
            QVERIFY2(n.holds.english.startsWith(QStringLiteral("inventory_lib_v1 1.3.0")),
                     qPrintable(n.holds.english));
        }
        const functions::NodeOutcome &refused = report.nodes.at(2);
        QCOMPARE(refused.finalState, functions::FinalState::Unchanged);
        QVERIFY(!refused.rolledBack);
        QVERIFY2(refused.message.english.contains("NOPERM"), qPrintable(refused.message.english));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(code(i), m_shipped);
        // Every write, the rollbacks included, is in the audit log with its outcome.
        const testsupport::AuditTrail trail = testsupport::readAuditTrail(context.auditPath);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QStringList actions;
        for (const inventory::AuditRecord &w : trail.writes)
            actions << w.action + QLatin1Char(' ') + w.server;
        QCOMPARE(actions,
                 (QStringList{"function-load " + address(0), "function-load " + address(1),
                              "function-load " + address(2), "function-rollback " + address(0),
                              "function-rollback " + address(1)}));
        // Nothing was left in flight: no load journal.
        QVERIFY(QDir(functions::loadJournalDirectory(context.backupDirectory))
                    .entryList(QDir::Files)
                    .isEmpty());
        for (int i = 0; i < 3; ++i)
            QVERIFY(m_cluster.connectNode(i)->call({"ACL", "DELUSER", "loader"}).ok());
    }

    // Runs inventory-cli while holding the audit log's lock, which the CLI takes just before
    // its first write: once its backup is on disk (taken under the change lock), `meanwhile`
    // runs, and only then may the CLI go on.
    testsupport::CliRun runHeldBeforeFirstWrite(const QStringList &args, const QString &backups,
                                                const std::function<void()> &meanwhile)
    {
        testsupport::CliRun r;
        const QString data = core::sharedDataDirectory(); // the CLI has this environment too
        QDir().mkpath(data);
        const int audit = ::open(QFile::encodeName(data + "/audit.jsonl").constData(),
                                 O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (audit < 0 || ::flock(audit, LOCK_EX) != 0)
            return r;
        QProcess cli;
        cli.start(testsupport::cliPath(), args);
        QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired() && cli.state() != QProcess::NotRunning
               && QDir(backups).entryList({"*.json"}, QDir::Files).isEmpty())
            QTest::qWait(20); // a poll: the CLI tells nothing while it works
        meanwhile();
        ::flock(audit, LOCK_UN);
        ::close(audit);
        if (!cli.waitForFinished(60000))
            cli.kill();
        r.exitCode = cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
        r.out = cli.readAllStandardOutput();
        r.err = cli.readAllStandardError();
        return r;
    }

    // The same on the command line: one primary refuses (out of memory) once the others were
    // loaded, the others are rolled back, and the table and the JSON say where each node
    // ended. Out of memory from the start, it cannot even take the change lock: nothing is
    // written anywhere.
    void cliLoadRolledBack()
    {
        QTemporaryDir dir;
        const QStringList args{"functions",
                               "load",
                               ":/releases/inventory_lib_v1-1.0.0.lua",
                               "--url",
                               url(),
                               "--confirm",
                               "inventory_lib_v1",
                               "--allow-breaking",
                               "--backup-dir",
                               dir.path()};
        QVERIFY(m_cluster.connectNode(2)->call({"CONFIG", "SET", "maxmemory", "1"}).ok());
        const auto locked = runCli(args);
        QVERIFY(m_cluster.connectNode(2)->call({"CONFIG", "SET", "maxmemory", "0"}).ok());
        QCOMPARE(locked.exitCode, 1);
        QVERIFY2(locked.err.contains("the change lock on " + address(2).toUtf8()
                                     + " (key inventory-console:functions-lock:{"),
                 locked.err);
        QVERIFY2(locked.err.contains("could not be taken") && locked.err.contains("OOM"),
                 locked.err);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(code(i), m_shipped);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty()); // not even a backup

        const auto outOfMemory = [this] {
            QVERIFY(m_cluster.connectNode(2)->call({"CONFIG", "SET", "maxmemory", "1"}).ok());
        };
        const auto r =
            runHeldBeforeFirstWrite(args + QStringList{"--json"}, dir.path(), outOfMemory);
        QVERIFY(m_cluster.connectNode(2)->call({"CONFIG", "SET", "maxmemory", "0"}).ok());
        QCOMPARE(r.exitCode, 1);
        const QJsonArray nodes = json(r).value("nodes").toArray();
        QCOMPARE(nodes.size(), 3);
        const QStringList expected{"rolled back", "rolled back", "unchanged"};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(nodes[i].toObject().value("address").toString(), address(i));
            QCOMPARE(nodes[i].toObject().value("final_state").toString(), expected.at(i));
            QCOMPARE(code(i), m_shipped);
        }
        QVERIFY(json(r).value("error").toString().contains("OOM"));

        QTemporaryDir again;
        QStringList text = args;
        text.last() = again.path();
        const auto said = runHeldBeforeFirstWrite(text, again.path(), outOfMemory);
        QVERIFY(m_cluster.connectNode(2)->call({"CONFIG", "SET", "maxmemory", "0"}).ok());
        QCOMPARE(said.exitCode, 1);
        QVERIFY2(said.out.contains("final state"), said.out);
        QVERIFY2(said.err.contains("the nodes changed before it were rolled back"), said.err);
        // Every primary's change lock was given back (a key of its own slots on each).
        for (int i = 0; i < 3; ++i)
            QCOMPARE(testsupport::render(m_cluster.connectNode(i)->call(
                         {"KEYS", "inventory-console:functions-lock*"})),
                     QStringLiteral("{}"));
    }

    // A user who may not read the topology would see one node "in line": refused instead.
    void topologyUnreadableIsNotInLine()
    {
        QVERIFY(m_cluster.connectNode(0)
                    ->call({"ACL", "SETUSER", "blind", "reset", "on", ">blind-pw", "~*", "+@all",
                            "-cluster"})
                    .ok());
        const auto r = runCli({"functions", "status", "--url",
                               QStringLiteral("redis://blind:blind-pw@%1").arg(address(0))});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("is a Redis Cluster node, but user 'blind' could not read the "
                                "cluster's nodes"),
                 r.err);
        QVERIFY(r.out.isEmpty());
        QVERIFY(m_cluster.connectNode(0)->call({"ACL", "DELUSER", "blind"}).ok());
    }

    // Last: a replica is killed. Status cannot read it and says so, never "missing".
    void nodeDownDuringStatus()
    {
        QVERIFY(::kill(pid_t(m_cluster.pid(5)), SIGKILL) == 0);
        QTRY_VERIFY(!testsupport::processExists(m_cluster.pid(5)));
        const auto r = runCli({"functions", "status", "--url", url(), "--timeout-ms", "2000"});
        QVERIFY2(r.exitCode == 3, r.out + r.err);
        QVERIFY2(r.out.contains("could not read FUNCTION LIST on " + address(5).toUtf8()), r.out);
        QVERIFY2(r.out.contains("COULD NOT READ"), r.out);
        QVERIFY(!r.out.contains("MISSING"));
        const auto j =
            runCli({"functions", "status", "--url", url(), "--timeout-ms", "2000", "--json"});
        QCOMPARE(j.exitCode, 3);
        QCOMPARE(json(j).value("state").toString(), QStringLiteral("unreadable"));
        QCOMPARE(json(j).value("drift").toArray().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TstFunctionsCluster)
#include "tst_functions_cluster.moc"
