// SPDX-License-Identifier: GPL-3.0-or-later
// Views that only read (charts, readiness, the key browser) send through a ReadOnlySender: a
// command it does not know to be a read is refused with the whole batch before anything leaves,
// whatever the session's label, and a keyspace walk's per-node senders are wrapped the same
// way. Checked against a real server: refused commands must not reach it.
#include "RedisFixture.h"
#include "gate/ReadOnlySender.h"
#include "session/ConsoleSession.h"

#include <QTest>

using gate::ReadOnlySender;
using redis::RedisError;
using testsupport::StandaloneRedis;

namespace {

void expectReadOnlyRefusal(const redis::ReplyResult &r, const char *named)
{
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, RedisError::Kind::NotSent);
    QCOMPARE(r.error().delivery, RedisError::Delivery::NotSent);
    QCOMPARE(r.error().refusal, RedisError::Refusal::ReadOnlyView);
    QVERIFY(!r.error().mayHaveRun());
    QVERIFY2(r.error().message.english.contains(QLatin1String(named)),
             qPrintable(r.error().message.english));
}

} // namespace

class TstReadOnlySender : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_client;
    std::unique_ptr<redis::RedisClient> m_admin;

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_client = m_redis.connect();
        m_admin = m_redis.connect();
        QVERIFY(m_admin->call({"SET", "stock:{a}:available", "5"}).ok());
    }

    void readsPass()
    {
        ReadOnlySender reads(*m_client);
        const QList<redis::ReplyResult> r = reads.callBatch({{"GET", "stock:{a}:available"},
                                                             {"PTTL", "stock:{a}:available"},
                                                             {"DBSIZE"},
                                                             {"CONFIG", "GET", "maxmemory-policy"},
                                                             {"SLOWLOG", "GET", "5"}});
        QCOMPARE(r.size(), 5);
        for (const auto &one : r)
            QVERIFY2(one.ok(), qPrintable(one.ok() ? QString() : one.error().message.english));
        QCOMPARE(r.at(0)->bytes(), QByteArray("5"));
        QCOMPARE(reads.address(), m_client->address());
    }

    void aWriteIsRefusedWithItsBatchAndNeverSent()
    {
        ReadOnlySender reads(*m_client);
        const qint64 getsBefore = testsupport::commandCalls(*m_admin, "get");
        QVERIFY(getsBefore >= 0);
        const QList<redis::ReplyResult> r =
            reads.callBatch({{"GET", "stock:{a}:available"}, {"SET", "stock:{a}:available", "0"}});
        QCOMPARE(r.size(), 2);
        expectReadOnlyRefusal(r.at(0), "SET");
        expectReadOnlyRefusal(r.at(1), "SET");
        QCOMPARE(m_admin->call({"GET", "stock:{a}:available"})->bytes(), QByteArray("5"));
        // The read in the refused batch did not go out either (the GET above is the admin's).
        QCOMPARE(testsupport::commandCalls(*m_admin, "get"), getsBefore + 1);
    }

    // A command the console cannot vouch for is refused even when it happens to read: the
    // list is what the console knows, not what the server might say.
    void unknownAndScriptCommandsAreRefused_data()
    {
        QTest::addColumn<redis::Command>("command");
        QTest::addColumn<QString>("named");
        QTest::newRow("EVAL") << redis::Command{"EVAL", "return 1", "0"} << "EVAL";
        QTest::newRow("FCALL") << redis::Command{"FCALL", "inventory_deduct_v1", "0"} << "FCALL";
        QTest::newRow("CONFIG SET")
            << redis::Command{"CONFIG", "SET", "maxmemory-policy", "noeviction"} << "CONFIG SET";
        QTest::newRow("FLUSHALL") << redis::Command{"FLUSHALL"} << "FLUSHALL";
        QTest::newRow("lower case del") << redis::Command{"del", "stock:{a}:available"} << "DEL";
        QTest::newRow("empty") << redis::Command{} << "an empty command";
    }
    void unknownAndScriptCommandsAreRefused()
    {
        QFETCH(redis::Command, command);
        QFETCH(QString, named);
        ReadOnlySender reads(*m_client);
        expectReadOnlyRefusal(reads.call(command), qPrintable(named));
        QCOMPARE(m_admin->call({"GET", "stock:{a}:available"})->bytes(), QByteArray("5"));
        QCOMPARE(m_admin->call({"CONFIG", "GET", "maxmemory-policy"})->array()->at(1).bytes(),
                 QByteArray("noeviction"));
    }

    // A refusal is posted: nothing calls back inside sendBatch.
    void refusalArrivesAfterSendReturns()
    {
        ReadOnlySender reads(*m_client);
        bool called = false;
        QObject context;
        reads.send({"DEL", "x"}, &context, [&](const redis::ReplyResult &) { called = true; });
        QVERIFY(!called);
        QTRY_VERIFY(called);
    }

    void timedBatchesKeepTheirWireTime()
    {
        ReadOnlySender reads(*m_client);
        QObject context;
        bool done = false;
        redis::WireTimeUs wire;
        reads.sendTimedBatch({{"PING"}}, &context,
                             [&](const QList<redis::ReplyResult> &r, redis::WireTimeUs us) {
                                 done = r.size() == 1 && r.at(0).ok();
                                 wire = us;
                             });
        QTRY_VERIFY(done);
        QVERIFY(wire.has_value()); // the connection timed it, through the wrapper
    }

    // The session hands the views read-only senders over its routers.
    void theSessionsViewsCannotWrite()
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("ro-views");
        p.port = m_redis.options().port;
        session::ConsoleSession s(p, {});
        s.open();
        QVERIFY(s.router().waitUntilDiscovered(10000));
        for (redis::CommandSender *reads : {&s.readSender(), &s.scanReader()}) {
            expectReadOnlyRefusal(reads->call({"SET", "stock:{a}:available", "1"}), "SET");
            QCOMPARE(reads->call({"GET", "stock:{a}:available"})->bytes(), QByteArray("5"));
            for (const redis::ScanNode &node : reads->scanNodes())
                expectReadOnlyRefusal(node.sender->call({"DEL", "stock:{a}:available"}), "DEL");
        }
    }
};

QTEST_GUILESS_MAIN(TstReadOnlySender)
#include "tst_read_only_sender.moc"
