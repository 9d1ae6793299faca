// SPDX-License-Identifier: GPL-3.0-or-later
// The fault suite, library loads (issue 14): `inventory-cli functions load` killed with SIGKILL
// while its FUNCTION LOAD is held by CLIENT PAUSE WRITE, and the server killed at the same
// point. The backup written before the load is complete (it parses, its dump verifies), and
// the next `functions` command says what was interrupted and what the node holds now.
#include "AuditTrail.h"
#include "ChangeFixture.h"
#include "CliRunner.h"
#include "RedisFixture.h"
#include "functions/ChangeLease.h"
#include "functions/DumpPayload.h"
#include "functions/FunctionBackup.h"
#include "functions/LibraryChange.h"
#include "functions/LoadJournal.h"
#include "gate/WriteGate.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using testsupport::StandaloneRedis;

namespace {

const QString Shipped = QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua");

} // namespace

class TstFaultsLoad : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_admin;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath("data"));
        env.remove(QStringLiteral("INVENTORY_DATA_DIR")); // the data folder follows XDG here
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath("config"));
        return env;
    }
    QString dataDir() const { return m_home.filePath("data/inventory-console"); }
    QString url() const { return QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()); }
    QStringList journals() const
    {
        return QDir(dataDir() + "/function-backups/load-journal")
            .entryList({"*.json"}, QDir::Files);
    }

    // `functions load` of the shipped 1.3.0 over 1.0.0, started and left waiting on its
    // FUNCTION LOAD (held by CLIENT PAUSE WRITE).
    bool startHeldLoad(QProcess &cli)
    {
        // The load must pass the change lock (a write) before writes are paused: the test
        // holds the audit log's lock, which the CLI takes just before its FUNCTION LOAD (the
        // attempt record), pauses writes once the backup (taken under the change lock) is on
        // disk, and only then lets the CLI go on to its load.
        if (!QDir().mkpath(dataDir()))
            return false;
        const int audit = ::open(QFile::encodeName(dataDir() + "/audit.jsonl").constData(),
                                 O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (audit < 0 || ::flock(audit, LOCK_EX) != 0)
            return false;
        const struct Unlock
        {
            int fd;
            ~Unlock() { ::close(fd); }
        } unlock{audit};
        cli.setProcessEnvironment(environment());
        cli.start(testsupport::cliPath(),
                  {"functions", "load", Shipped, "--url", url(), "--confirm", "inventory_lib_v1"});
        if (!cli.waitForStarted())
            return false;
        QDeadlineTimer deadline(15000);
        const QDir backups(dataDir() + "/function-backups");
        while (!deadline.hasExpired() && backups.entryList({"*.json"}, QDir::Files).isEmpty())
            QTest::qWait(20); // a poll: the CLI tells nothing while it works
        if (!m_admin->call({"CLIENT", "PAUSE", "30000", "WRITE"}).ok())
            return false;
        ::flock(audit, LOCK_UN);
        while (!deadline.hasExpired()) {
            const auto r = m_admin->call({"CLIENT", "LIST"});
            if (r.ok() && r->bytes().contains("cmd=function|load"))
                return true;
            QTest::qWait(20); // a poll: CLIENT LIST is the only way to see the held command
        }
        return false;
    }

    testsupport::CliRun status()
    {
        testsupport::CliOptions o;
        o.environment = environment();
        o.timeoutMs = 20000;
        return testsupport::runCli({"functions", "status", "--url", url()}, o);
    }

    // The backup taken before the load: one file, complete, its dump readable and holding
    // exactly the 1.0.0 code it lists.
    QString checkBackup()
    {
        const QDir dir(dataDir() + "/function-backups");
        const QStringList files = dir.entryList({"*.json"}, QDir::Files);
        if (files.size() != 1)
            return QStringLiteral("%1 backup files").arg(files.size());
        const auto backup = functions::FunctionBackup::read(dir.filePath(files.first()));
        if (!backup)
            return backup.error().english;
        if (backup->nodes.size() != 1)
            return QStringLiteral("%1 nodes in the backup").arg(backup->nodes.size());
        const functions::NodeBackup &n = backup->nodes.first();
        const redis::LibraryInfo *lib = n.library(QStringLiteral("inventory_lib_v1"));
        if (!lib || lib->code != testsupport::previousReleaseSource())
            return QStringLiteral("the backup does not hold the 1.0.0 code");
        const auto dump = functions::readDump(n.dump);
        if (!dump)
            return QStringLiteral("the dump does not verify: %1").arg(dump.error());
        if (dump->codes != QList<QByteArray>{lib->code})
            return QStringLiteral("the dump holds other code than the backup lists");
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    }

    void init()
    {
        if (!m_redis.server().isRunning())
            QVERIFY(m_redis.restart());
        m_admin = m_redis.connect();
        QVERIFY(m_admin->call({"CLIENT", "UNPAUSE"}).ok());
        QVERIFY(m_admin->call({"FUNCTION", "FLUSH"}).ok());
        QVERIFY(m_admin->call({"FUNCTION", "LOAD", testsupport::previousReleaseSource()}).ok());
        // A CLI killed mid-load leaves its change lock until it lapses (60 s).
        QVERIFY(m_admin->call({"DEL", functions::ChangeLockKey}).ok());
        QDir(m_home.filePath("data")).removeRecursively();
    }

    void cleanup()
    {
        if (m_admin)
            m_admin->call({"CLIENT", "UNPAUSE"});
        m_admin.reset();
    }

    // SIGKILL while the load is on the wire: the backup is complete, the audit log has the
    // attempt, and the next command says the load was interrupted and what the node holds.
    void cliKilledDuringLoad()
    {
        QProcess cli;
        QVERIFY(startHeldLoad(cli));
        QCOMPARE(journals().size(), 1); // written before the load went out
        cli.kill();
        QVERIFY(cli.waitForFinished(5000));
        QVERIFY2(checkBackup().isEmpty(), qPrintable(checkBackup()));
        // The load's attempt is on disk, and no outcome follows it.
        const auto trail = testsupport::readAuditTrail(dataDir() + "/audit.jsonl");
        QList<inventory::AuditRecord> loads;
        for (const inventory::AuditRecord &a : trail.raw)
            if (a.action == QLatin1String("function-load"))
                loads << a;
        QCOMPARE(loads.size(), 1);
        QCOMPARE(loads.first().phase, inventory::AuditRecord::Phase::Attempt);
        QVERIFY(m_admin->call({"CLIENT", "UNPAUSE"}).ok());

        // The node holds 1.0.0 (the held load died with its connection) or 1.3.0: the notice
        // names whichever FUNCTION LIST shows.
        const auto code = m_admin->call({"FUNCTION", "LIST", "WITHCODE"});
        QVERIFY(code.ok());
        const QByteArray now = code->debugString(100000).toUtf8().contains("version: 1.3.0")
                                   ? "now has 1.3.0"
                                   : "now has 1.0.0";
        auto r = status();
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("warning: a load of inventory_lib_v1 1.3.0 was interrupted at "),
                 r.err.constData());
        QVERIFY2(r.err.contains(now), r.err.constData());
        QVERIFY2(r.err.contains("function-backups/inventory_lib_v1-"), r.err.constData());
        // Told once: the journal is gone, the audit log keeps the attempt.
        QVERIFY(journals().isEmpty());
        r = status();
        QVERIFY2(!r.err.contains("interrupted"), r.err.constData());
    }

    // The server dies while the load is held: the CLI says what it holds is unknown (never
    // "not made"), exit 4, and the journal stays; once the server is back, the next command
    // says what it holds.
    void serverKilledDuringLoad()
    {
        QProcess cli;
        QVERIFY(startHeldLoad(cli));
        m_redis.server().kill();
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 4);
        const QByteArray said = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(said.contains("is unknown"), said.constData());
        QVERIFY2(!said.contains("was not made"), said.constData());
        QVERIFY2(checkBackup().isEmpty(), qPrintable(checkBackup()));
        QCOMPARE(journals().size(), 1);

        QVERIFY(m_redis.restart()); // empty: the server kept no data
        m_admin = m_redis.connect();
        const auto r = status();
        QVERIFY2(r.err.contains("a load of inventory_lib_v1 1.3.0 was interrupted"),
                 r.err.constData());
        QVERIFY2(r.err.contains("now has no library inventory_lib_v1"), r.err.constData());
        QVERIFY(journals().isEmpty());
    }

    // The wizard drives the same LibraryChange: a journal left for this node comes first in
    // the change's warnings once the state is read, with what the node holds, and only once.
    void wizardSeesAnInterruptedLoad()
    {
        QTemporaryDir dir;
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("faults");
        profile.environment = QStringLiteral("local");
        gate::WriteGate gate(*m_admin, profile);
        functions::ChangeContext ctx =
            testsupport::singleNodeContext(*m_admin, &gate, dir, profile.name);
        functions::LoadJournalEntry left;
        left.address = m_admin->address();
        left.library = QStringLiteral("inventory_lib_v1");
        left.action = QStringLiteral("load");
        left.toVersion = QStringLiteral("1.2.0");
        left.backupPath = QStringLiteral("/backups/inventory_lib_v1-x-load.json");
        left.started = QDateTime::currentDateTimeUtc();
        left.pid = 2147483647; // above any pid_max: its writer is gone, so it was interrupted
        QVERIFY(functions::writeLoadJournal(ctx.backupDirectory, left).ok());
        const auto file = functions::inspectFile(Shipped);
        if (!file.ok())
            QFAIL(qPrintable(file.error().english));
        functions::LibraryChange change(ctx, functions::LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QVERIFY(!change.warnings().isEmpty());
        const QString first = change.warnings().first();
        QVERIFY2(first.startsWith(QLatin1String("a load of inventory_lib_v1 1.2.0 was "
                                                "interrupted at ")),
                 qPrintable(first));
        QVERIFY2(first.endsWith(QStringLiteral("%1 now has 1.0.0").arg(m_admin->address())),
                 qPrintable(first));
        QVERIFY(functions::pendingLoadJournals(ctx.backupDirectory, left.address).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstFaultsLoad)
#include "tst_faults_load.moc"
