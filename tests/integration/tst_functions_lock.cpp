// SPDX-License-Identifier: GPL-3.0-or-later
// Two library changes at once (issue 29, D8), against a real redis-server: the change lock
// (functions/ChangeLease.h) refuses a second change while the first holds it, and changes
// nothing; it is given back only by its owner; REPLACE goes out only over a library the change
// read as present, so a library created between the plan and the load makes the load fail
// instead of being replaced unseen. Also (D12): what a load writes in the data directory is
// private to its owner.
#include "AuditTrail.h"
#include "ChangeCliTest.h"
#include "ChangeFixture.h"
#include "functions/ChangeLease.h"
#include "functions/LibraryChange.h"
#include "redis/ResultReads.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/stat.h>

using namespace functions;

namespace {

const QString Shipped = QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua");
const QByteArray LockKey = ChangeLockKey;
// What another console's lock looks like on the server.
const QByteArray OtherHolder =
    "{\"holder\":\"inventory-console (pid 4242 on ops-laptop, user ana)\","
    "\"library\":\"inventory_lib_v1\",\"action\":\"load\","
    "\"since\":\"2026-12-02T10:00:00.000Z\",\"token\":\"00ff\"}";

// Forwards to a real connection; just before the change's FUNCTION LOAD leaves, someone else
// creates the library on the server (the window between the last read and the load).
class RacingSender : public redis::CommandSender
{
public:
    RacingSender(redis::RedisClient &real, redis::RedisClient &other, QByteArray competitor)
        : m_real(real)
        , m_other(other)
        , m_competitor(std::move(competitor))
    {}
    using CommandSender::send;
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback cb,
                   int timeoutMs) override
    {
        if (!commands.isEmpty() && commands.first().mid(0, 2) == redis::Command{"FUNCTION", "LOAD"}
            && !m_raced) {
            m_raced = true;
            m_sent = commands.first();
            m_other.call({"FUNCTION", "LOAD", m_competitor});
        }
        m_real.sendBatch(std::move(commands), context, std::move(cb), timeoutMs);
    }
    QString address() const override { return m_real.address(); }
    redis::Command m_sent;

private:
    redis::RedisClient &m_real;
    redis::RedisClient &m_other;
    QByteArray m_competitor;
    bool m_raced = false;
};

mode_t modeOf(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 0777 : 0;
}

} // namespace

class TstFunctionsLock : public testsupport::ChangeCliTest
{
    Q_OBJECT

    ChangeContext context(redis::CommandSender *loader = nullptr)
    {
        return testsupport::singleNodeContext(*m_c, m_gate.get(), m_dir, "lock test", loader);
    }
    QStringList backups()
    {
        return QDir(dataDir() + "/function-backups")
            .entryList({QStringLiteral("*.json")}, QDir::Files);
    }

private slots:
    void initTestCase() { QCOMPARE(start(), QString()); }
    void init() { QCOMPARE(reset(QStringLiteral("lock test")), QString()); }

