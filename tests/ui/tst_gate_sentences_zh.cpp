// SPDX-License-Identifier: GPL-3.0-or-later
// The core's remaining window sentences in Chinese: a deduction's field problems, the write
// gate (a wrong name, why a session is local or production, why it locked again), the repeat
// warning, the audit viewer's server change, a URL the connection dialog cannot read. The
// copies that are records (the audit log's detail, a refusal quoted in a record, the CLI's
// line) stay English under the Chinese translator, and code that compares keeps working.
#include "PrivateSettings.h"
#include "RedisFixture.h"
#include "gate/WriteGate.h"
#include "inventory/AuditServerChange.h"
#include "inventory/DeductionRequest.h"
#include "inventory/KeySchema.h"
#include "inventory/PriorDeductions.h"
#include "inventory/RepairRequest.h"
#include "overview/ServerOverview.h"
#include "profiles/RedisUrl.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using inventory::DeductionMode;
using inventory::DeductionPlan;
using inventory::DeductionRequest;
using inventory::KeySchema;

class TstGateSentencesZh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    testsupport::StandaloneRedis m_redis;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }

    static DeductionPlan badQuantity(const QByteArray &quantity)
    {
        DeductionRequest r;
        r.mode = DeductionMode::Function;
        r.sku = "42";
        r.orderId = "9001";
        r.quantity = quantity;
        r.ttlSeconds = "3600";
        return inventory::planDeduction(r, KeySchema());
    }

    profiles::ConnectionProfile profile(const QString &environment) const
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("prod-eu");
        p.port = m_redis.port();
        p.environment = environment;
        return p;
    }

    // The details of the audit log's gate records, in order.
    QStringList recordedDetails() const
    {
        QFile f(auditPath());
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QStringList out;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.isEmpty())
                out << QJsonDocument::fromJson(line).object().value("detail").toString();
        return out;
    }

    static QList<inventory::PriorDeduction> earlierWithQuantity(const QByteArray &quantity)
    {
        inventory::PriorDeduction p;
        p.timeUtc = QDateTime(QDate(2026, 12, 1), QTime(10, 0), Qt::UTC);
        p.mode = DeductionMode::Function;
        p.quantity = quantity;
        p.source = inventory::PriorDeduction::Source::AuditLog;
        p.result = QStringLiteral("deducted: remaining 7");
        p.mayHaveDeducted = true;
        return {p};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        const ui::UiTranslation t =
            ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY(t.consoleLoaded);
    }

    void deductionFieldProblems()
    {
        // The Deduct tab shows the text; the CLI and a refused request's record the English.
        const DeductionPlan zero = badQuantity("01");
        QCOMPARE(zero.problemFor(QStringLiteral("quantity")),
                 QStringLiteral("不能以 0 开头：应为 1 到 1,000,000 之间的整数"));
        QCOMPARE(zero.problems.first().message.english,
                 QStringLiteral("no leading zero: a whole number from 1 to 1,000,000"));
        QCOMPARE(badQuantity("-1").problemFor(QStringLiteral("quantity")),
                 QStringLiteral("只能输入数字（不带正负号、空格、分隔符或小数）：应为 1 到 "
                                "1,000,000 之间的整数"));
        QCOMPARE(badQuantity("abc").problems.first().message.english,
                 QStringLiteral("digits only (no sign, spaces, separators or decimals): a whole "
                                "number from 1 to 1,000,000"));
        QCOMPARE(badQuantity("2000000").problemFor(QStringLiteral("quantity")),
                 QStringLiteral("超出范围：应为 1 到 1,000,000 之间的整数"));
        QVERIFY(!badQuantity("5").problemFor(QStringLiteral("quantity")));

        DeductionRequest empty;
        empty.mode = DeductionMode::Function;
        empty.quantity = "1";
        empty.ttlSeconds = "60";
        const DeductionPlan p = inventory::planDeduction(empty, KeySchema());
        QCOMPARE(p.problemFor(QStringLiteral("sku")), QStringLiteral("请输入SKU"));
        QCOMPARE(p.problemFor(QStringLiteral("order")), QStringLiteral("请输入订单号"));
        QCOMPARE(p.problems.first().message.english, QStringLiteral("enter the SKU"));

        // A SKU that would move its keys' hash tag: the field is found by name, not by words.
        DeductionRequest brace = empty;
        brace.sku = "a}b";
        brace.orderId = "1";
        const DeductionPlan b = inventory::planDeduction(brace, KeySchema());
        QVERIFY2(b.problemFor(QStringLiteral("sku"))->startsWith(QStringLiteral("SKU 含有“}”")),
                 qPrintable(*b.problemFor(QStringLiteral("sku"))));
        QVERIFY(b.problems.first().message.english.startsWith(
            QLatin1String("the SKU contains '}': a SKU is the hash tag")));

        // A correction without a reason, as the repair dialog shows it.
        inventory::RepairRequest adjust;
        adjust.kind = inventory::RepairKind::Adjust;
        adjust.sku = "42";
        adjust.id = "fix-1";
        adjust.amount = "-3";
        adjust.ttlSeconds = "60";
        const inventory::RepairPlan r = inventory::planRepair(adjust, KeySchema());
        QCOMPARE(r.problems.size(), 1);
        QCOMPARE(r.problems.first().field, QStringLiteral("reason"));
        QCOMPARE(r.problems.first().message.text,
                 QStringLiteral("请说明为什么要更正库存（原因会记录在审计日志中）"));
        QCOMPARE(r.problems.first().message.english,
                 QStringLiteral("say why the stock is corrected (it is recorded in the audit "
                                "log)"));
    }

    void aWrongNameAndALockAgainInChineseOnRecordInEnglish()
    {
        auto client = m_redis.connect();
        gate::WriteGate gate(*client, profile(QStringLiteral("production")));
        gate.setAuditLogPath(auditPath());
        QVERIFY(gate.waitForServer(5000));
        QVERIFY(gate.isReadOnly());
        QCOMPARE(gate.environmentReason(), QStringLiteral("production：配置“prod-eu”的标签"));
        QCOMPARE(gate.environmentReason(core::Wording::English),
                 QStringLiteral("production: the label of profile 'prod-eu'"));

        QVERIFY(!gate.unlock(QStringLiteral("PROD-EU")));
        QCOMPARE(gate.unlockError(), QStringLiteral("这不是此配置的名称"));
        QVERIFY(gate.unlock(QStringLiteral("prod-eu")));

        gate.observeServer(gate.evidence().runId, QStringLiteral("slave")); // a failover
        QVERIFY(gate.isReadOnly());
        QCOMPARE(gate.lockReason(),
                 QStringLiteral("已再次锁定：服务器的角色从 master 变为 slave（发生了故障转移）"));
        const QString english = gate.lockReason(core::Wording::English);
        QCOMPARE(english, QStringLiteral("locked again: the server's role changed from master "
                                         "to slave (a failover)"));
        // The records: the unlock's detail and the lock's reason, both English.
        QCOMPARE(recordedDetails(),
                 QStringList({QStringLiteral("production; production: the label of profile "
                                             "'prod-eu'"),
                              english}));
    }

    void whyASessionIsLocal()
    {
        auto client = m_redis.connect();
        gate::WriteGate gate(*client, profile(QStringLiteral("local")));
        QVERIFY(gate.waitForServer(5000));
        const core::Sentence &why = gate.evidence().reason;
        QVERIFY2(gate.evidence().proven(), qPrintable(why.english));
        QVERIFY2(why.text.startsWith(QStringLiteral("本地：")), qPrintable(why.text));
        QVERIFY2(why.english.startsWith(QLatin1String("local: ")), qPrintable(why.english));
        QVERIFY2(why.text.contains(QStringLiteral("拥有端口 %1").arg(m_redis.port())),
                 qPrintable(why.text));

        const gate::LocalEvidence notLocal =
            gate::LocalEvidence::notProven(core::Sentence::plain(QStringLiteral("example.com")));
        QCOMPARE(notLocal.reason.text, QStringLiteral("未证实为本地：example.com；按生产环境对待"));
        QCOMPARE(notLocal.reason.english,
                 QStringLiteral("not proven local: example.com; treated as production"));
        // Two reasons compare by their English, whatever the translator.
        QVERIFY(notLocal.reason
                == core::Sentence::plain(
                    QStringLiteral("not proven local: example.com; treated as production")));
    }

    void theWindowsOtherSentences()
    {
        // The confirmation dialog's warning about another quantity for the same order.
        DeductionPlan plan = badQuantity("5");
        const QString warning = inventory::repeatWarning(plan, earlierWithQuantity("3"));
        QVERIFY2(
            warning.startsWith(QStringLiteral("数量与之前不同：SKU 42 的订单 9001 之前已用数量 "
                                              "3 尝试过")),
            qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("（审计日志）：deducted: remaining 7")),
                 qPrintable(warning));

        // The audit viewer's mark on a server that restarted after the write.
        const inventory::ServersNow now{{QStringLiteral("127.0.0.1:6379"),
                                         {QStringLiteral("bbbbbbbbbbbb"),
                                          QDateTime(QDate(2026, 12, 2), QTime(8, 0), Qt::UTC)}}};
        QCOMPARE(inventory::serverChangeSince(
                     QStringLiteral("127.0.0.1:6379"), QStringLiteral("aaaaaaaaaaaa"),
                     QDateTime(QDate(2026, 12, 1), QTime(8, 0), Qt::UTC).toMSecsSinceEpoch(), now),
                 QStringLiteral("位于 127.0.0.1:6379 的服务器在这次写入之后重启或发生了故障转移："
                                "它现在以 run_id bbbbbbbb 应答，启动于 UTC 2026-12-02 08:00:00。"
                                "除非有持久化保留了它们，之前写入的回执已经丢失。"));

        // A URL the connection dialog cannot read.
        const auto url = profiles::parseRedisUrl(QStringLiteral("redis://host:99999"));
        QVERIFY(!url.ok());
        QCOMPARE(url.error().message, QStringLiteral("端口无效：端口必须是 1 到 65535 之间的数字"));

        // The overview's banner after a restart without AOF.
        overview::ServerOverview before, after;
        before.address = after.address = QStringLiteral("127.0.0.1:6379");
        before.runId = QStringLiteral("aaaaaaaaaaaa");
        after.runId = QStringLiteral("bbbbbbbbbbbb");
        after.aofEnabled = false;
        const QString banner = overview::identityChangeSentence(
            before, after, QDateTime(QDate(2026, 12, 2), QTime(8, 0, 30)));
        QVERIFY2(banner.startsWith(QStringLiteral("此地址后面的服务器已重启或被替换：它的 run_id "
                                                  "从 aaaaaaaa 变为 bbbbbbbb")),
                 qPrintable(banner));
        QVERIFY2(banner.endsWith(QStringLiteral("AOF 已关闭：除非它的最后一次快照保存了之前写入的"
                                                "回执，否则这些回执已经丢失，重试这些订单会再次"
                                                "扣减。")),
                 qPrintable(banner));
    }
};

QTEST_MAIN(TstGateSentencesZh)
#include "tst_gate_sentences_zh.moc"
