// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"

#include <QTest>

using namespace redis;
using gate::GatedSender;
using gate::WriteGate;
using profiles::ConnectionProfile;
using testsupport::StandaloneRedis;

namespace {

// A library with a read-only function and a writing one, besides inventory_lib_v1.
QByteArray gateLibrary(bool peekIsReadOnly)
{
    return QByteArray("#!lua name=gate_test_lib\n"
                      "redis.register_function{function_name='gate_peek', callback=function(keys)\n"
                      "  return redis.call('GET', keys[1]) end, flags={")
           + (peekIsReadOnly ? "'no-writes'" : "") + "}}\n"
           + "redis.register_function{function_name='gate_poke', callback=function(keys)\n"
             "  return redis.call('SET', keys[1], 'poked') end}\n";
}

ConnectionProfile profile(const QString &name, const QString &environment)
{
    ConnectionProfile p;
    p.name = name;
    p.environment = environment;
    return p;
}

} // namespace

class TstWriteGate : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<RedisClient> m_admin;

    // A user who may run anything but COMMAND: the gate cannot read COMMAND INFO.
    std::unique_ptr<RedisClient> connectWithoutCommandInfo()
    {
        if (!m_admin
                 ->call({"ACL", "SETUSER", "reader", "on", ">readerpw", "~*", "+@all", "-command"})
                 .ok())
            return nullptr;
        auto o = m_redis.options();
        o.username = QStringLiteral("reader");
        o.password = QStringLiteral("readerpw");
        return m_redis.connect(o);
    }

    void expectRefused(const ReplyResult &r, const QString &reasonPart = {})
    {
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, RedisError::Kind::NotSent);
        QCOMPARE(r.error().delivery, RedisError::Delivery::NotSent);
        QCOMPARE(r.error().refusal, RedisError::Refusal::GateRefused);
        QVERIFY(!r.error().mayHaveRun());
        QVERIFY2(r.error().message.english.startsWith(QLatin1String(
                     "read-only session on production profile 'prod-eu': unlock it (type the "
                     "profile name) to allow writes")),
                 qPrintable(r.error().message.english));
        if (!reasonPart.isEmpty())
            QVERIFY2(r.error().message.english.contains(reasonPart),
                     qPrintable(r.error().message.english));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_admin = m_redis.connect();
        QVERIFY(m_admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"))})
                    .ok());
        QVERIFY(m_admin->call({"FUNCTION", "LOAD", "REPLACE", gateLibrary(true)}).ok());
    }

    void init()
    {
        QVERIFY(m_admin->call({"FUNCTION", "LOAD", "REPLACE", gateLibrary(true)}).ok());
        QVERIFY(m_admin->call({"SET", "stock:{42}:available", "10"}).ok());
    }

    void productionRefusesWritesAndSendsNothing()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        QVERIFY(gate.isReadOnly());
        const qint64 setsBefore = testsupport::commandCalls(*m_admin, "set");
        QVERIFY(setsBefore >= 0);
        expectRefused(gated.call({"SET", "stock:{42}:available", "0"}), QStringLiteral("SET"));
        expectRefused(gated.call({"set", "x", "1"}));
        expectRefused(gated.call({"DEL", "stock:{42}:available"}), QStringLiteral("DEL"));
        expectRefused(gated.call({"FLUSHALL"}));
        QCOMPARE(testsupport::commandCalls(*m_admin, "set"),
                 setsBefore); // nothing reached the server
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
    }

    void readsAlwaysPass()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        QCOMPARE(gated.call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        QCOMPARE(gated.call({"TTL", "stock:{42}:available"})->toInteger(), -1);
        QVERIFY(gated.call({"SCAN", "0", "MATCH", "stock:*"}).ok());
        QVERIFY(gated.call({"INFO", "server"}).ok());
        QVERIFY(gated.call({"PING"}).ok());
        QVERIFY(gated.call({"CONFIG", "GET", "maxmemory-policy"}).ok());
        QVERIFY(gated.call({"FUNCTION", "LIST"}).ok());
        QVERIFY(gated.call({"ACL", "WHOAMI"}).ok());
        QVERIFY(gated.call({"CLIENT", "LIST"}).ok());
        const auto batch = gated.callBatch({{"GET", "a"}, {"EXISTS", "b"}, {"DBSIZE"}});
        QCOMPARE(batch.size(), 3);
        for (const auto &r : batch)
            QVERIFY(r.ok());
    }

    void functionsAndScripts()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        const qint64 fcallsBefore = testsupport::commandCalls(*m_admin, "fcall");
        QVERIFY(fcallsBefore >= 0);
        // inventory_deduct_v1 writes: refused, and the stock is untouched.
        expectRefused(gated.call({"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                                  "idem:{42}:9001", "1", "60"}),
                      QStringLiteral("inventory_deduct_v1"));
        expectRefused(gated.call({"FCALL", "GATE_POKE", "1", "k"})); // names ignore case
        QCOMPARE(testsupport::commandCalls(*m_admin, "fcall"), fcallsBefore);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        QCOMPARE(m_admin->call({"EXISTS", "idem:{42}:9001"})->toInteger(), 0);
        // A no-writes function passes, through FCALL_RO or FCALL.
        QCOMPARE(gated.call({"FCALL_RO", "gate_peek", "1", "stock:{42}:available"})->bytes(),
                 QByteArray("10"));
        QCOMPARE(gated.call({"FCALL", "gate_peek", "1", "stock:{42}:available"})->bytes(),
                 QByteArray("10"));
        // FCALL_RO of a writing function goes to the server, which refuses it.
        const auto ro = gated.call({"FCALL_RO", "gate_poke", "1", "k"});
        QVERIFY(!ro.ok());
        QCOMPARE(ro.error().kind, RedisError::Kind::Server);
        // Scripts: EVAL writes, EVAL_RO reads.
        expectRefused(gated.call({"EVAL", "return 1", "0"}), QStringLiteral("EVAL"));
        expectRefused(gated.call({"EVALSHA", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db", "0"}));
        QCOMPARE(gated.call({"EVAL_RO", "return 7", "0"})->toInteger(), 7);
        // An unknown function is a write.
        expectRefused(gated.call({"FCALL", "no_such_function", "0"}), QStringLiteral("not loaded"));
    }

    // The cached flags said no-writes, then the library was replaced behind the gate's back
    // by one where the function writes: the server refuses it (sent as FCALL_RO).
    void replacedFunctionCannotSlipThrough()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        QVERIFY(gated.call({"FCALL", "gate_peek", "1", "k"}).ok()); // caches the flags
        QVERIFY(m_admin->call({"FUNCTION", "LOAD", "REPLACE", gateLibrary(false)}).ok());
        const auto r = gated.call({"FCALL", "gate_peek", "1", "k"});
        expectRefused(r, QStringLiteral("the function now writes"));
    }

    void adminAndUnknownCommands()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        expectRefused(gated.call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}),
                      QStringLiteral("CONFIG SET"));
        expectRefused(gated.call({"ACL", "SETUSER", "mallory", "on"}));
        expectRefused(gated.call({"FUNCTION", "DELETE", "gate_test_lib"}));
        expectRefused(gated.call({"NOSUCHCOMMAND", "x"}), QStringLiteral("NOSUCHCOMMAND"));
        expectRefused(gated.call({"CONFIG", "NOSUCHSUB"}));
        QCOMPARE(m_admin->call({"CONFIG", "GET", "maxmemory-policy"})->at(1).bytes(),
                 QByteArray("noeviction"));
        QCOMPARE(m_admin->call({"ACL", "GETUSER", "mallory"})->type(), Reply::Type::Nil);
    }

    // One write refuses the whole batch: nothing of it is sent.
    void mixedBatchIsRefusedWhole()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        const qint64 getsBefore = testsupport::commandCalls(*m_admin, "get");
        QVERIFY(getsBefore >= 0);
        const auto r = gated.callBatch({{"GET", "stock:{42}:available"}, {"INCR", "counter"}});
        QCOMPARE(r.size(), 2);
        expectRefused(r[0], QStringLiteral("not sent with a refused write"));
        expectRefused(r[1], QStringLiteral("INCR"));
        QCOMPARE(testsupport::commandCalls(*m_admin, "get"), getsBefore);
        QCOMPARE(m_admin->call({"EXISTS", "counter"})->toInteger(), 0);
    }

    void unlockByTypingTheNameExactly()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        int changes = 0;
        connect(&gate, &WriteGate::readOnlyChanged, this, [&] { ++changes; });
        for (const char *wrong : {"", "prod", "PROD-EU", "prod-eu ", " prod-eu", "prod-eu\n"})
            QVERIFY(!gate.unlock(QString::fromLatin1(wrong)));
        QVERIFY(gate.isReadOnly());
        expectRefused(gated.call({"SET", "unlock:test", "1"}));
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));
        QVERIFY(!gate.isReadOnly());
        QCOMPARE(changes, 1);
        QVERIFY(gated.call({"SET", "unlock:test", "2"}).ok());
        const auto deduct = gated.call({"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                                        "idem:{42}:1", "3", "60"});
        QVERIFY(deduct.ok());
        QCOMPARE(deduct->at(0).toInteger(), 1);
        QCOMPARE(m_admin->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));
        gate.lock();
        QCOMPARE(changes, 2);
        expectRefused(gated.call({"SET", "unlock:test", "3"}));
        QCOMPARE(m_admin->call({"GET", "unlock:test"})->bytes(), QByteArray("2"));

        // The next session on the same profile starts read-only again.
        WriteGate next(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        QVERIFY(next.isReadOnly());
    }

    void otherEnvironmentsWrite()
    {
        auto client = m_redis.connect();
        for (const char *env : {"local", "test", "staging"}) {
            WriteGate gate(*client, profile(QStringLiteral("dev"), QLatin1String(env)));
            GatedSender gated(*client, gate);
            // Local is a claim until the server's process is found here (tst_local_proof).
            QVERIFY(gate.waitForServer(5000));
            QVERIFY(!gate.isReadOnly());
            QVERIFY(gated.call({"SET", "env:test", env}).ok());
        }
        // A label this version does not know is treated as production.
        WriteGate odd(*client, profile(QStringLiteral("dev"), QStringLiteral("qa")));
        QVERIFY(odd.isReadOnly());
    }

    // Batches keep their order even when one waits for COMMAND INFO and a later one would
    // not have to.
    void orderIsKept()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        QVERIFY(gated.call({"GET", "warm"}).ok()); // GET is cached now
        QList<int> order;
        gated.send({"STRLEN", "a"}, this, [&](const ReplyResult &) { order << 1; });
        gated.send({"GET", "a"}, this, [&](const ReplyResult &) { order << 2; });
        gated.send({"SET", "a", "1"}, this, [&](const ReplyResult &) { order << 3; });
        gated.send({"GET", "a"}, this, [&](const ReplyResult &) { order << 4; });
        QTRY_COMPARE(order.size(), 4);
        QCOMPARE(order, (QList<int>{1, 2, 3, 4}));
    }

    // An ACL user who may not run COMMAND INFO: a short list of known reads still passes,
    // everything else is treated as a write.
    void withoutCommandInfo()
    {
        auto client = connectWithoutCommandInfo();
        QVERIFY(client);
        QCOMPARE(client->state(), ConnectionState::Ready);
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        QCOMPARE(gated.call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        expectRefused(gated.call({"SET", "k", "v"}), QStringLiteral("could not be read"));
        expectRefused(gated.call({"HSET", "h", "f", "v"}));
    }

    // Without COMMAND INFO the gate falls back to a list of known reads: every write the
    // console itself sends must be missing from it, and so refused on production.
    void withoutCommandInfoEveryWriteTheConsoleSends_data()
    {
        QTest::addColumn<redis::Command>("command");
        QTest::addColumn<QString>("why"); // scripts and functions are refused by their own rule
        const QByteArray stock = "stock:{42}:available", receipt = "idem:{42}:o-1";
        const QString unread = QStringLiteral("could not be read");
        QTest::newRow("DECRBY") << redis::Command{"DECRBY", stock, "1"} << unread;
        QTest::newRow("INCRBY") << redis::Command{"INCRBY", stock, "1"} << unread;
        QTest::newRow("SET") << redis::Command{"SET", receipt, "9", "EX", "60"} << unread;
        QTest::newRow("HSET") << redis::Command{"HSET", receipt, "remaining", "9"} << unread;
        QTest::newRow("EXPIRE") << redis::Command{"EXPIRE", stock, "60"} << unread;
        QTest::newRow("PERSIST") << redis::Command{"PERSIST", stock} << unread;
        QTest::newRow("DEL") << redis::Command{"DEL", stock} << unread;
        QTest::newRow("UNLINK") << redis::Command{"UNLINK", stock} << unread;
        QTest::newRow("FCALL") << redis::Command{"FCALL", "inventory_deduct_v1",
                                                 "2",     stock,
                                                 receipt, "1",
                                                 "60"}
                               << QStringLiteral("has no 'no-writes' flag");
        QTest::newRow("EVALSHA") << redis::Command{
            "EVALSHA", "0123456789012345678901234567890123456789", "1", stock,
            "1"} << QStringLiteral("scripts are treated as writes");
        QTest::newRow("FUNCTION LOAD")
            << redis::Command{"FUNCTION", "LOAD", "REPLACE",
                              "#!lua name=gate_probe\nredis.register_function('gate_probe', "
                              "function() return 1 end)"}
            << unread;
        QTest::newRow("FUNCTION DELETE")
            << redis::Command{"FUNCTION", "DELETE", "inventory_lib_v1"} << unread;
        QTest::newRow("FUNCTION RESTORE")
            << redis::Command{"FUNCTION", "RESTORE", "x", "REPLACE"} << unread;
        QTest::newRow("FUNCTION FLUSH") << redis::Command{"FUNCTION", "FLUSH"} << unread;
        QTest::newRow("SCRIPT LOAD") << redis::Command{"SCRIPT", "LOAD", "return 1"} << unread;
    }
    void withoutCommandInfoEveryWriteTheConsoleSends()
    {
        QFETCH(redis::Command, command);
        QFETCH(QString, why);
        auto client = connectWithoutCommandInfo();
        QVERIFY(client);
        QCOMPARE(client->state(), ConnectionState::Ready);
        const QByteArray functionsBefore = m_admin->call({"FUNCTION", "DUMP"})->bytes();
        const qint64 scriptCallsBefore = testsupport::commandCalls(*m_admin, "script|load");
        QVERIFY(scriptCallsBefore >= 0);
        const QList<QByteArray> keys{"stock:{42}:available", "idem:{42}:o-1"};
        const auto before = testsupport::snapshot(*m_admin, keys);
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        expectRefused(gated.call(command), why);
        QCOMPARE(testsupport::snapshotDifference(before, testsupport::snapshot(*m_admin, keys)),
                 QString());
        QCOMPARE(m_admin->call({"FUNCTION", "DUMP"})->bytes(), functionsBefore);
        QCOMPARE(testsupport::commandCalls(*m_admin, "script|load"), scriptCallsBefore);
    }

    void callerGoneGetsNoCallback()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("prod-eu"), QStringLiteral("production")));
        GatedSender gated(*client, gate);
        bool called = false;
        {
            QObject owner;
            gated.send({"SET", "x", "1"}, &owner, [&](const ReplyResult &) { called = true; });
            gated.send({"OBJECT", "ENCODING", "x"}, &owner,
                       [&](const ReplyResult &) { called = true; });
        }
        // Replies come in order: once the PING's is in, the two before it have been handled.
        QVERIFY(gated.call({"PING"}).ok());
        QVERIFY(!called);
    }

    // The classification alone, for a caller that wants to mark commands in the UI.
    void classify()
    {
        auto client = m_redis.connect();
        WriteGate gate(*client, profile(QStringLiteral("dev"), QStringLiteral("local")));
        std::optional<QList<gate::WriteDecision>> got;
        gate.classify({{"GET", "a"},
                       {"SET", "a", "b"},
                       {"FCALL", "gate_peek", "0"},
                       {"FCALL", "inventory_deduct_v1", "0"},
                       {"EVAL_RO", "return 1", "0"},
                       {"XINFO", "STREAM", "s"},
                       {"XGROUP", "CREATE", "s", "g", "$"}},
                      this, [&](const QList<gate::WriteDecision> &d) { got = d; });
        QTRY_VERIFY(got.has_value());
        const QList<bool> writes{false, true, false, true, false, false, true};
        QCOMPARE(got->size(), writes.size());
        for (qsizetype i = 0; i < writes.size(); ++i)
            QVERIFY2(got->at(i).writes == writes[i], qPrintable(got->at(i).reason.english));
        QVERIFY(gate.classifyCached({{"GET", "a"}}).has_value());
    }
};

QTEST_GUILESS_MAIN(TstWriteGate)
#include "tst_write_gate.moc"