    // A second load while another change holds the lock: refused with who holds it, since
    // when and what to do; the library, the lock, the data directory and the audit log as
    // they were.
    void secondLoadIsRefusedWhileTheLockIsHeld()
    {
        QCOMPARE(testsupport::render(m_c->call({"SET", LockKey, OtherHolder, "NX", "PX", "60000"})),
                 QStringLiteral("+OK"));
        const auto run = cli({"load", Shipped, "--url", url(), "--confirm", "inventory_lib_v1"});
        QCOMPARE(run.exitCode, 1);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains(QStringLiteral("the change lock on %1 (key %2) is held by "
                                             "inventory-console (pid 4242 on ops-laptop, user "
                                             "ana) for a load of inventory_lib_v1 since "
                                             "2026-12-02 10:00:00 UTC")
                                  .arg(m_c->address(), QString::fromUtf8(LockKey))),
                 qPrintable(err));
        QVERIFY2(err.contains(QLatin1String("Nothing was changed: wait for that change to finish")),
                 qPrintable(err));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QCOMPARE(testsupport::render(m_c->call({"GET", LockKey})),
                 QStringLiteral("\"%1\"").arg(QString::fromUtf8(OtherHolder)));
        QVERIFY2(backups().isEmpty(), qPrintable(backups().join(", ")));
        const auto trail = testsupport::readAuditTrail(dataDir() + "/audit.jsonl");
        QVERIFY(trail.writes.isEmpty());
    }

    // The lock is on the server from the backup to the end of the change, names this process,
    // lapses on its own, and is gone afterwards.
    void theLockIsHeldDuringTheChangeAndGivenBack()
    {
        const auto file = inspectFile(Shipped);
        QVERIFY(file.ok());
        LibraryChange change(context(), LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QCOMPARE(testsupport::render(m_c->call({"EXISTS", LockKey})), QStringLiteral("0"));
        QVERIFY2(change.preflightBlocking().passed(), "preflight");
        QVERIFY(change.backupBlocking().ok());
        const auto held = m_c->call({"GET", LockKey});
        QVERIFY(held.ok() && held->isBulk());
        const QJsonObject value = QJsonDocument::fromJson(held->bytes()).object();
        QVERIFY2(value.value("holder").toString().contains(
                     QStringLiteral("pid %1 ").arg(QCoreApplication::applicationPid())),
                 held->bytes().constData());
        QCOMPARE(value.value("library").toString(), QStringLiteral("inventory_lib_v1"));
        const auto pttl = redis::integerOf(m_c->call({"PTTL", LockKey}));
        const qint64 ttl = pttl ? *pttl : -9;
        QVERIFY2(ttl > 0 && ttl <= ChangeLease::MinLeaseMs, qPrintable(QString::number(ttl)));
        QVERIFY(change.confirm("inventory_lib_v1", false).isEmpty());
        QVERIFY(change.executeBlocking().succeeded());
        QCOMPARE(testsupport::render(m_c->call({"EXISTS", LockKey})), QStringLiteral("0"));
    }

    // A profile whose command timeout is longer than a minute: the lease is four timeouts
    // long, so the check before the write (it must outlast a timeout) lets the write go.
    void theLeaseOutlastsALongTimeout()
    {
        ChangeContext ctx = context();
        ctx.timeoutMs = 70000;
        LibraryChange change(ctx, LibraryChange::loadSpec(*inspectFile(Shipped)));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        const auto pttl = redis::integerOf(m_c->call({"PTTL", LockKey}));
        QVERIFY(pttl && *pttl > 3 * 70000);
        QVERIFY(change.confirm("inventory_lib_v1", false).isEmpty());
        const ExecutionReport done = change.executeBlocking();
        QVERIFY2(done.succeeded(), qPrintable(done.refusal.english));
    }

    // A change dropped after its backup (a wizard closed before the confirmation) gives the
    // lock back as it goes, without waiting for it to lapse.
    void aDroppedChangeGivesTheLockBack()
    {
        {
            LibraryChange change(context(), LibraryChange::loadSpec(*inspectFile(Shipped)));
            change.fetchStateBlocking();
            QVERIFY(change.preflightBlocking().passed());
            QVERIFY(change.backupBlocking().ok());
            QCOMPARE(testsupport::render(m_c->call({"EXISTS", LockKey})), QStringLiteral("1"));
        }
        QTRY_COMPARE_WITH_TIMEOUT(testsupport::render(m_c->call({"EXISTS", LockKey})),
                                  QStringLiteral("0"), 10000);
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
    }

    // A lock that lapsed and was taken by another change stops the write, and giving back
    // ours leaves theirs alone.
    void aLostLockStopsTheWriteAndIsNotDeleted()
    {
        const auto file = inspectFile(Shipped);
        LibraryChange change(context(), LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        QVERIFY(m_c->call({"SET", LockKey, OtherHolder, "PX", "60000"}).ok());
        QVERIFY(change.confirm("inventory_lib_v1", false).isEmpty());
        const ExecutionReport done = change.executeBlocking();
        QVERIFY(!done.succeeded());
        QVERIFY2(done.refusal.english.contains(QLatin1String("is no longer held by this change")),
                 qPrintable(done.refusal.english));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QCOMPARE(testsupport::render(m_c->call({"GET", LockKey})),
                 QStringLiteral("\"%1\"").arg(QString::fromUtf8(OtherHolder)));
    }

    // The library was read as absent; someone creates it just before the load leaves: the
    // plain FUNCTION LOAD fails, and their library stays as they loaded it.
    void aLibraryCreatedBeforeTheLoadIsNotReplaced()
    {
        QVERIFY(m_c->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());
        const QByteArray competitor = "#!lua name=inventory_lib_v1\n-- version: 9.9.9\n"
                                      "redis.register_function('inventory_deduct_v1', "
                                      "function() return 9 end)\n";
        auto other = m_redis.connect();
        RacingSender racing(*m_c, *other, competitor);
        const auto file = inspectFile(Shipped);
        LibraryChange change(context(&racing), LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        QVERIFY(change.confirm("inventory_lib_v1", false).isEmpty());
        const ExecutionReport done = change.executeBlocking();
        QCOMPARE(racing.m_sent.mid(0, 2), (redis::Command{"FUNCTION", "LOAD"}));
        QCOMPARE(racing.m_sent.size(), 3); // no REPLACE
        QVERIFY(!done.succeeded());
        QCOMPARE(done.nodes.size(), 1);
        QVERIFY2(done.nodes.first().message.english.contains(QLatin1String("already exists")),
                 qPrintable(done.nodes.first().message.english));
        QCOMPARE(serverCode("inventory_lib_v1"), competitor);
    }

    // D12: a load through the CLI leaves the data directory, its folders 0700 and its files
    // 0600 (the backup holds library code and the dump; the journal and the audit log too).
    void theDataDirectoryIsPrivate()
    {
        const auto run = cli({"load", Shipped, "--url", url(), "--confirm", "inventory_lib_v1"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString data = dataDir();
        QCOMPARE(modeOf(data), mode_t(0700));
        QCOMPARE(modeOf(data + "/function-backups"), mode_t(0700));
        QCOMPARE(modeOf(data + "/function-backups/load-journal"), mode_t(0700));
        QCOMPARE(modeOf(data + "/audit.jsonl"), mode_t(0600));
        QCOMPARE(backups().size(), 1);
        QCOMPARE(modeOf(data + "/function-backups/" + backups().first()), mode_t(0600));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsLock)
#include "tst_functions_lock.moc"
