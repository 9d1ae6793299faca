// SPDX-License-Identifier: GPL-3.0-or-later
// Unlocking production writes is a write-gate event (issue 28): it is on record in the audit
// log (who, which profile, which server by run_id), and it ends when the server behind the
// address is another one (a restart: new run_id), on a failover (role changed) and after a
// stretch without a write, each time with the reason the banner shows.
#include "AuditTrail.h"
#include "RedisFixture.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using gate::GatedSender;
using gate::WriteGate;
using profiles::ConnectionProfile;
using testsupport::StandaloneRedis;

namespace {

ConnectionProfile production(quint16 port)
{
    ConnectionProfile p;
    p.name = QStringLiteral("prod-eu");
    p.port = port;
    p.environment = QStringLiteral("production");
    return p;
}

QString runIdOf(redis::RedisClient &client)
{
    for (const QByteArray &line : client.call({"INFO", "server"})->bytes().split('\n'))
        if (line.startsWith("run_id:"))
            return QString::fromLatin1(line.mid(7).trimmed());
    return {};
}

} // namespace

class TstUnlock : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }

private slots:
    void initTestCase() { QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString())); }
    void init() { QFile::remove(auditPath()); }

    void unlockIsOnRecord()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, production(m_redis.port()));
        gate.setAuditLogPath(auditPath());
        QVERIFY(gate.waitForServer(5000));
        QVERIFY(gate.isReadOnly());
        QVERIFY(!gate.unlock(QStringLiteral("PROD-EU")));
        QVERIFY(!QFile::exists(auditPath())); // a refused unlock changes nothing
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));
        QVERIFY(!gate.isReadOnly());
        const auto trail = testsupport::readAuditTrail(auditPath());
        QCOMPARE(trail.gateEvents.size(), 1);
        const inventory::AuditRecord &r = trail.gateEvents.first();
        QCOMPARE(r.action, QStringLiteral("unlock"));
        QCOMPARE(r.profile, QStringLiteral("prod-eu"));
        QCOMPARE(r.server, client->address());
        QCOMPARE(r.runId, runIdOf(*client));
        QVERIFY(!r.osUser.isEmpty()); // filled in by the log: the OS user

        QVERIFY(r.timeUtc.isValid());
        // Locking is on record too.
        gate.lock();
        QVERIFY(gate.isReadOnly());
        QCOMPARE(testsupport::readAuditTrail(auditPath()).gateEvents.last().action,
                 QStringLiteral("lock"));
    }

    void anUnlockThatCannotBeRecordedIsNotGiven()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, production(m_redis.port()));
        // A file where the log's directory should be (root may write anywhere else).
        QFile blocker(m_dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        gate.setAuditLogPath(m_dir.filePath(QStringLiteral("blocker/audit.jsonl")));
        QVERIFY(!gate.unlock(QStringLiteral("prod-eu")));
        QVERIFY2(gate.unlockError().contains(QLatin1String("audit log")),
                 qPrintable(gate.unlockError()));
        QVERIFY(gate.isReadOnly());
    }

    void aRestartLocksAgain()
    {
        auto client = m_redis.connect(testsupport::quickFailure(m_redis.options()));
        WriteGate gate(*client, production(m_redis.port()));
        gate.setAuditLogPath(auditPath());
        QVERIFY(gate.waitForServer(5000));
        const QString before = gate.evidence().runId;
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));
        QSignalSpy readOnly(&gate, &WriteGate::readOnlyChanged);
        QVERIFY(m_redis.restart()); // a new process: a new run_id
        QTRY_VERIFY_WITH_TIMEOUT(gate.isReadOnly(), 15000);
        QVERIFY(gate.evidence().runId != before);
        QVERIFY2(
            gate.lockReason().contains(
                QStringLiteral("run_id changed from %1 to %2").arg(before, gate.evidence().runId)),
            qPrintable(gate.lockReason()));
        QCOMPARE(readOnly.count(), 1);
        const auto trail = testsupport::readAuditTrail(auditPath());
        QCOMPARE(trail.gateEvents.last().action, QStringLiteral("lock"));
        QCOMPARE(trail.gateEvents.last().detail, gate.lockReason());
        // A write is refused, nothing sent.
        GatedSender gated(*client, gate);
        const auto r = gated.call({"SET", "after-restart", "1"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, redis::RedisError::Kind::NotSent);
    }

    void aFailoverSeenByThePollerLocksAgain()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, production(m_redis.port()));
        gate.setAuditLogPath(auditPath());
        QVERIFY(gate.waitForServer(5000));
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));
        gate.observeServer(gate.evidence().runId, QStringLiteral("master")); // nothing new
        QVERIFY(!gate.isReadOnly());
        gate.observeServer(gate.evidence().runId, QStringLiteral("slave"));
        QVERIFY(gate.isReadOnly());
        QVERIFY2(gate.lockReason().contains(QLatin1String("role changed from master to slave")),
                 qPrintable(gate.lockReason()));
    }

    void idleTimeoutLocksAgain()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, production(m_redis.port()));
        gate.setAuditLogPath(auditPath());
        constexpr int IdleMs = 2000;
        gate.setIdleTimeoutMs(IdleMs);
        GatedSender gated(*client, gate);
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));
        QElapsedTimer sinceUnlock; // started after it: never ahead of the gate's own clock
        sinceUnlock.start();
        // Writes keep it open well past the idle timeout: a write every 200 ms (the pace of
        // the stimulus, not a check: only a stall of 1.8 s could close the gate between two)
        // until one and a half timeouts have passed since the unlock.
        for (int i = 0; i < 3 || sinceUnlock.elapsed() < IdleMs * 3 / 2; ++i) {
            QTest::qWait(200);
            QVERIFY(gated.call({"SET", "idle-test", QByteArray::number(i)}).ok());
            QVERIFY(!gate.isReadOnly());
        }
        // ...and a stretch without one closes it.
        QTRY_VERIFY_WITH_TIMEOUT(gate.isReadOnly(), IdleMs + 10000);
        QVERIFY2(gate.lockReason().startsWith(QLatin1String("locked again: no write for")),
                 qPrintable(gate.lockReason()));
        QVERIFY(WriteGate::DefaultIdleTimeoutMs == 15 * 60 * 1000);
    }
};

QTEST_GUILESS_MAIN(TstUnlock)
#include "tst_unlock.moc"
