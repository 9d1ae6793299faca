// SPDX-License-Identifier: GPL-3.0-or-later
// A library whose function names differ only in case (`f` and `F`) loads on Redis 7.0.15, but
// replacing, deleting or restoring over it kills the server on an assertion (see
// functions/CaseTwins.h). Every such change is refused before anything is sent, against a real
// redis-server that would die if it were: the proof is that it is still alive and its command
// statistics show no FUNCTION LOAD, DELETE or RESTORE beyond the test's own. A dump is read
// (functions/DumpPayload.h) to know what it would install. And when the server dies during a
// change, the report says the verification could not be read, never "not made".
#include "ChangeFixture.h"
#include "RedisFixture.h"
#include "ServerTest.h"
#include "functions/CaseTwins.h"
#include "functions/DumpPayload.h"
#include "functions/LibraryChange.h"
#include "gate/WriteGate.h"

#include <QTemporaryDir>
#include <QTest>

using namespace functions;

Q_DECLARE_METATYPE(functions::RestorePolicy)

namespace {
const QByteArray Twins = "#!lua name=twins\n"
                         "redis.register_function('f', function() return 1 end)\n"
                         "redis.register_function('F', function() return 2 end)\n";
const QByteArray FixedTwins = "#!lua name=twins\n"
                              "redis.register_function('f', function() return 1 end)\n";
const QByteArray Other = "#!lua name=other_lib\n"
                         "redis.register_function('other_ping_v1', function() return 1 end)\n";
const QString Crash = QStringLiteral("differ only in case");

// Sends through `inner`; once a FUNCTION LOAD has gone out, kills the server at once: whatever
// the command did, nothing can be read back afterwards. (Every step of a change goes through
// the loading user's sender, so the reads before the load must pass.)
class KillingSender : public redis::CommandSender
{
public:
    KillingSender(redis::CommandSender &inner, demo::LocalRedisServer &server)
        : m_inner(inner)
        , m_server(server)
    {}
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback callback,
                   int timeoutMs) override
    {
        const bool load = std::any_of(commands.begin(), commands.end(), [](const auto &c) {
            return c.value(0) == "FUNCTION" && c.value(1) == "LOAD";
        });
        m_inner.sendBatch(std::move(commands), context, std::move(callback), timeoutMs);
        if (load)
            m_server.kill();
    }
    QString address() const override { return m_inner.address(); }

private:
    redis::CommandSender &m_inner;
    demo::LocalRedisServer &m_server;
};
} // namespace

class TstFunctionsCaseTwins : public testsupport::ChangeTest
{
    Q_OBJECT

