// SPDX-License-Identifier: GPL-3.0-or-later
// The sentences the core (app/) writes come out in the window's language: English with no
// translator (as the CLI prints them), Simplified Chinese once the window installs its
// translators, with every number in its place. One sentence from each group the issue names:
// a deduction's outcome, a reconcile finding, a readiness rule, what a receipt proves. What is
// a record (the audit log's summary, the English a release's audit reason quotes) stays
// English under the Chinese translator.
#include "PrivateSettings.h"
#include "browse/InventoryScan.h"
#include "browse/KeyAction.h"
#include "browse/OrderSentence.h"
#include "browse/Values.h"
#include "functions/ChangeUser.h"
#include "functions/ContractDiff.h"
#include "inventory/DeductionOutcome.h"
#include "inventory/ReceiptCheck.h"
#include "inventory/Repairer.h"
#include "profiles/ConnectionProfile.h"
#include "readiness/Rules.h"
#include "reconcile/Reconciler.h"
#include "session/ProbeReport.h"
#include "session/ReleaseProbe.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using inventory::DeductionMode;
using inventory::DeductionOutcome;
using inventory::OutcomeKind;

class TstCoreSentencesZh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static DeductionOutcome insufficient()
    {
        DeductionOutcome o;
        o.kind = OutcomeKind::Insufficient;
        o.stock = 3;
        return o;
    }

    static inventory::ReceiptStatus receipt()
    {
        inventory::ReceiptStatus s;
        s.key = "idem:{42}:9001";
        s.exists = true;
        s.form = inventory::ReceiptForm::String;
        s.remaining = 17;
        s.ttlSeconds = 3600;
        s.checkedUtc = QDateTime(QDate(2026, 12, 3), QTime(12, 0), Qt::UTC);
        return s;
    }

    // A cancelled order whose receipt deducted 2 units an hour ago: a release candidate.
    static reconcile::Finding releaseCandidate()
    {
        browse::KeyspaceStore store;
        browse::ReceiptReading r;
        r.hash = true;
        r.remaining = 5;
        r.quantity = "2";
        r.time = "1799996400.000000"; // an hour before now
        store.putReceipt(store.internSku("42"), "9001", r);
        ledger::LedgerRow row;
        row.orderId = "9001";
        row.sku = "42";
        row.quantity = 2;
        row.state = ledger::OrderState::Cancelled;
        reconcile::Scope scope;
        scope.nowMs = 1800000000000;
        QList<reconcile::Finding> found;
        reconcile::Reconciler rec(store, scope, reconcile::ReceiptPolicy{604800, {}},
                                  [&](const reconcile::Finding &f) { found << f; });
        rec.addRow(row, rec.receiptOf(row), false);
        rec.judgeReceipt(0, false);
        return found.value(0);
    }

    // A lost release's record key read back: another release of 5 wrote it.
    static inventory::RepairSettlement otherRelease()
    {
        const inventory::RepairPlan plan = inventory::planRepair(
            {inventory::RepairKind::Release, "42", "9001", "3", "600", {}}, inventory::KeySchema());
        inventory::RecordReading r;
        r.read = true;
        r.value = QByteArray("quantity=5;time=1700000000.123456");
        r.ttlSeconds = 500;
        return inventory::settleRepair(plan, r);
    }

    // Why the Keys tab's view is short of keys.
    static QString unreadable()
    {
        browse::InventoryLoader::Stats stats;
        stats.unreadable = 2;
        stats.firstProblem = QStringLiteral("NOPERM");
        return browse::unreadableText(stats);
    }

    // What the connection dialog says of a profile with no port.
    static QString portProblem()
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("shop");
        p.port = 0;
        const auto problems = p.validate();
        return problems.isEmpty() ? QString() : problems.first().message;
    }

    // What ACL DRYRUN's answer for a user the server does not know means.
    static session::PermissionCheck missingUser()
    {
        return session::decodeDryRun(QStringLiteral("ghost"), session::loadAction(),
                                     redis::RedisError::fromServer("ERR User ghost not found"));
    }

    // The connection test's row for that user.
    static session::ProbeRow missingUserRow()
    {
        session::ProbeReport report;
        report.user = QStringLiteral("shop");
        report.permissions << missingUser();
        return report.rows().constLast();
    }

    // The release user's login, when the server says the connection is someone else.
    static session::ReleaseLogin otherReleaseUser()
    {
        profiles::ConnectionProfile p;
        p.username = QStringLiteral("shop");
        p.releaseUsername = QStringLiteral("release");
        session::ProbeReport report;
        session::applyReleaseProbe(report, p, {redis::Reply::bulk("default")});
        return report.release;
    }

    // Deleting a library of one function, as the Libraries tab's diff preview shows it.
    static functions::ContractDiff removal()
    {
        redis::LibraryInfo lib;
        lib.name = QStringLiteral("inventory_lib_v1");
        lib.code = "#!lua name=inventory_lib_v1\n-- version: 1.3.0\n";
        lib.hasCode = true;
        lib.functions << redis::FunctionInfo{QStringLiteral("inventory_deduct_v1"), {}, {}};
        return functions::diffRemoval(lib);
    }

    static readiness::Finding evictionFinding()
    {
        readiness::AuditInput in;
        in.server.node = QStringLiteral("127.0.0.1:6379");
        in.server.config.value = QHash<QString, QString>{
            {QStringLiteral("maxmemory-policy"), QStringLiteral("allkeys-lru")},
            {QStringLiteral("maxmemory"), QStringLiteral("0")}};
        in.servers = {in.server};
        for (const readiness::Finding &f : readiness::evaluate(in))
            if (f.id == QLatin1String("eviction-policy"))
                return f;
        return {};
    }

