// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "TransportThreadHold.h"

#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace redis;
using testsupport::StandaloneRedis;

class TstTransport : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;

    // What a blocking ECHO returns when made from inside another command's callback; empty
    // when the callback never ran or the ECHO failed.
    QByteArray callFromInsideACallback(RedisClient &c)
    {
        QByteArray inner;
        bool done = false;
        c.send({"PING"}, this, [&](const ReplyResult &) {
            const auto r = c.call({"ECHO", "nested"}, 3000);
            inner = r.ok() ? r->bytes() : QByteArray();
            done = true;
        });
        return QTest::qWaitFor([&] { return done; }, 5000) ? inner : QByteArray();
    }

private slots:
    void initTestCase() { QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString())); }

    void pingAndTypedReplies()
    {
        auto c = m_redis.connect();
        QCOMPARE(c->state(), ConnectionState::Ready);
        auto pong = c->call({"PING"});
        QVERIFY(pong.ok());
        QVERIFY(pong->isStatus());
        QCOMPARE(pong->bytes(), QByteArray("PONG"));
        QVERIFY(c->call({"SET", "t:bin", QByteArray("a\0\r\nb", 5)}).ok());
        auto got = c->call({"GET", "t:bin"});
        QCOMPARE(got->bytes(), QByteArray("a\0\r\nb", 5));
        QVERIFY(c->call({"GET", "t:missing"})->isNil());
        auto wrong = c->call({"HGET", "t:bin", "f"});
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().code, QByteArray("WRONGTYPE"));
        QVERIFY(!wrong.error().mayHaveRun());
    }

    // 10,000 commands in flight at once come back matched to their own command.
    void pipelineOrderUnderLoad()
    {
        auto c = m_redis.connect();
        const int n = 10000;
        QList<Command> batch;
        for (int i = 0; i < n; ++i)
            batch << Command{"ECHO", QByteArray::number(i)};
        int received = 0;
        bool inOrder = true;
        // Also as individual sends, each with its own callback.
        for (int i = 0; i < n; ++i)
            c->send({"ECHO", QByteArray::number(i)}, this, [&, i](const ReplyResult &r) {
                inOrder = inOrder && r.ok() && r->bytes() == QByteArray::number(i);
                ++received;
            });
        auto results = c->callBatch(batch);
        QCOMPARE(results.size(), n);
        for (int i = 0; i < n; ++i)
            QCOMPARE(results[i]->bytes(), QByteArray::number(i));
        QTRY_COMPARE(received, n);
        QVERIFY(inOrder);
    }

    void callerDestroyedGetsNoCallback()
    {
        auto c = m_redis.connect();
        bool called = false;
        {
            QObject owner;
            c->send({"DEBUG", "SLEEP", "0.2"}, &owner, [&](const ReplyResult &) { called = true; });
        }
        // The reply arrives after the owner is gone; replies are delivered in order, so once a
        // later command's reply is in, the earlier one has been handled (and dropped).
        QVERIFY(c->call({"PING"}).ok());
        QVERIFY(!called);
    }

    // Replies reach the context's own thread: sent from a worker thread to an object living
    // there, and sent from this thread to an object living on the worker thread.
    void repliesReachTheContextsThread()
    {
        auto c = m_redis.connect();
        QThread worker;
        worker.start();
        QObject there;
        there.moveToThread(&worker);
        QAtomicPointer<QThread> sentFromThere, sentFromHere;
        QMetaObject::invokeMethod(&there, [&] {
            c->send({"PING"}, &there, [&](const ReplyResult &r) {
                if (r.ok())
                    sentFromThere = QThread::currentThread();
            });
        });
        c->send({"PING"}, &there, [&](const ReplyResult &r) {
            if (r.ok())
                sentFromHere = QThread::currentThread();
        });
        QTRY_COMPARE(sentFromThere.loadAcquire(), &worker);
        QTRY_COMPARE(sentFromHere.loadAcquire(), &worker);
        worker.quit();
        worker.wait();
    }

    // Many connections answering in the same pass share one hand-off; each caller still gets
    // its own replies, in its own order.
    void manyConnectionsKeepTheirOwnOrder()
    {
        std::vector<std::unique_ptr<RedisClient>> clients;
        for (int i = 0; i < 6; ++i)
            clients.push_back(m_redis.connect());
        QVector<QList<QByteArray>> seen(clients.size());
        for (int round = 0; round < 50; ++round)
            for (size_t i = 0; i < clients.size(); ++i)
                clients[i]->send({"ECHO", QByteArray::number(int(i) * 1000 + round)}, this,
                                 [&, i](const ReplyResult &r) {
                                     seen[i] << (r.ok() ? r->bytes() : QByteArray("error"));
                                 });
        QTRY_VERIFY(std::all_of(seen.begin(), seen.end(), [](auto &l) { return l.size() == 50; }));
        for (size_t i = 0; i < clients.size(); ++i)
            for (int round = 0; round < 50; ++round)
                QCOMPARE(seen[i][round], QByteArray::number(int(i) * 1000 + round));
    }

    // A callback may wait for another reply in a nested event loop (a blocking call, a modal
    // dialog): its send still goes out.
    void callbackMayBlockOnAnotherCall()
    {
        auto c = m_redis.connect();
        QCOMPARE(callFromInsideACallback(*c), QByteArray("nested"));
    }

    // A client with its socket on the caller's thread (the command line's) needs nothing of
    // the transport thread: it answers while that thread is held, and a callback may still
    // block on another call.
    void callerThreadClientSkipsTheTransportThread()
    {
        auto o = m_redis.options();
        o.onCallerThread = true;
        auto c = m_redis.connect(o);
        {
            testsupport::TransportThreadHold hold;
            QByteArray echoed;
            bool answered = false;
            c->send({"ECHO", "direct"}, this, [&](const ReplyResult &r) {
                echoed = r.ok() ? r->bytes() : r.error().message.english.toUtf8();
                answered = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(answered, 2000);
            QCOMPARE(echoed, QByteArray("direct"));
        }
        QCOMPARE(callFromInsideACallback(*c), QByteArray("nested"));
    }

    // A client destroyed right after sending: whatever it queued is settled, and a caller
    // that is still alive hears that the command may not have gone out.
    void clientDestroyedWithQueuedSends()
    {
        QList<ReplyResult> results;
        {
            auto c = m_redis.connect();
            for (int i = 0; i < 20; ++i)
                c->send({"ECHO", "x"}, this, [&](const ReplyResult &r) { results << r; });
        }
        QTRY_COMPARE(results.size(), 20);
        for (const ReplyResult &r : results)
            if (!r.ok())
                QVERIFY(r.error().kind == RedisError::Kind::ConnectionLost
                        || r.error().kind == RedisError::Kind::NotSent);
    }

    // A write whose reply does not come within its timeout is "outcome unknown", and the
    // server did in fact run it once the pause ends.
    void clientPauseGivesOutcomeUnknown()
    {
        auto admin = m_redis.connect();
        auto c = m_redis.connect();
        QVERIFY(c->call({"SET", "t:paused", "0"}).ok());
        // Paused far longer than the command's timeout, and unpaused only once it has timed
        // out: the reply cannot have come before the timeout, however slow the machine.
        QVERIFY(admin->call({"CLIENT", "PAUSE", "60000", "WRITE"}).ok());
        auto unpause = qScopeGuard([&] { admin->call({"CLIENT", "UNPAUSE"}); });
        auto r = c->call({"INCR", "t:paused"}, 200);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::Timeout);
        QVERIFY(r.error().mayHaveRun());
        // Held, not run (read on another connection: c's GET would queue behind its INCR).
        QCOMPARE(admin->call({"GET", "t:paused"})->bytes(), QByteArray("0"));
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        unpause.dismiss();
        QTRY_COMPARE_WITH_TIMEOUT(c->call({"GET", "t:paused"})->bytes(), QByteArray("1"), 10000);
        // The connection stays usable and in step after the late reply was discarded.
        QCOMPARE(c->call({"ECHO", "after"})->bytes(), QByteArray("after"));
    }

    void killMidPipelineAndReconnect()
    {
        StandaloneRedis local;
        QVERIFY(local.start());
        auto o = local.options();
        o.reconnectMinMs = 50;
        o.reconnectMaxMs = 200;
        o.clientName = "mid-pipeline";
        auto c = local.connect(o);
        const auto observer = local.connect();
        QSignalSpy states(c.get(), &RedisClient::stateChanged);
        QList<ReplyResult> results;
        bool done = false;
        // The batch's first command blocks only its own client (not the server, as DEBUG SLEEP
        // would), so that another connection can see when the server has received the batch.
        QList<Command> batch{{"BLPOP", "t:never", "30"}};
        for (int i = 0; i < 100; ++i)
            batch << Command{"INCR", "t:counter"};
        c->sendBatch(batch, this, [&](const QList<ReplyResult> &r) {
            results = r;
            done = true;
        });
        // Killed only once the server is executing the batch, the rest of it queued behind.
        const auto blockedInBatch = [&] {
            const auto list = observer->call({"CLIENT", "LIST"});
            if (!list.ok())
                return false;
            for (const QByteArray &line : list->bytes().split('\n'))
                if (line.contains(" name=mid-pipeline ") && line.contains(" cmd=blpop"))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(blockedInBatch(), 5000);
        local.server().kill();
        QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
        QCOMPARE(results.size(), 101);
        // Failed by the kill itself (the connection lost), not by a timeout running out later.
        for (const auto &r : results) {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().kind, RedisError::Kind::ConnectionLost);
            QVERIFY2(r.error().mayHaveRun(), qPrintable(r.error().toString().english));
        }
        // While down: fail fast, not sent.
        QTRY_VERIFY(c->state() == ConnectionState::Reconnecting
                    || c->state() == ConnectionState::Connecting);
        auto down = c->call({"PING"});
        QVERIFY(!down.ok());
        QCOMPARE(down.error().kind, RedisError::Kind::NotSent);
        QVERIFY(!down.error().mayHaveRun());
        QVERIFY(local.restart());
        QTRY_COMPARE_WITH_TIMEOUT(c->state(), ConnectionState::Ready, 5000);
        QVERIFY(c->call({"PING"}).ok());
    }

    // open() on a connection waiting out its backoff connects now, and the pending retry does
    // not fire later to tear that connection down (a session's Reconnect, a tunnel brought
    // back). The client reads on this thread, so a fence timer started after the retry was
    // scheduled, and longer than the longest backoff, fires after the retry would have.
    void openDuringBackoffCancelsThePendingRetry()
    {
        auto o = m_redis.options();
        o.onCallerThread = true;
        o.reconnectMinMs = o.reconnectMaxMs = 2000; // the retry waits 1000-2000 ms
        auto c = m_redis.connect(o);
        const auto id = c->call({"CLIENT", "ID"});
        QVERIFY(id.ok() && id->isInteger());
        QVERIFY(m_redis.connect()
                    ->call({"CLIENT", "KILL", "ID", QByteArray::number(id->toInteger())})
                    .ok());
        QTRY_COMPARE_WITH_TIMEOUT(c->state(), ConnectionState::Reconnecting, 5000);
        c->open();
        QTRY_COMPARE_WITH_TIMEOUT(c->state(), ConnectionState::Ready, 5000);
        const auto reopened = c->call({"CLIENT", "ID"});
        QVERIFY(reopened.ok() && reopened->isInteger());
        bool fencePassed = false;
        QTimer::singleShot(2100, this, [&] { fencePassed = true; });
        QTRY_VERIFY_WITH_TIMEOUT(fencePassed, 10000);
        QCOMPARE(c->state(), ConnectionState::Ready);
        const auto still = c->call({"CLIENT", "ID"});
        QVERIFY(still.ok());
        QCOMPARE(still->toInteger(), reopened->toInteger());
    }

    void aclUserAuthenticates()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "support", "on", ">s3cret-pw", "~*", "+@read",
                            "+ping", "+client", "+echo"})
                    .ok());
        ConnectionOptions o = m_redis.options();
        o.username = "support";
        o.password = "s3cret-pw";
        auto c = m_redis.connect(o);
        QCOMPARE(c->state(), ConnectionState::Ready);
        QCOMPARE(c->call({"ACL", "WHOAMI"}).error().code, QByteArray("NOPERM"));
        auto denied = c->call({"SET", "k", "v"});
        QVERIFY(!denied.ok());
        QCOMPARE(denied.error().code, QByteArray("NOPERM"));
        QVERIFY(!denied.error().mayHaveRun()); // the server answered: it did not run
    }

    // A business user allowed only FCALL on its keys still connects (CLIENT SETNAME is
    // optional), and the typed failure is None.
    void restrictedUserConnects()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "caller", "on", ">pw", "~stock:*", "~idem:*",
                            "+fcall", "+ping"})
                    .ok());
        ConnectionOptions o = m_redis.options();
        o.username = "caller";
        o.password = "pw";
        auto c = m_redis.connect(o);
        QCOMPARE(c->state(), ConnectionState::Ready);
        QCOMPARE(c->failure(), ConnectFailure::None);
        QVERIFY(c->call({"PING"}).ok());
    }

    void wrongPasswordFailsClearlyAndNeverEchoesIt()
    {
        ConnectionOptions o = m_redis.options();
        o.username = "support";
        o.password = "not-the-password";
        o.reconnectMinMs = 100;
        o.reconnectMaxMs = 200;
        RedisClient c(o);
        QSignalSpy states(&c, &RedisClient::stateChanged);
        c.open();
        QVERIFY(!c.waitUntilReady(3000));
        QCOMPARE(c.state(), ConnectionState::Failed);
        QCOMPARE(c.failure(), ConnectFailure::Authentication);
        QVERIFY2(c.stateDetail().english.contains("authentication failed"),
                 qPrintable(c.stateDetail().english));
        QVERIFY(c.stateDetail().english.contains("support"));
        QVERIFY(!c.stateDetail().english.contains("not-the-password"));
        const qsizetype failedAt = states.size();
        // A refused password is final: no reconnect loop. A witness on the same transport
        // thread loses its connection after that failure and reconnects after a backoff
        // longer than any c could have waited: once it is back, c's retry would have begun.
        ConnectionOptions w = m_redis.options();
        w.reconnectMinMs = w.reconnectMaxMs = 1000; // waits 500-1000 ms
        auto witness = m_redis.connect(w);
        const auto id = witness->call({"CLIENT", "ID"});
        QVERIFY(id.ok() && id->isInteger());
        QSignalSpy witnessStates(witness.get(), &RedisClient::stateChanged);
        QVERIFY(m_redis.connect()
                    ->call({"CLIENT", "KILL", "ID", QByteArray::number(id->toInteger())})
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(
            witnessStates.size() >= 2 && witness->state() == ConnectionState::Ready, 20000);
        QCOMPARE(states.size(), failedAt);
        QCOMPARE(c.state(), ConnectionState::Failed);
        // Nor is it tried again when used: the same password would be refused again.
        const auto r = c.call({"PING"});
        QCOMPARE(r.error().kind, RedisError::Kind::NotSent);
        QVERIFY2(r.error().message.english.contains("authentication failed"),
                 qPrintable(r.error().message.english));
        QCOMPARE(states.size(), failedAt);
    }

    void refusedPortSaysSo()
    {
        ConnectionOptions o = m_redis.options();
        o.port = demo::LocalRedisServer::freePort();
        RedisClient c(o);
        c.open();
        QVERIFY(!c.waitUntilReady(3000));
        QCOMPARE(c.state(), ConnectionState::Failed);
        QVERIFY2(c.stateDetail().english.contains("refused"), qPrintable(c.stateDetail().english));
        QCOMPARE(c.failure(), ConnectFailure::Refused);
        auto r = c.call({"PING"});
        QCOMPARE(r.error().kind, RedisError::Kind::NotSent);
        QVERIFY2(r.error().message.english.contains("refused"),
                 qPrintable(r.error().message.english));

        // A failed first connect is tried again when the connection is next used: once a
        // server listens there, the next command is answered.
        demo::LocalRedisServer late;
        demo::LocalRedisServer::Options at;
        at.port = o.port;
        QVERIFY2(late.start(at), qPrintable(late.error().english));
        const auto answered = c.call({"PING"});
        QVERIFY2(answered.ok(),
                 qPrintable(answered.ok() ? QString() : answered.error().message.english));
        QCOMPARE(c.state(), ConnectionState::Ready);
    }
};

QTEST_GUILESS_MAIN(TstTransport)
#include "tst_transport.moc"
