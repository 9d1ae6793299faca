// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser against a real redis-server, beyond the scan: the order lookup and its
// sentences, refreshing visible rows, the flat key view, and guarded key actions (through
// the real write gate, written to the audit log).
#include "tst_browse_support.h"

#include "AuditTrail.h"
#include "ServerTest.h"

#include "browse/FlatKeyScan.h"
#include "browse/InventoryScan.h"
#include "browse/KeyAction.h"
#include "browse/ModelRoles.h"
#include "browse/OrderSentence.h"
#include "browse/RowRefresher.h"
#include "browse/ServerEvidence.h"
#include "browse/Values.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "inventory/AuditLog.h"
#include "overview/ServerOverview.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTemporaryDir>

using namespace browse;
using browsetest::seed;
using browsetest::setString;

namespace {

// A session on a production profile ("prod-eu"): read-only until unlocked, so its gated
// sender refuses every write before it reaches the server.
struct ProductionSession
{
    static profiles::ConnectionProfile profile()
    {
        profiles::ConnectionProfile p;
        p.name = "prod-eu";
        p.environment = "production";
        return p;
    }
    explicit ProductionSession(redis::CommandSender &server)
        : gate(server, profile())
        , sender(server, gate)
    {}
    gate::WriteGate gate;
    gate::GatedSender sender;
};

constexpr qint64 Hour = 3600LL * 1000;

bool runToEnd(InventoryScan &scan, const InventoryScan::Options &o)
{
    QSignalSpy done(&scan, &InventoryScan::finished);
    scan.start(o);
    return done.wait(60000) && done[0][0].toBool();
}

uint32_t receiptOf(const KeyspaceStore &st, const QByteArray &sku, const QByteArray &order)
{
    const uint32_t s = st.findSku(sku);
    return s == KeyspaceStore::None ? KeyspaceStore::None : st.findReceipt(s, order);
}

} // namespace