    ChangeContext context(redis::RedisClient &client, redis::CommandSender *loader = nullptr)
    {
        ChangeContext c =
            testsupport::singleNodeContext(client, m_gate.get(), m_dir, "twins test", loader);
        c.timeoutMs = 3000;
        return c;
    }
    // How many times the server ran FUNCTION <sub>, refused calls included (-1: unreadable).
    qint64 calls(const QByteArray &sub)
    {
        return testsupport::commandCalls(*m_c, "function|" + sub);
    }
    QList<redis::LibraryInfo> libraries()
    {
        const auto list =
            redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST", "WITHCODE"}).value());
        return list.ok() ? list.value() : QList<redis::LibraryInfo>{};
    }
    // A backup of this server as it is now: its libraries and its FUNCTION DUMP.
    FunctionBackup backupOfServer(const QString &library)
    {
        FunctionBackup b;
        b.path = m_dir.filePath("crafted-backup.json");
        b.library = library;
        b.action = QStringLiteral("load");
        b.nodes << NodeBackup{
            m_c->address(), {}, {}, libraries(), m_c->call({"FUNCTION", "DUMP"})->bytes()};
        return b;
    }
    // Every step of the change, as far as the guards let it go; nothing may be sent.
    void expectRefusedAndNeverSent(const ChangeSpec &spec, const QString &why)
    {
        const QList<redis::LibraryInfo> before = libraries();
        const qint64 load = calls("load"), del = calls("delete"), restore = calls("restore");
        QVERIFY(load >= 0 && del >= 0 && restore >= 0);
        LibraryChange change(context(*m_c), spec);
        change.fetchStateBlocking();
        const QString refusals = change.refusals().join('\n');
        QVERIFY2(refusals.contains(why), qPrintable(refusals));
        QCOMPARE(change.verdict(), Verdict::Refused);
        const PreflightReport pre = change.preflightBlocking();
        QVERIFY(!pre.passed());
        QVERIFY2(pre.refusal().contains(why), qPrintable(pre.refusal()));
        QVERIFY(!change.backupBlocking().ok());
        QVERIFY(!change.confirm(spec.library, true).isEmpty());
        QVERIFY(!change.executeBlocking().refusal.english.isEmpty());
        QCOMPARE(testsupport::render(m_c->call({"PING"})), QStringLiteral("+PONG"));
        QVERIFY(testsupport::processExists(m_redis.server().pid()));
        QCOMPARE(compareLibraries(before, libraries()), QString());
        QCOMPARE(calls("load"), load);
        QCOMPARE(calls("delete"), del);
        QCOMPARE(calls("restore"), restore);
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServerWithLocalGate(QStringLiteral("twins test")), QString());
    }

    void init()
    {
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Other}).ok());
    }

    void caseTwinsAreFoundInFunctionList()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok()); // someone else's library
        const QList<redis::LibraryInfo> libs = libraries();
        QCOMPARE(libs.size(), 2);
        QCOMPARE(caseTwins(libs[1]), QStringList{"F, f"});
        QCOMPARE(caseTwins(libs[0]), QStringList{});
    }

    void loadOverLoadedTwinsIsNeverSent()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        const Inspection fixed = inspectLibrary(FixedTwins, "twins.lua");
        QVERIFY(fixed.ok());
        expectRefusedAndNeverSent(LibraryChange::loadSpec(fixed),
                                  "library twins on " + m_c->address()
                                      + " registers functions whose names differ only in case "
                                        "(F, f): Redis 7.0 crashes (an assertion) when it "
                                        "replaces or deletes such a library, so FUNCTION LOAD "
                                        "REPLACE is not sent");
    }

    void deleteOfLoadedTwinsIsNeverSent()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        expectRefusedAndNeverSent(LibraryChange::deleteSpec("twins"),
                                  "so FUNCTION DELETE is not sent");
    }

    void rollbackOverLoadedTwinsIsNeverSent()
    {
        // A backup from before someone loaded the twins: a rollback would delete them.
        const FunctionBackup backup = backupOfServer("twins");
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        expectRefusedAndNeverSent(LibraryChange::rollbackSpec(backup),
                                  "so FUNCTION DELETE is not sent");
    }

    void restoreReplaceOverLoadedTwinsIsNeverSent()
    {
        // The dump holds a sound `twins`; the loaded one is not: REPLACE would unlink it.
        QVERIFY(m_c->call({"FUNCTION", "LOAD", FixedTwins}).ok());
        const FunctionBackup backup = backupOfServer("twins");
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        expectRefusedAndNeverSent(LibraryChange::restoreSpec(backup, RestorePolicy::Replace),
                                  "so FUNCTION RESTORE REPLACE is not sent");
    }

    void dumpHoldingTwinsIsNeverRestored_data()
    {
        QTest::addColumn<RestorePolicy>("policy");
        QTest::newRow("APPEND") << RestorePolicy::Append;
        QTest::newRow("REPLACE") << RestorePolicy::Replace;
        QTest::newRow("FLUSH") << RestorePolicy::Flush;
    }
    void dumpHoldingTwinsIsNeverRestored()
    {
        QFETCH(RestorePolicy, policy);
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        const FunctionBackup backup = backupOfServer("twins");
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok()); // FLUSH does not unlink
        expectRefusedAndNeverSent(LibraryChange::restoreSpec(backup, policy),
                                  "the dump for " + m_c->address()
                                      + " holds library twins, whose function names differ "
                                        "only in case");
    }

    // The backup file's list is not trusted: the dump itself is read.
    void dumpNotMatchingItsListIsRefused()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        FunctionBackup backup = backupOfServer("other_lib");
        backup.nodes[0].libraries.removeIf(
            [](const redis::LibraryInfo &l) { return l.name == "twins"; });
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        expectRefusedAndNeverSent(LibraryChange::restoreSpec(backup, RestorePolicy::Append),
                                  "twins is unexpectedly loaded");
    }

    void unreadableDumpIsRefused()
    {
        FunctionBackup backup = backupOfServer("other_lib");
        backup.nodes[0].dump[3] = backup.nodes[0].dump[3] ^ 0x20;
        expectRefusedAndNeverSent(LibraryChange::restoreSpec(backup, RestorePolicy::Replace),
                                  "cannot be read, so the libraries it would install are "
                                  "unknown: the dump's checksum is wrong");
    }

    // What a real FUNCTION DUMP holds, compressed or not, read back exactly.
    void dumpIsReadExactly()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        const auto dump = readDump(m_c->call({"FUNCTION", "DUMP"})->bytes());
        QVERIFY2(dump.ok(), dump.ok() ? "" : qPrintable(dump.error()));
        QList<QByteArray> codes = dump->codes;
        std::sort(codes.begin(), codes.end());
        QCOMPARE(codes, (QList<QByteArray>{Other, Twins}));
        // The RDB version of the server's release (rdb.h): 10 in 7.0, 11 in 7.2 (and in
        // Valkey 8, which answers redis_version:7.2.4), 12 in 7.4.
        const QString server = testsupport::serverLabel(*m_c);
        const quint16 rdb = server.startsWith(QLatin1String("Redis 7.0."))   ? 10
                            : server.startsWith(QLatin1String("Redis 7.4.")) ? 12
                                                                             : 11;
        QCOMPARE(dump->rdbVersion, rdb);
        QCOMPARE(redisCrc64("123456789"), Q_UINT64_C(0xe9c6d914c4b8d9ca)); // Redis's test vector
    }

    // FLUSH frees every library without unlinking one by one: the way out, and it is allowed.
    void flushRestoreRemovesLoadedTwins()
    {
        const FunctionBackup backup = backupOfServer("twins");
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Twins}).ok());
        LibraryChange change(context(*m_c),
                             LibraryChange::restoreSpec(backup, RestorePolicy::Flush));
        change.fetchStateBlocking();
        QVERIFY2(change.refusals().isEmpty(), qPrintable(change.refusals().join('\n')));
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        QCOMPARE(change.confirm("twins", true), QString());
        const ExecutionReport done = change.executeBlocking();
        QVERIFY2(done.succeeded(),
                 qPrintable(done.refusal.english + done.nodes.value(0).message.english));
        QCOMPARE(testsupport::render(m_c->call({"PING"})), QStringLiteral("+PONG"));
        QCOMPARE(compareLibraries(backup.nodes[0].libraries, libraries()), QString());
    }

    // The server dies right after the change is sent: the verification cannot be read, and
    // the report says so instead of "the verification shows the change was not made".
    void deadServerIsNotVerifiedAsNotMade()
    {
        testsupport::StandaloneRedis doomed;
        QVERIFY2(doomed.start(), qPrintable(doomed.errorString()));
        auto client = doomed.connect();
        QVERIFY(client->call({"FUNCTION", "LOAD", Other}).ok());
        KillingSender killer(*client, doomed.server());
        const QByteArray v2 = Other + "redis.register_function('other_pong_v1', function() end)\n";
        LibraryChange change(context(*client, &killer),
                             LibraryChange::loadSpec(inspectLibrary(v2)));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        QVERIFY(change.backupBlocking().ok());
        QCOMPARE(change.confirm("other_lib", false), QString());
        const ExecutionReport done = change.executeBlocking();
        QCOMPARE(done.nodes.size(), 1);
        const NodeOutcome &n = done.nodes.first();
        QVERIFY(!n.verified);
        QVERIFY2(n.message.english.contains("the verification could not be read"),
                 qPrintable(n.message.english));
        QVERIFY2(n.message.english.contains("what " + client->address() + " holds now is unknown"),
                 qPrintable(n.message.english));
        QVERIFY2(!n.message.english.contains("not made"), qPrintable(n.message.english));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsCaseTwins)
#include "tst_functions_case_twins.moc"
