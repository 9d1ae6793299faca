// SPDX-License-Identifier: GPL-3.0-or-later
// One test of the CommandSender contract, run on each implementation the console sends
// through (as Okteta runs one model test on each of its byte-array models): the raw client,
// read on the transport thread or on the caller's; the ClusterRouter, as a session's first
// lane and as a lane over another's topology; the session's GatedSender; and the delaying
// sender the key browser's tests stand on (a double that broke the contract would make those
// tests prove nothing).
#include "RedisFixture.h"
#include "ServerTest.h"
#include "gate/GatedSender.h"
#include "redis/ClusterRouter.h"
#include "tst_browse_support.h"

#include <QPointer>
#include <QTest>
#include <QThread>

using testsupport::render;

namespace {
// One sender under test and what it needs alive.
struct Under
{
    std::unique_ptr<redis::RedisClient> client;
    std::unique_ptr<redis::ClusterRouter> router;
    std::unique_ptr<redis::ClusterRouter> lane;
    std::unique_ptr<gate::WriteGate> gate;
    std::unique_ptr<gate::GatedSender> gated;
    std::unique_ptr<browsetest::SlowSender> slow;
    redis::CommandSender *sender = nullptr;
};
} // namespace

class TstCommandSender : public testsupport::ServerTest
{
    Q_OBJECT

    Under make()
    {
        QFETCH_GLOBAL(QString, implementation);
        Under u;
        redis::ConnectionOptions options = m_redis.options();
        options.onCallerThread = implementation == QLatin1String("RedisClient (caller thread)");
        u.client = m_redis.connect(options);
        u.sender = u.client.get();
        if (implementation.startsWith(QLatin1String("ClusterRouter"))) {
            redis::ClusterRouter::Options o;
            o.seed = m_redis.options();
            u.router = std::make_unique<redis::ClusterRouter>(o);
            u.sender = u.router.get();
        }
        if (implementation == QLatin1String("ClusterRouter (lane)")) {
            redis::ConnectionOptions laneSeed = m_redis.options();
            laneSeed.onCallerThread = true;
            u.lane = std::make_unique<redis::ClusterRouter>(u.router->topologySource(), laneSeed);
            u.sender = u.lane.get();
        } else if (implementation == QLatin1String("GatedSender")) {
            profiles::ConnectionProfile p;
            p.name = QStringLiteral("sender test");
            p.environment = QStringLiteral("local"); // writable: the gate lets writes pass
            u.gate = std::make_unique<gate::WriteGate>(*u.client, p);
            u.gated = std::make_unique<gate::GatedSender>(*u.client, *u.gate);
            u.sender = u.gated.get();
        } else if (implementation == QLatin1String("SlowSender")) {
            u.slow = std::make_unique<browsetest::SlowSender>(*u.client, 20);
            u.sender = u.slow.get();
        }
        return u;
    }

private slots:
    void initTestCase_data()
    {
        QTest::addColumn<QString>("implementation");
        QTest::newRow("RedisClient") << QStringLiteral("RedisClient");
        QTest::newRow("RedisClient (caller thread)")
            << QStringLiteral("RedisClient (caller thread)");
        QTest::newRow("ClusterRouter") << QStringLiteral("ClusterRouter");
        QTest::newRow("ClusterRouter (lane)") << QStringLiteral("ClusterRouter (lane)");
        QTest::newRow("GatedSender") << QStringLiteral("GatedSender");
        QTest::newRow("SlowSender") << QStringLiteral("SlowSender");
    }

    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init() { QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok()); }

    void oneResultPerCommandInOrder()
    {
        Under u = make();
        const QList<redis::ReplyResult> r = u.sender->callBatch(
            {{"SET", "k", "7"}, {"INCR", "k"}, {"GET", "k"}, {"GET", "missing"}, {"PING"}});
        QCOMPARE(r.size(), 5);
        QCOMPARE(render(r[0]), QStringLiteral("+OK"));
        QCOMPARE(render(r[1]), QStringLiteral("8"));
        QCOMPARE(render(r[2]), QStringLiteral("\"8\""));
        QCOMPARE(render(r[3]), QStringLiteral("nil"));
        QCOMPARE(render(r[4]), QStringLiteral("+PONG"));
        QCOMPARE(render(u.sender->call({"GET", "k"})), QStringLiteral("\"8\""));
    }

    // A server error belongs to its command; the batch around it runs.
    void serverErrorStaysWithItsCommand()
    {
        Under u = make();
        const QList<redis::ReplyResult> r =
            u.sender->callBatch({{"SET", "k", "text"}, {"INCR", "k"}, {"GET", "k"}});
        QCOMPARE(r.size(), 3);
        QVERIFY(r[0].ok());
        QVERIFY(!r[1].ok());
        QCOMPARE(r[1].error().kind, redis::RedisError::Kind::Server);
        QVERIFY(r[1].error().isServer("ERR"));
        QCOMPARE(render(r[2]), QStringLiteral("\"text\""));
    }

    void callbackRunsOnTheContextThreadAfterSendReturns()
    {
        Under u = make();
        QObject context;
        bool ran = false, ranDuringSend = false, sending = true;
        QThread *thread = nullptr;
        u.sender->send({"PING"}, &context, [&](const redis::ReplyResult &) {
            ran = true;
            ranDuringSend = sending;
            thread = QThread::currentThread();
        });
        sending = false;
        QTRY_VERIFY(ran);
        QVERIFY(!ranDuringSend);
        QCOMPARE(thread, context.thread());
    }

    void callbackDroppedWithItsContext()
    {
        Under u = make();
        bool ran = false;
        auto *context = new QObject;
        u.sender->send({"PING"}, context, [&](const redis::ReplyResult &) { ran = true; });
        delete context;
        // Batches keep their order: once this reply is in, the first one was delivered or
        // dropped (whether it was sent at all is the sender's choice).
        QCOMPARE(render(u.sender->call({"PING"})), QStringLiteral("+PONG"));
        QCoreApplication::processEvents();
        QVERIFY(!ran);
    }

    // A command that was written and got no reply in time may have run.
    void timeoutIsOutcomeUnknown()
    {
        Under u = make();
        const redis::ReplyResult r = u.sender->call({"BLPOP", "nothing", "2"}, 200);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, redis::RedisError::Kind::Timeout);
        QCOMPARE(r.error().delivery, redis::RedisError::Delivery::SentNoReply);
        QVERIFY(r.error().mayHaveRun());
    }

    void addressNamesTheServer()
    {
        Under u = make();
        QVERIFY2(u.sender->address().contains(QString::number(m_redis.port())),
                 qPrintable(u.sender->address()));
    }
};

QTEST_GUILESS_MAIN(TstCommandSender)
#include "tst_command_sender.moc"
