// SPDX-License-Identifier: GPL-3.0-or-later
// Four error paths that used to reach the Chinese window in English, under the Chinese
// translator: why a library file read whole is not a library (one the inspection helper process
// refused, one that registers nothing, one too large), why a backup file cannot be read for a
// rollback, a repair a real redis-server refused or that was never sent, and the Lab's own
// connection messages. Each gives the window Chinese (.text) and keeps English (.english) for the
// CLI, --json, the log and the audit records, whatever translator is installed. Made of real
// parts: files in a temporary directory, the inspection helper, a redis-server, a closed port.
#include "ClosedPort.h"
#include "ServerTest.h"
#include "functions/FunctionBackup.h"
#include "functions/Inspection.h"
#include "inventory/AdjustOutcome.h"
#include "inventory/ReleaseOutcome.h"
#include "inventory/Repairer.h"
#include "lab/BlockingLane.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

class TstFunctionErrorsZh : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A file of the temporary directory holding `bytes`; empty when it could not be written.
    QString file(const char *name, const QByteArray &bytes) const
    {
        const QString path = m_dir.filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ui::UiTranslation t =
            ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY(t.consoleLoaded);
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
    }

    // A problem found in the helper process crosses its pipe untranslated and is said here in
    // the window's language, with the line; the CLI's refusal stays English.
    void aProblemFromTheHelperIsSaidInChinese()
    {
        const QString path = file("os.lua", "#!lua name=uses_os\nlocal now = os.time()\n");
        QVERIFY(!path.isEmpty());
        const functions::InspectedFile inspected = functions::inspectFile(path);
        QVERIFY(inspected.ok());
        QVERIFY(inspected->problem);
        const functions::InspectionProblem &p = *inspected->problem;
        QCOMPARE(p.kind, functions::InspectionProblem::Kind::NonexistentGlobal);
        QCOMPARE(p.line, 2);
        QCOMPARE(p.message.english,
                 QStringLiteral("Script attempted to access nonexistent global variable 'os'"));
        QCOMPARE(p.message.text, QStringLiteral("脚本试图访问不存在的全局变量“os”"));
        QCOMPARE(p.sentence().text, QStringLiteral("第 2 行：脚本试图访问不存在的全局变量“os”"));
        QCOMPARE(p.refusal(), QStringLiteral("was refused offline: line 2: Script attempted to "
                                             "access nonexistent global variable 'os'"));
    }

    // A library file that registers nothing, and one above the size limit: refused before
    // anything is sent, in Chinese for the window.
    void aFileThatIsNoLibraryIsSaidInChinese()
    {
        const QString empty = file("empty.lua", "#!lua name=empty\nlocal unused = 1\n");
        QVERIFY(!empty.isEmpty());
        const functions::InspectedFile none = functions::inspectFile(empty);
        QVERIFY(none.ok());
        QVERIFY(none->problem);
        QCOMPARE(none->problem->kind, functions::InspectionProblem::Kind::NoFunctions);
        QCOMPARE(none->problem->sentence().english, QStringLiteral("No functions registered"));
        QCOMPARE(none->problem->sentence().text, QStringLiteral("没有注册任何函数"));

        const QString big = file("big.lua", "#!lua name=big\n");
        QVERIFY(!big.isEmpty());
        functions::InspectOptions small;
        small.maxLibrarySize = 4;
        const functions::InspectedFile large = functions::inspectFile(big, small);
        QVERIFY(large.ok());
        QVERIFY(large->problem);
        QCOMPARE(large->problem->kind, functions::InspectionProblem::Kind::TooLarge);
        QCOMPARE(large->problem->message.english,
                 QStringLiteral("the file is 15 bytes, above the limit of 4 bytes"));
        QCOMPARE(large->problem->message.text, QStringLiteral("文件有 15 字节，超过 4 字节的上限"));
    }

    // Backup files a rollback cannot use: not JSON, JSON of another shape, another format.
    void aBackupThatCannotBeReadIsSaidInChinese()
    {
        const QByteArray garbage = "not json";
        const QString notJson = file("garbage.json", garbage);
        QVERIFY(!notJson.isEmpty());
        QJsonParseError parsed;
        QJsonDocument::fromJson(garbage, &parsed);
        QVERIFY(parsed.error != QJsonParseError::NoError);
        const auto fromGarbage = functions::FunctionBackup::read(notJson);
        QVERIFY(!fromGarbage);
        QCOMPARE(fromGarbage.error().english,
                 QStringLiteral("%1: not a backup file: not valid JSON (at byte %2)")
                     .arg(notJson)
                     .arg(parsed.offset));
        QCOMPARE(fromGarbage.error().text, QStringLiteral("%1：不是备份文件：不是有效的 JSON（在第 "
                                                          "%2 字节处）")
                                               .arg(notJson)
                                               .arg(parsed.offset));

        const QString array = file("array.json", "[1, 2]");
        QVERIFY(!array.isEmpty());
        const auto fromArray = functions::FunctionBackup::read(array);
        QVERIFY(!fromArray);
        QCOMPARE(fromArray.error().english,
                 QStringLiteral("%1: not a backup file: the JSON is not an object").arg(array));
        QCOMPARE(fromArray.error().text,
                 QStringLiteral("%1：不是备份文件：JSON 不是一个对象").arg(array));

        const auto other = functions::FunctionBackup::fromJson(R"({"format": "other/1"})");
        QVERIFY(!other);
        QCOMPARE(other.error().english, QStringLiteral("not a backup file (format 'other/1')"));
        QCOMPARE(other.error().text, QStringLiteral("不是备份文件（格式“other/1”）"));
    }

    // An adjustment the server refuses (a stock that is not a number): the server's words stay
    // its own in both copies, the sentence around them is Chinese for the window and English
    // for the CLI.
    void aRepairTheServerRefusedIsSaidInChinese()
    {
        const inventory::RepairPlan plan =
            inventory::planRepair({inventory::RepairKind::Adjust, "42", "fix-1", "-2", "600",
                                   QStringLiteral("cycle count")},
                                  inventory::KeySchema());
        QVERIFY(plan.ok());
        QVERIFY(m_c->call({"SET", plan.stockKey, "many"}).ok());
        const inventory::RepairOutcome o =
            inventory::decodeAdjustReply(m_c->call(plan.command), plan.amount());
        QCOMPARE(o.kind, inventory::RepairOutcomeKind::Rejected);
        QCOMPARE(o.serverError.english, QStringLiteral("ERR invalid stock"));
        QCOMPARE(o.serverError.text, o.serverError.english);
        QCOMPARE(o.sentence(plan).english,
                 QStringLiteral("Not adjusted: the server refused the call before any write "
                                "(ERR invalid stock)."));
        QCOMPARE(o.sentence(plan).text,
                 QStringLiteral("未调整：服务器在任何写入之前拒绝了该调用（ERR invalid stock）。"));
        QCOMPARE(o.summary(), QStringLiteral("rejected: ERR invalid stock"));
        QCOMPARE(m_c->call({"EXISTS", plan.recordKey})->toInteger(), 0);
    }

    // A release that never left the console (its server is not there): why, in the
    // client's own sentence, Chinese in the window and English in the record.
    void aRepairNotSentIsSaidInChinese()
    {
        redis::ConnectionOptions options = m_redis.options();
        options.port = testsupport::closedPort();
        QVERIFY(options.port != 0);
        options.autoReconnect = false;
        redis::RedisClient client(options);
        client.open();
        QTRY_VERIFY_WITH_TIMEOUT(client.state() == redis::ConnectionState::Failed, 10000);
        const inventory::RepairPlan plan = inventory::planRepair(
            {inventory::RepairKind::Release, "42", "9001", "3", "600", {}}, inventory::KeySchema());
        QVERIFY(plan.ok());
        const inventory::RepairOutcome o =
            inventory::decodeReleaseReply(client.call(plan.command, 2000), plan.amount());
        QCOMPARE(o.kind, inventory::RepairOutcomeKind::NotSent);
        QVERIFY2(o.transportError.english.startsWith(QLatin1String("disconnected from ")),
                 qPrintable(o.transportError.english));
        QVERIFY2(o.transportError.text.startsWith(QStringLiteral("与 ")),
                 qPrintable(o.transportError.text));
        QCOMPARE(o.sentence(plan).english,
                 QStringLiteral("Nothing was sent: %1.").arg(o.transportError.english));
        QCOMPARE(o.sentence(plan).text,
                 QStringLiteral("未发送任何内容：%1。").arg(o.transportError.text));
        QCOMPARE(o.summary(), QStringLiteral("not sent: %1").arg(o.transportError.english));
    }

    // The Lab's own lane, refused by the server at AUTH: Chinese for the Lab tab, English in
    // the errors its later commands get, as every RedisError keeps it.
    void aLabLaneRefusedAtAuthIsSaidInChinese()
    {
        redis::ConnectionOptions options = m_redis.options();
        options.username = QStringLiteral("nobody");
        options.password = QStringLiteral("wrong");
        lab::BlockingLane lane;
        core::Sentence why;
        QVERIFY(!lane.open(options, &why));
        QVERIFY2(why.english.startsWith(QLatin1String("AUTH refused: WRONGPASS ")),
                 qPrintable(why.english));
        const QString server = why.english.mid(QStringLiteral("AUTH refused: ").size());
        QCOMPARE(why.text, QStringLiteral("AUTH 被拒绝：%1").arg(server));
        const QList<redis::ReplyResult> later = lane.roundTrip({{"PING"}}, 100);
        QCOMPARE(later.size(), 1);
        QVERIFY(!later.first().ok());
        QCOMPARE(later.first().error().kind, redis::RedisError::Kind::NotSent);
        QCOMPARE(later.first().error().message.english, why.english);
        QCOMPARE(later.first().error().message.text, why.text);
    }
};

QTEST_MAIN(TstFunctionErrorsZh)
#include "tst_function_errors_zh.moc"
