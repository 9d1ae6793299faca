// SPDX-License-Identifier: GPL-3.0-or-later
// Deduction input validation (the Lua contracts' canonical numbers and bounds), the commands
// built from it, key slots, and "Copy as redis-cli command" quoting. No server needed.
#include "inventory/DeductionContext.h"
#include "inventory/DeductionRequest.h"
#include "inventory/RedisCliCommand.h"
#include "redis/Slot.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTest>

using namespace inventory;

class TstDeductRequest : public QObject
{
    Q_OBJECT

    static DeductionRequest request(DeductionMode mode = DeductionMode::Function)
    {
        DeductionRequest r;
        r.sku = "42";
        r.orderId = "9001";
        r.quantity = "3";
        r.ttlSeconds = "604800";
        r.mode = mode;
        return r;
    }

private slots:
    void canonicalNumbers_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("one") << QByteArray("1") << true;
        QTest::newRow("max") << QByteArray("1000000") << true;
        QTest::newRow("above max") << QByteArray("1000001") << false;
        QTest::newRow("zero") << QByteArray("0") << false;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("leading zero") << QByteArray("03") << false;
        QTest::newRow("sign") << QByteArray("+3") << false;
        QTest::newRow("negative") << QByteArray("-3") << false;
        QTest::newRow("space") << QByteArray(" 3") << false;
        QTest::newRow("trailing space") << QByteArray("3 ") << false;
        QTest::newRow("decimal") << QByteArray("3.0") << false;
        QTest::newRow("exponent") << QByteArray("1e3") << false;
        QTest::newRow("hex") << QByteArray("0x10") << false;
        QTest::newRow("eleven digits") << QByteArray("10000000000") << false;
        QTest::newRow("separator") << QByteArray("1,000") << false;
        QTest::newRow("nul") << QByteArray("3\0", 2) << false;
    }
    void canonicalNumbers()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        const auto problem = canonicalNumberProblem(text, 1, MaxQuantity);
        QCOMPARE(!problem.has_value(), valid);
        if (problem)
            QVERIFY2(problem->english.contains(QLatin1String("1 to 1,000,000")),
                     qPrintable(problem->english));
    }

    void ttlBounds()
    {
        QVERIFY(!canonicalNumberProblem("31536000", 1, MaxReceiptTtlSeconds));
        QVERIFY(canonicalNumberProblem("31536001", 1, MaxReceiptTtlSeconds));
        QVERIFY(canonicalNumberProblem("0", 1, MaxReceiptTtlSeconds));
    }

    void functionPlan()
    {
        const DeductionPlan p = planDeduction(request(), KeySchema());
        QVERIFY(p.ok());
        QCOMPARE(p.stockKey, QByteArray("stock:{42}:available"));
        QCOMPARE(p.receiptKey, QByteArray("idem:{42}:9001"));
        QCOMPARE(p.stockSlot, redis::keySlot("42"));
        QCOMPARE(p.receiptSlot, p.stockSlot);
        QCOMPARE(p.command,
                 (redis::Command{"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                                 "idem:{42}:9001", "3", "604800"}));
    }

    void scriptPlanUsesTheShippedScriptsSha1()
    {
        QFile f(QStringLiteral(INVENTORY_SOURCE_DIR "/functions/stock_decrement.lua"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray sha =
            QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1).toHex();
        QCOMPARE(deductScriptSha1(), sha);
        DeductionRequest r = request(DeductionMode::Script);
        r.orderId.clear();  // optional in Script mode
        r.ttlSeconds = "x"; // not used in Script mode, so not validated
        const DeductionPlan p = planDeduction(r, KeySchema());
        QVERIFY(p.ok());
        QCOMPARE(p.command, (redis::Command{"EVALSHA", sha, "1", "stock:{42}:available", "3"}));
        QVERIFY(p.receiptKey.isEmpty());
    }

    void everyProblemAtOnce()
    {
        DeductionRequest r;
        r.sku = " 42";
        r.orderId = "";
        r.quantity = "03";
        r.ttlSeconds = "31536001";
        const DeductionPlan p = planDeduction(r, KeySchema());
        QVERIFY(!p.ok());
        QVERIFY(p.problemFor("sku"));
        QVERIFY(p.problemFor("order"));
        QVERIFY(p.problemFor("quantity")->contains(QLatin1String("leading zero")));
        QVERIFY(p.problemFor("ttl")->contains(QLatin1String("31,536,000")));
    }

    // A template without a shared hash tag puts the two keys in different slots: refused.
    // Issue 14: "a}:b" with order "c" and "a" with order "b}:c" both named idem:{a}:b}:c, so
    // the second was "already applied" and SKU a never deducted. No brace is a SKU's.
    void skusThatCouldShareAReceiptAreRefused_data()
    {
        QTest::addColumn<QByteArray>("sku");
        QTest::addColumn<QString>("why");
        QTest::newRow("closing brace") << QByteArray("a}:b") << "'}'";
        QTest::newRow("opening brace") << QByteArray("a{b") << "'{'";
        QTest::newRow("lone brace") << QByteArray("}") << "'}'";
    }
    void skusThatCouldShareAReceiptAreRefused()
    {
        QFETCH(QByteArray, sku);
        QFETCH(QString, why);
        for (const DeductionMode mode : {DeductionMode::Function, DeductionMode::Script}) {
            DeductionRequest r = request(mode);
            r.sku = sku;
            const DeductionPlan p = planDeduction(r, KeySchema());
            QVERIFY(!p.ok());
            QVERIFY2(p.problemFor("sku") && p.problemFor("sku")->contains(why),
                     qPrintable(p.problemFor("sku").value_or(QString())));
        }
        // The order id may hold braces: it follows the tag, where they change nothing.
        DeductionRequest r = request();
        r.orderId = "b}:c{";
        QVERIFY(planDeduction(r, KeySchema()).ok());
    }

    // A template without a hash tag ends the SKU at its separator: that character is refused.
    void separatorOfACustomTemplateIsRefused()
    {
        const auto schema = KeySchema::fromTemplates(QStringLiteral("stock:<sku>"),
                                                     QStringLiteral("idem:<sku>:<order>"));
        QVERIFY(schema.ok());
        DeductionRequest r = request();
        r.sku = "a:b";
        const DeductionPlan p = planDeduction(r, schema.value());
        QVERIFY(p.problemFor("sku") && p.problemFor("sku")->contains(QLatin1String("':'")));
        QVERIFY(!schema->skuProblem("a-b"));
        QVERIFY(!KeySchema().skuProblem("a:b")); // the default's tag ends at '}', not ':'
    }

    void differentSlotsAreRefused()
    {
        const auto schema = KeySchema::fromTemplates("stock:<sku>", "idem:<sku>:<order>");
        QVERIFY(schema.ok());
        DeductionRequest r = request();
        const DeductionPlan p = planDeduction(r, schema.value());
        QCOMPARE(p.stockKey, QByteArray("stock:42"));
        QVERIFY(p.stockSlot != p.receiptSlot);
        QVERIFY(p.problemFor("keys"));
        QVERIFY(p.problemFor("keys")->contains(QString::number(p.receiptSlot)));
        // Script mode has one key only: nothing to compare.
        r.mode = DeductionMode::Script;
        QVERIFY(planDeduction(r, schema.value()).ok());
        // A brace in the SKU changes the hash tag of the default templates too.
        DeductionRequest braces = request();
        braces.sku = "4}2";
        const DeductionPlan b = planDeduction(braces, KeySchema());
        QCOMPARE(b.stockSlot == b.receiptSlot, b.problemFor("keys") == std::nullopt);
    }

    void valuesStayArguments()
    {
        DeductionRequest r = request();
        r.sku = "a'b\" $(rm) *";
        r.orderId = "o\\1";
        const DeductionPlan p = planDeduction(r, KeySchema());
        QVERIFY2(p.ok(), qPrintable(p.problems.value(0).message.english));
        QCOMPARE(p.command.at(3), QByteArray("stock:{a'b\" $(rm) *}:available"));
        QCOMPARE(p.command.at(4), QByteArray("idem:{a'b\" $(rm) *}:o\\1"));
    }

    void redisCliLine()
    {
        const QString line =
            redisCliCommandLine({"-h", "127.0.0.1", "-p", "6379"},
                                {"FCALL", "inventory_deduct_v1", "2", "stock:{a b}:available",
                                 "idem:{a b}:it's", "3", "60"});
        QCOMPARE(line, QStringLiteral("redis-cli -h 127.0.0.1 -p 6379 FCALL inventory_deduct_v1 "
                                      "2 'stock:{a b}:available' 'idem:{a b}:it'\\''s' 3 60"));
        redis::ConnectionOptions o;
        o.host = "db.example";
        o.port = 6380;
        o.database = 2;
        o.username = "ops";
        o.password = "secret";
        o.tls.enabled = true;
        o.tls.caFile = "/etc/ca.pem";
        const QStringList args = redisCliConnectionArgs(o);
        QVERIFY(!args.join(' ').contains("secret"));
        QVERIFY(args.contains("--askpass"));
        QVERIFY(args.contains("--tls"));
        QCOMPARE(args.mid(0, 6), (QStringList{"-h", "db.example", "-p", "6380", "-n", "2"}));
    }

    void contextRedisCliArgsFromAddress()
    {
        DeductionContext ctx;
        ctx.serverAddress = "[::1]:7000";
        QCOMPARE(ctx.effectiveRedisCliArgs(), (QStringList{"-h", "::1", "-p", "7000"}));
        ctx.redisCliArgs = {"-p", "1"};
        QCOMPARE(ctx.effectiveRedisCliArgs(), (QStringList{"-p", "1"}));
    }

    // Issue 28: on a cluster sku-3 (slot 12779, owned by 30103) was confirmed as the seed
    // 30102 with a redis-cli command without -c. The confirmation names the slot's owner and
    // a redis-cli command that reaches it, and follows a MOVED if the slot moved meanwhile.
    void clusterNamesTheSlotOwner()
    {
        DeductionContext ctx;
        ctx.serverAddress = "127.0.0.1:30102";
        ctx.redisCliArgs = {"-h", "127.0.0.1", "-p", "30102", "--user", "ops", "--askpass"};
        ctx.nodeForSlot = [](int slot) {
            return SlotNode{true, slot == 12779 ? QStringLiteral("127.0.0.1:30103") : QString()};
        };
        const DeductionPlan p =
            planDeduction({"sku-3", "9001", "1", "60", DeductionMode::Function}, KeySchema());
        QCOMPARE(p.stockSlot, 12779);
        QCOMPARE(ctx.serverFor(p.stockSlot), QStringLiteral("127.0.0.1:30103"));
        QCOMPARE(
            ctx.redisCliArgsFor(p.stockSlot),
            (QStringList{"-c", "-h", "127.0.0.1", "-p", "30103", "--user", "ops", "--askpass"}));
        QCOMPARE(redisCliCommandLine(ctx.redisCliArgsFor(p.stockSlot), p.command),
                 QStringLiteral("redis-cli -c -h 127.0.0.1 -p 30103 --user ops --askpass FCALL "
                                "inventory_deduct_v1 2 'stock:{sku-3}:available' "
                                "'idem:{sku-3}:9001' 1 60"));
        // An owner the topology does not name yet: said so, and redis-cli -c via the seed.
        QVERIFY(ctx.serverFor(5).contains("slot 5"));
        QCOMPARE(ctx.redisCliArgsFor(5), (QStringList{"-c", "-h", "127.0.0.1", "-p", "30102",
                                                      "--user", "ops", "--askpass"}));
        // IPv6 and no -h/-p in the options: the node's address is added.
        QCOMPARE(redisCliClusterArgs({"--tls"}, "[::1]:7001"),
                 (QStringList{"-c", "-h", "::1", "-p", "7001", "--tls"}));
        // A standalone server: as before, no -c.
        ctx.nodeForSlot = [](int) {
            return SlotNode{};
        };
        QCOMPARE(ctx.serverFor(p.stockSlot), QStringLiteral("127.0.0.1:30102"));
        QCOMPARE(ctx.redisCliArgsFor(p.stockSlot), ctx.redisCliArgs);
    }

    void modes()
    {
        QCOMPARE(parseMode("Function"), DeductionMode::Function);
        QCOMPARE(parseMode("script"), DeductionMode::Script);
        QVERIFY(!parseMode("eval"));
        QCOMPARE(modeName(DeductionMode::Script), QStringLiteral("script"));
    }
};

QTEST_GUILESS_MAIN(TstDeductRequest)
#include "tst_deduct_request.moc"