class TstBrowseLookup : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init() { QVERIFY(m_c->call({"FLUSHALL"}).ok()); }

    void orderLookupFindsEveryReceiptAndExplainsIt()
    {
        QList<redis::Command> c;
        for (int i = 0; i < 2000; ++i) // noise the pattern must skip
            c << setString("idem:{n" + QByteArray::number(i) + "}:" + QByteArray::number(i), "1",
                           Hour);
        c << setString("stock:{42}:available", "40")
          << setString("idem:{42}:9001", "3", (6 * 24 + 23) * Hour + 30 * 60000)
          << setString("idem:{43}:9001", "0", 5 * Hour + 12 * 60000 + 30000) // stock key gone
          << setString("idem:{44}:9001", "abc")                              // no TTL, not int
          << setString("idem:{42}:90011", "1", Hour)    // a longer id: not order 9001
          << setString("idem:{45}:x}:9001", "1", Hour); // order "x}:9001", not 9001
        QCOMPARE(seed(*m_c, c), QString());

        InventoryScan scan(*m_c, inventory::KeySchema());
        InventoryScan::Options o;
        o.orderId = "9001";
        o.count = 300;
        QVERIFY(runToEnd(scan, o));
        const KeyspaceStore &st = scan.store();
        QCOMPARE(st.receiptCount(), 3u);
        const qint64 now = KeyspaceScanner::nowMs();
        const uint32_t r42 = receiptOf(st, "42", "9001");
        // What the retry line rests on, read from the test's server (no maxmemory, no AOF).
        const ServerEvidence server = readEvidence(*m_c, st.receiptKey(r42), 5000);
        QVERIFY2(server.known(), qPrintable(server.readError));
        QCOMPARE(server.aofEnabled, std::optional<bool>(false));
        const OrderExplanation e42 = explainOrder(st, r42, now, &server);
        QCOMPARE(e42.verdict, RetryVerdict::ProbablySafe);
        QCOMPARE(
            e42.text(),
            QStringLiteral("Deducted (this receipt does not record how many units). Stock "
                           "left right after this order: 3. Safe to retry: probably, until %1 "
                           "(in 6 d 23 h), unless the receipt is removed sooner: AOF is off: a "
                           "restart or failover before the next snapshot loses it (%2). After "
                           "that a retry deducts again. Stock now: 40.")
                .arg(formatLocalTime(st.receiptExpiryMs(r42), now),
                     server.lastSaveMs > 0 ? QStringLiteral("last snapshot %1")
                                                 .arg(formatLocalTime(server.lastSaveMs, now))
                                           : QStringLiteral("no snapshot since it started")));
        const QString s43 = explainOrder(st, receiptOf(st, "43", "9001"), now, &server).text();
        QVERIFY2(s43.contains("Stock left right after this order: 0. Safe to retry: probably, "
                              "until "),
                 qPrintable(s43));
        QVERIFY2(s43.contains("(in 5 h 12 min)"), qPrintable(s43));
        QVERIFY2(s43.endsWith("The stock key stock:{43}:available does not exist now: once the "
                              "receipt is gone a retry deducts nothing and answers 'no stock "
                              "key'."),
                 qPrintable(s43));
        const QString s44 = explainOrder(st, receiptOf(st, "44", "9001"), now, &server).text();
        QVERIFY2(s44.contains("The stock left after it was recorded as \"abc\", which is not a "
                              "number"),
                 qPrintable(s44));
        QVERIFY2(s44.contains("the receipt never expires"), qPrintable(s44));

        scan.start(InventoryScan::Options{{}, "no-such-order", 300, 4, 30000});
        QSignalSpy done(&scan, &InventoryScan::finished);
        QVERIFY(done.wait(30000));
        QCOMPARE(scan.store().receiptCount(), 0u);
    }

    void refreshRereadsVisibleRowsInOneRoundTrip()
    {
        QCOMPARE(seed(*m_c, {setString("stock:{r}:available", "10"),
                             setString("idem:{r}:1", "9", Hour),
                             setString("idem:{r}:2", "8", Hour),
                             {"HSET", "idem:{r}:3", "remaining", "7", "quantity", "1"}}),
                 QString());
        InventoryScan scan(*m_c, inventory::KeySchema());
        QVERIFY(runToEnd(scan, {}));
        KeyspaceStore &st = scan.store();
        const uint32_t s = st.findSku("r");
        QCOMPARE(st.receiptCountOf(s), 3u);
        QCOMPARE(seed(*m_c, {setString("stock:{r}:available", "6"),
                             {"PERSIST", "idem:{r}:1"},
                             {"DEL", "idem:{r}:2"},
                             {"HSET", "idem:{r}:3", "remaining", "5"},
                             {"PEXPIRE", "stock:{r}:available", "100000"}}),
                 QString());
        browsetest::SlowSender counting(*m_c, 0);
        RowRefresher refresher(counting, st);
        QSignalSpy refreshed(&refresher, &RowRefresher::refreshed);
        std::vector<uint32_t> receipts;
        for (uint32_t r = st.firstReceiptOf(s); r != KeyspaceStore::None; r = st.nextReceipt(r))
            receipts.push_back(r);
        QVERIFY(refresher.refresh({s}, receipts));
        QVERIFY(!refresher.refresh({s}, receipts)); // one at a time
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(counting.batches, 1); // hash receipts are read with HMGET directly
        QCOMPARE(st.stockValue(s), 6);
        QVERIFY(st.stockExpiryMs(s) != NoExpiry);
        QCOMPARE(st.receiptCountOf(s), 2u);
        QCOMPARE(st.receiptExpiryMs(receiptOf(st, "r", "1")), NoExpiry);
        QCOMPARE(st.remaining(receiptOf(st, "r", "3")), 5);

        // Replies for a store cleared in the meantime (a rescan) are dropped.
        browsetest::SlowSender slow(*m_c, 100);
        RowRefresher late(slow, st);
        QSignalSpy lateDone(&late, &RowRefresher::refreshed);
        QVERIFY(late.refresh({s}, {}));
        st.clear();
        QTRY_VERIFY_WITH_TIMEOUT(slow.inFlight == 0, 5000); // the late reply came and was dropped
        QCOMPARE(lateDone.size(), 0);
        QCOMPARE(st.skuCount(), 0u);
        QVERIFY(!late.isBusy());
    }

    void flatViewListsAnyKeySafely()
    {
        const QByteArray bin("k\x00\x01\xff", 4);
        QCOMPARE(seed(*m_c, {setString("str", "hello"),
                             setString("long", QByteArray(5000, 'v'), Hour),
                             setString(bin, QByteArray("\x00\n", 2)),
                             {"HSET", "h", "remaining", "3", "quantity", "2"},
                             {"RPUSH", "l", "a", "b", "c"},
                             {"SADD", "s", "m"},
                             {"ZADD", "z", "1", "one"},
                             {"XADD", "x", "*", "f", "v"}}),
                 QString());
        FlatKeyScan scan(*m_c);
        FlatKeyModel model(scan.store());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&scan, &FlatKeyScan::storeChanged, &model, [&] { model.sync(); });
        QSignalSpy done(&scan, &FlatKeyScan::finished);
        FlatKeyScan::Options o;
        o.count = 2;
        scan.start(o);
        QVERIFY(done.wait(10000));
        model.sync();
        QCOMPARE(model.rowCount(), 8);
        QHash<QString, int> rowOf;
        for (int r = 0; r < model.rowCount(); ++r)
            rowOf.insert(model.index(r, FlatKeyModel::Key).data().toString(), r);
        auto cell = [&](const char *key, int column) {
            return model.index(rowOf.value(QString::fromUtf8(key)), column).data().toString();
        };
        QCOMPARE(cell("h", FlatKeyModel::Type), "hash");
        QCOMPARE(cell("h", FlatKeyModel::Value), "remaining=3, quantity=2");
        QCOMPARE(cell("l", FlatKeyModel::Value), "a, b, c");
        QCOMPARE(cell("l", FlatKeyModel::Size), "3 elements");
        QCOMPARE(cell("z", FlatKeyModel::Value), "one=1");
        QCOMPARE(cell("x", FlatKeyModel::Type), "stream");
        QCOMPARE(cell("str", FlatKeyModel::Ttl), "none");
        QCOMPARE(cell("long", FlatKeyModel::Size), QLocale().toString(5000) + " bytes");
        QVERIFY(cell("long", FlatKeyModel::Value).endsWith(QChar(0x2026)));
        QVERIFY(cell("long", FlatKeyModel::Value).size() < 200);
        const int b = rowOf.value("k\\x00\\x01\\xff", -1);
        QVERIFY(b >= 0);
        QCOMPARE(model.index(b, FlatKeyModel::Key).data(RawBytesRole).toByteArray(), bin);
        QCOMPARE(model.index(b, FlatKeyModel::Value).data().toString(), "\\x00\\n");

        o.pattern = "l*";
        o.maxKeys = 0;
        scan.start(o);
        QVERIFY(done.wait(10000));
        model.sync();
        QCOMPARE(model.rowCount(), 2); // l and long
        o.pattern = "*";
        o.maxKeys = 3;
        scan.start(o);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.last()[0].toBool(), false);
        QVERIFY(done.last()[1].toString().contains("stopped at 3 keys"));
        model.sync();
        QCOMPARE(model.rowCount(), 3); // the pages read before the stop are kept
    }

    void keyActionsAreGatedConfirmedAndAudited()
    {
        QCOMPARE(
            seed(*m_c, {setString("stock:{a}:available", "5", Hour), setString("idem:{a}:1", "4")}),
            QString());
        const QString logPath = m_dir.filePath("audit.jsonl");
        KeyActionRunner runner(*m_c, AuditContext{logPath, "local-test", {}, {}});
        QSignalSpy finished(&runner, &KeyActionRunner::finished);

        const KeyAction expire = KeyAction::setTtl("idem:{a}:1", 7 * 86400);
        QCOMPARE(expire.commandText(), "EXPIRE 'idem:{a}:1' 604800");
        QVERIFY(!runner.run(KeyAction::setTtl("idem:{a}:1", 0))); // refused before sending
        QVERIFY(runner.run(expire));
        QVERIFY(finished.wait(5000));
        auto o = finished.last()[0].value<KeyActionRunner::Outcome>();
        QVERIFY(o.ok);
        QCOMPARE(o.result.english, "TTL set: expires in 7 d");
        QVERIFY(m_c->call({"PTTL", "idem:{a}:1"})->toInteger() > 0);

        QVERIFY(runner.run(KeyAction::removeTtl("stock:{a}:available")));
        QVERIFY(finished.wait(5000));
        QCOMPARE(m_c->call({"PTTL", "stock:{a}:available"})->toInteger(), -1);
        QVERIFY(runner.run(KeyAction::remove("idem:{a}:1")));
        QVERIFY(finished.wait(5000));
        QCOMPARE(m_c->call({"EXISTS", "idem:{a}:1"})->toInteger(), 0);
        QVERIFY(runner.run(KeyAction::remove("idem:{a}:1")));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.last()[0].value<KeyActionRunner::Outcome>().result.english,
                 "nothing deleted: the key no longer exists");

        // A production profile's session is read-only: the gate refuses, nothing is sent, and
        // the attempt is still recorded.
        ProductionSession prod(*m_c);
        QVERIFY(prod.gate.isReadOnly());
        KeyActionRunner guarded(prod.sender, AuditContext{logPath, "prod-eu", {}, {}});
        QSignalSpy refused(&guarded, &KeyActionRunner::finished);
        QCOMPARE(seed(*m_c, {setString("idem:{a}:2", "3", Hour)}), QString());
        QVERIFY(guarded.run(KeyAction::remove("idem:{a}:2")));
        QVERIFY(refused.wait(5000));
        o = refused.last()[0].value<KeyActionRunner::Outcome>();
        QVERIFY(!o.ok);
        QVERIFY(!o.outcomeUnknown);
        QVERIFY2(o.result.english.startsWith("not sent: ") && o.result.english.contains("prod-eu"),
                 qPrintable(o.result.english));
        QCOMPARE(m_c->call({"EXISTS", "idem:{a}:2"})->toInteger(), 1);

        // Each action: an attempt record before sending, then its outcome with the same id.
        const auto trail = testsupport::readAuditTrail(logPath);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.raw.size(), 10);
        QCOMPARE(trail.raw[0].phase, inventory::AuditRecord::Phase::Attempt);
        QCOMPARE(trail.raw[0].command, (QList<QByteArray>{"EXPIRE", "idem:{a}:1", "604800"}));
        QCOMPARE(trail.raw[1].phase, inventory::AuditRecord::Phase::Outcome);
        QCOMPARE(trail.raw[1].attemptId, trail.raw[0].attemptId);
        const QList<inventory::AuditRecord> &records = trail.writes;
        QCOMPARE(records.size(), 5);
        QCOMPARE(records[0].action, "expire");
        QCOMPARE(records[0].command, (QList<QByteArray>{"EXPIRE", "idem:{a}:1", "604800"}));
        QCOMPARE(records[0].profile, "local-test");
        // The run_id of the server that ran it, read just before (INFO server).
        QCOMPARE(records[0].runId,
                 QString::fromLatin1(
                     overview::parseInfo(m_c->call({"INFO", "server"})->bytes()).value("run_id")));
        QCOMPARE(records[0].server, m_c->address());
        QVERIFY(records[0].durationMs >= 0);
        QCOMPARE(records[1].action, "persist");
        QCOMPARE(records[2].action, "delete");
        QCOMPARE(records[2].result, "deleted");
        QCOMPARE(records[4].profile, "prod-eu");
        QVERIFY(records[4].result.startsWith("not sent: "));
    }

    // No attempt record, no command: with a directory where the audit log should be, a key
    // action is refused, says why, and the key is untouched.
    void keyActionIsRefusedWhenTheAuditLogCannotBeWritten()
    {
        QCOMPARE(seed(*m_c, {setString("idem:{b}:1", "4", Hour)}), QString());
        const QByteArray before = m_c->call({"DUMP", "idem:{b}:1"})->bytes();
        const QString logPath = m_dir.filePath("key-audit-is-a-directory");
        QVERIFY(QDir().mkpath(logPath));
        KeyActionRunner runner(*m_c, AuditContext{logPath, "local-test", {}, {}});
        QSignalSpy finished(&runner, &KeyActionRunner::finished);
        for (const KeyAction &a :
             {KeyAction::remove("idem:{b}:1"), KeyAction::removeTtl("idem:{b}:1"),
              KeyAction::setTtl("idem:{b}:1", 5)}) {
            QVERIFY(runner.run(a));
            QVERIFY(finished.wait(5000));
            const auto o = finished.last()[0].value<KeyActionRunner::Outcome>();
            QVERIFY(!o.ok);
            QVERIFY(!o.outcomeUnknown);
            QVERIFY2(o.result.english.startsWith(
                         QStringLiteral("not sent: the audit log at %1 could not be written: ")
                             .arg(logPath)),
                     qPrintable(o.result.english));
            QVERIFY2(o.result.english.contains("Is a directory"), qPrintable(o.result.english));
            QVERIFY(!runner.isBusy());
        }
        QCOMPARE(m_c->call({"DUMP", "idem:{b}:1"})->bytes(), before);
        QVERIFY(m_c->call({"PTTL", "idem:{b}:1"})->toInteger() > Hour - 60000);
    }
    // "Set stock…" repairs a value the functions refuse; on a read-only production session
    // the gate refuses it before a byte is sent, and the refusal is in the audit log.
    void setStockRepairsABadValueThroughTheGate()
    {
        QCOMPARE(seed(*m_c, {setString("stock:{s}:available", "12.5"),
                             setString("stock:{t}:available", "-3")}),
                 QString());
        const QString logPath = m_dir.filePath("set-stock.jsonl");
        QVERIFY(!KeyActionRunner(*m_c, AuditContext{logPath, "local-test", {}, {}})
                     .run(KeyAction::setStock("stock:{s}:available", "12.5")));

        ProductionSession prod(*m_c);
        QVERIFY(prod.gate.isReadOnly());
        KeyActionRunner guarded(prod.sender, AuditContext{logPath, "prod-eu", {}, {}});
        QSignalSpy finished(&guarded, &KeyActionRunner::finished);
        QVERIFY(guarded.run(KeyAction::setStock("stock:{s}:available", "12")));
        QVERIFY(finished.wait(5000));
        auto o = finished.last()[0].value<KeyActionRunner::Outcome>();
        QVERIFY(!o.ok);
        QVERIFY(!o.outcomeUnknown);
        QVERIFY2(o.result.english.startsWith("not sent: ") && o.result.english.contains("prod-eu"),
                 qPrintable(o.result.english));
        QCOMPARE(m_c->call({"GET", "stock:{s}:available"})->bytes(), QByteArray("12.5"));

        // Unlocked (a local session), the same action is sent and repairs the value; a key
        // deleted meanwhile is not created again (XX).
        KeyActionRunner runner(*m_c, AuditContext{logPath, "local-test", {}, {}});
        QSignalSpy done(&runner, &KeyActionRunner::finished);
        QVERIFY(runner.run(KeyAction::setStock("stock:{s}:available", "12")));
        QVERIFY(done.wait(5000));
        o = done.last()[0].value<KeyActionRunner::Outcome>();
        QVERIFY(o.ok);
        QCOMPARE(o.result.english, "stock set to 12");
        QCOMPARE(m_c->call({"GET", "stock:{s}:available"})->bytes(), QByteArray("12"));
        QVERIFY(runner.run(KeyAction::setStock("stock:{gone}:available", "5")));
        QVERIFY(done.wait(5000));
        QCOMPARE(done.last()[0].value<KeyActionRunner::Outcome>().result.english,
                 "nothing changed: the stock key no longer exists");
        QCOMPARE(m_c->call({"EXISTS", "stock:{gone}:available"})->toInteger(), 0);

        const auto trail = testsupport::readAuditTrail(logPath);
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.writes.size(), 3);
        QCOMPARE(trail.writes[0].action, "set_stock");
        QCOMPARE(trail.writes[0].profile, "prod-eu");
        QVERIFY(trail.writes[0].result.startsWith("not sent: "));
        QCOMPARE(trail.writes[1].command,
                 (QList<QByteArray>{"SET", "stock:{s}:available", "12", "XX"}));
        QCOMPARE(trail.writes[1].result, "stock set to 12");
    }
};

QTEST_GUILESS_MAIN(TstBrowseLookup)
#include "tst_browse_lookup.moc"