private slots:
    void initTestCase() { QVERIFY(testsupport::usePrivateSettings(m_dir)); }

    // Before the Chinese test: a translator cannot be taken back from outside.
    void withoutATranslatorTheyAreEnglish()
    {
        QCOMPARE(insufficient().meaning(DeductionMode::Function),
                 QStringLiteral("Not enough stock: 3 available, fewer than asked. Nothing was "
                                "written (no receipt)."));
        QCOMPARE(inventory::outcomeTitle(OutcomeKind::Unknown), QStringLiteral("Outcome unknown"));

        const reconcile::Finding f = releaseCandidate();
        QCOMPARE(f.cls, reconcile::FindingClass::ReleaseCandidate);
        QCOMPARE(f.sentence,
                 QStringLiteral("Order 9001 is cancelled in the ledger but its receipt deducted 2 "
                                "of SKU 42, never given back. Once the order is confirmed "
                                "cancelled, release the deduction (it restores the units the "
                                "receipt recorded)."));
        QVERIFY(f.englishSentence.isEmpty()); // nothing was translated: no second copy

        const readiness::Finding e = evictionFinding();
        QCOMPARE(e.title, QStringLiteral("Eviction policy"));
        QCOMPARE(e.verdict, readiness::Verdict::Fail);
        QVERIFY2(e.why.startsWith(QLatin1String("allkeys-lru lets Redis delete any key")),
                 qPrintable(e.why));

        QVERIFY2(receipt().verdict().startsWith(
                     QLatin1String("The deduction happened: the receipt exists, recorded "
                                   "remaining 17. It expires in 1 h 0 min, at 2026-12-03 "
                                   "13:00:00 UTC;")),
                 qPrintable(receipt().verdict()));
        QCOMPARE(portProblem(), QStringLiteral("the port must be between 1 and 65535 (got 0)"));
        QCOMPARE(unreadable(), QStringLiteral("could not read 2 keys (first: NOPERM)"));
        QVERIFY2(otherRelease().sentence.startsWith(
                     QLatin1String("not this release: the release key rel:{42}:9001 holds "
                                   "quantity=5")),
                 qPrintable(otherRelease().sentence));
        QCOMPARE(browse::orderNotFoundSentence("9001", {}, false),
                 QStringLiteral("Not proven: the search for order 9001 is incomplete, so a receipt "
                                "it did not read may exist. Do not retry on this answer: search "
                                "again once the problem above is solved."));
        QCOMPARE(browse::formatDuration(3600000, core::Wording::Translated), QStringLiteral("1 h"));
        QCOMPARE(browse::formatDuration(2345000, core::Wording::Translated),
                 QStringLiteral("39 min 5 s"));
        QCOMPARE(functions::stepUserText(functions::ChangeContext()),
                 QStringLiteral("ACL user 'default' (this session's user; the profile names no "
                                "release user)"));
        QCOMPARE(missingUserRow().label, QStringLiteral("'ghost' may load function libraries"));
        QCOMPARE(missingUserRow().value,
                 QStringLiteral("denied: there is no ACL user 'ghost' on this server"));
        QCOMPARE(session::failureHeadline(session::ProbeFailure::Kind::Authentication),
                 QStringLiteral("wrong user name or password"));
        QCOMPARE(removal().functions.value(0).notesText.value(0),
                 QStringLiteral("removed: callers of inventory_deduct_v1 will get an error"));
        QCOMPARE(removal().summary(core::Wording::Translated),
                 QStringLiteral("inventory_lib_v1 1.3.0 → deleted: breaking (1 removed)"));
    }

    void withTheChineseTranslatorTheyAreChinese()
    {
        const ui::UiTranslation t =
            ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY(t.consoleLoaded);

        // (1) A deduction's outcome; the audit log's one-line summary stays English.
        QCOMPARE(insufficient().meaning(DeductionMode::Function),
                 QStringLiteral("库存不足：可用 3，少于请求的数量。未写入任何内容（没有回执）。"));
        QCOMPARE(inventory::outcomeTitle(OutcomeKind::Unknown), QStringLiteral("结果未知"));
        QCOMPARE(insufficient().summary(),
                 QStringLiteral("insufficient: stock 3 (nothing changed)"));

        // (2) A reconcile finding, and the English a release's audit reason quotes.
        const reconcile::Finding f = releaseCandidate();
        QCOMPARE(f.sentence, QStringLiteral("订单 9001 在订单账中已取消，但它的回执扣减了 SKU 42 "
                                            "数量 2，且从未退回。确认该订单已取消后，请释放这次"
                                            "扣减（它会恢复回执所记录的数量）。"));
        QVERIFY2(reconcile::recordSentence(f).startsWith(
                     QLatin1String("Order 9001 is cancelled in the ledger but its receipt "
                                   "deducted 2 of SKU 42")),
                 qPrintable(reconcile::recordSentence(f)));

        // (3) A readiness rule's title and finding.
        const readiness::Finding e = evictionFinding();
        QCOMPARE(e.title, QStringLiteral("驱逐策略"));
        // ... and the name of a value it read, beside the server's own parameter names.
        readiness::AuditInput busy;
        busy.server.config.value = QHash<QString, QString>{
            {QStringLiteral("busy-reply-threshold"), QStringLiteral("5000")}};
        readiness::Finding b;
        readiness::checkBusyThreshold(busy, b);
        QVERIFY(b.evidence.contains(
            qMakePair(QStringLiteral("客户端超时（毫秒）"), QStringLiteral("5000"))));
        QVERIFY2(e.why.startsWith(QStringLiteral("allkeys-lru 允许 Redis 在内存满时删除任何键")),
                 qPrintable(e.why));

        // (4) What a receipt proves, with its numbers and time in place.
        const QString verdict = receipt().verdict();
        QVERIFY2(verdict.startsWith(
                     QStringLiteral("扣减已发生：回执存在，记录的剩余量 17。 它将在 "
                                    "1 小时 0 分钟后，即 UTC 2026-12-03 13:00:00 过期；")),
                 qPrintable(verdict));
        // ... what is wrong with a profile ...
        QCOMPARE(portProblem(), QStringLiteral("端口必须在 1 到 65535 之间（当前为 0）"));
        QCOMPARE(unreadable(), QStringLiteral("有 2 个键无法读取（第一个：NOPERM）"));
        // ... what a lost release's record key proves ...
        QVERIFY2(otherRelease().sentence.startsWith(
                     QStringLiteral("不是本次释放：释放键 rel:{42}:9001 的值是 quantity=5")),
                 qPrintable(otherRelease().sentence));
        // ... and what the order lookup says a retry rests on.
        QCOMPARE(browse::orderNotFoundSentence("9001", {}, false),
                 QStringLiteral("未证实：对订单 9001 的搜索不完整，因此可能存在它没有读到的回执。"
                                "不要根据这个答复重试：请在解决上述问题后再搜索一次。"));
        // ... the connection test's report (its --json detail stays English) ...
        QCOMPARE(missingUserRow().label, QStringLiteral("“ghost”可以加载函数库"));
        QCOMPARE(missingUserRow().value, QStringLiteral("拒绝：此服务器上没有 ACL 用户“ghost”"));
        QCOMPARE(session::failureHeadline(session::ProbeFailure::Kind::Authentication),
                 QStringLiteral("用户名或密码错误"));
        QCOMPARE(session::englishFailureHeadline(session::ProbeFailure::Kind::Authentication),
                 QStringLiteral("wrong user name or password"));
        QCOMPARE(missingUser().detail.english,
                 QStringLiteral("there is no ACL user 'ghost' on this server"));
        QCOMPARE(otherReleaseUser().failure.text,
                 QStringLiteral("服务器说此连接的用户是“default”"));
        QCOMPARE(otherReleaseUser().failure.english,
                 QStringLiteral("the server says the connection is user 'default'"));
        // ... what a key action did (the audit record quotes the English) ...
        const browse::KeyAction remove = browse::KeyAction::remove("idem:{42}:9001");
        QCOMPARE(remove.describeReply(redis::Reply::integer(0)).text,
                 QStringLiteral("未删除任何内容：该键已不存在"));
        QCOMPARE(remove.describeReply(redis::Reply::integer(0)).english,
                 QStringLiteral("nothing deleted: the key no longer exists"));
        // ... the Libraries tab's diff preview (the CLI's and --json's copy stays English) ...
        const functions::ContractDiff d = removal();
        QCOMPARE(d.functions.value(0).notesText.value(0),
                 QStringLiteral("已移除：inventory_deduct_v1 的调用方将收到错误"));
        QCOMPARE(d.functions.value(0).notes.value(0),
                 QStringLiteral("removed: callers of inventory_deduct_v1 will get an error"));
        QCOMPARE(d.summary(core::Wording::Translated),
                 QStringLiteral("inventory_lib_v1 1.3.0 → 已删除：破坏性变更（移除 1 个）"));
        QCOMPARE(d.summary(),
                 QStringLiteral("inventory_lib_v1 1.3.0 → deleted: breaking (1 removed)"));
        // ... and a table's short duration (a record's copy stays English).
        QCOMPARE(browse::formatDuration(2345000, core::Wording::Translated),
                 QStringLiteral("39 分钟 5 秒"));
        QCOMPARE(browse::formatDuration(2345000), QStringLiteral("39 min 5 s"));
        // ... and who a library change's step runs as.
        QCOMPARE(functions::stepUserText(functions::ChangeContext()),
                 QStringLiteral("ACL 用户“default”（本次会话的用户；配置中未指定发布用户）"));

        // A sentence kept in both copies: a plain value fills both alike, a nested sentence
        // its own copy in each; two sentences compare by their English.
        const char *const ctx = "functions::ContractDiff";
        const core::Sentence s =
            core::Sentence::translated(ctx, "%1 %2 → %3: %4")
                .arg(QStringLiteral("inventory_lib_v1"), QStringLiteral("1.0.0"), 2,
                     core::Sentence::translated(ctx, "breaking"));
        QCOMPARE(s.english, QStringLiteral("inventory_lib_v1 1.0.0 → 2: breaking"));
        QCOMPARE(s.text, QStringLiteral("inventory_lib_v1 1.0.0 → 2：破坏性变更"));
        QVERIFY(s == core::Sentence::plain(s.english));
        const core::Sentence both = core::joined(
            {core::Sentence::translated(ctx, "added"), core::Sentence::plain("x")}, ", ");
        QCOMPARE(both.in(core::Wording::Translated), QStringLiteral("新增, x"));
        QCOMPARE(both.in(core::Wording::English), QStringLiteral("added, x"));
    }
};

QTEST_MAIN(TstCoreSentencesZh)
#include "tst_core_sentences_zh.moc"
