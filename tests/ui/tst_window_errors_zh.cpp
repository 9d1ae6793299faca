// SPDX-License-Identifier: GPL-3.0-or-later
// The window's last English error paths, under the Chinese translator: the refusal of bad
// start-up arguments, the embedded demo's start-up failure, the readiness report's file
// errors, the load journal's "interrupted" notice, a Keys filter's glob problem, what the
// audit log says of an order without a receipt, and the code diff's newline note. Each keeps its
// English copy for stderr, the CLI and the logs, unchanged by the translator; each is made of real
// parts (a parser fed real arguments, a server executable that is not one, a directory where a file
// goes, a journal entry and a library's real code).
#include "PrivateSettings.h"
#include "browse/Glob.h"
#include "browse/OrderAuditNote.h"
#include "demo/LocalRedisServer.h"
#include "functions/CodeDiff.h"
#include "functions/LibraryChange.h"
#include "functions/LoadJournal.h"
#include "functions/LocalCatalog.h"
#include "profiles/ConsoleCommandLine.h"
#include "readiness/ReadinessReport.h"
#include "redis/LibraryList.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

class TstWindowErrorsZh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static profiles::ConsoleCommandLine::Action parse(profiles::ConsoleCommandLine &line,
                                                      const QStringList &args)
    {
        return line.parse(QStringList{QStringLiteral("inventory-console")} + args);
    }

    static functions::LoadJournalEntry interruptedLoad()
    {
        functions::LoadJournalEntry e;
        e.address = QStringLiteral("127.0.0.1:7001");
        e.library = QStringLiteral("inventory_lib_v1");
        e.action = QStringLiteral("load");
        e.toVersion = QStringLiteral("1.3.0");
        e.backupPath = QStringLiteral("/backups/b.json");
        e.started = QDateTime(QDate(2026, 12, 4), QTime(9, 30), Qt::UTC);
        return e;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
    }

    void refusedArgumentsAreSaidInChinese()
    {
        profiles::ConsoleCommandLine line;
        QCOMPARE(parse(line, {QStringLiteral("--demo"), QStringLiteral("--tab"),
                              QStringLiteral("nowhere")}),
                 profiles::ConsoleCommandLine::Action::Refuse);
        QVERIFY2(line.error().text.startsWith(QStringLiteral("--tab 必须是以下之一：overview")),
                 qPrintable(line.error().text));
        QVERIFY2(line.error().english.startsWith(QLatin1String("--tab must be one of overview")),
                 qPrintable(line.error().english));

        QCOMPARE(parse(line, {QStringLiteral("--demo"), QStringLiteral("--connect")}),
                 profiles::ConsoleCommandLine::Action::Refuse);
        QCOMPARE(line.error().text,
                 QStringLiteral("请在 --demo、--connect 或服务器 URL 中选择一个。"));
        QCOMPARE(line.error().english,
                 QStringLiteral("Choose one of --demo, --connect or a server URL."));
    }

    // A saved production profile is not lowered by --env local: the refusal names the profile.
    void aLoweredLabelIsRefusedInChinese()
    {
        profiles::ConnectionProfile saved;
        saved.name = QStringLiteral("orders-prod");
        saved.host = QStringLiteral("127.0.0.1");
        saved.port = 7002;
        saved.environment = QStringLiteral("production");
        profiles::ConsoleCommandLine line;
        line.setSavedProfiles({saved});
        QCOMPARE(parse(line, {QStringLiteral("--env"), QStringLiteral("local"),
                              QStringLiteral("redis://127.0.0.1:7002")}),
                 profiles::ConsoleCommandLine::Action::Refuse);
        QVERIFY2(line.error().text.contains(QStringLiteral("配置“orders-prod”将 127.0.0.1:7002 "
                                                           "标为 production")),
                 qPrintable(line.error().text));
        QVERIFY2(line.error().english.contains(QLatin1String("profile 'orders-prod' labels "
                                                             "127.0.0.1:7002 production")),
                 qPrintable(line.error().english));
    }

    void aServerThatIsNotAnExecutableIsSaidInChinese()
    {
        const QString notExecutable = m_dir.filePath(QStringLiteral("redis-server.txt"));
        QFile f(notExecutable);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        qputenv("INVENTORY_REDIS_SERVER", QFile::encodeName(notExecutable));
        demo::LocalRedisServer server;
        const bool started = server.start({});
        qunsetenv("INVENTORY_REDIS_SERVER");
        QVERIFY(!started);
        QCOMPARE(server.error().text,
                 QStringLiteral("INVENTORY_REDIS_SERVER=%1 不是可执行文件（scripts/servers "
                                "会列出已构建的服务器）")
                     .arg(notExecutable));
        QCOMPARE(server.error().english,
                 QStringLiteral("INVENTORY_REDIS_SERVER=%1 is not an executable file "
                                "(scripts/servers prints the built ones)")
                     .arg(notExecutable));
    }

    // A directory where the report goes: refused, in both copies, and nothing written.
    void aReportOverADirectoryIsRefusedInChinese()
    {
        const QString dir = m_dir.filePath(QStringLiteral("report.md"));
        QVERIFY(QDir().mkpath(dir));
        const readiness::ReadinessReport report({}, {});
        const core::Sentence problem = report.writeMarkdown(dir);
        QCOMPARE(problem.text, QStringLiteral("无法写入 %1：它不是普通文件（是设备、FIFO、套接字或"
                                              "目录）；请给出文件名")
                                   .arg(dir));
        QVERIFY2(problem.english.startsWith(
                     QStringLiteral("could not write %1: it is not a regular file").arg(dir)),
                 qPrintable(problem.english));
        QVERIFY(QFileInfo(dir).isDir());
    }

    void anInterruptedLoadIsSaidInChinese()
    {
        redis::LibraryInfo now;
        now.name = QStringLiteral("inventory_lib_v1");
        now.code = "#!lua name=inventory_lib_v1\n-- version: 1.0.0\n";
        now.hasCode = true;
        const core::Sentence said = interruptedLoad().notice(&now);
        QCOMPARE(said.text, QStringLiteral("inventory_lib_v1 1.3.0 的加载在 UTC 2026-12-04 "
                                           "09:30:00 被中断（备份 /backups/b.json）；"
                                           "127.0.0.1:7001 现在持有 1.0.0"));
        QCOMPARE(said.english, QStringLiteral("a load of inventory_lib_v1 1.3.0 was interrupted "
                                              "at 2026-12-04 09:30:00 UTC (backup "
                                              "/backups/b.json); 127.0.0.1:7001 now has 1.0.0"));
        // What the node holds could not be read: said as unknown, never as a version.
        const core::Sentence unread = interruptedLoad().notice(nullptr, QStringLiteral("NOPERM"));
        QVERIFY2(unread.text.endsWith(QStringLiteral("127.0.0.1:7001 现在持有什么未知（无法读取 "
                                                     "FUNCTION LIST：NOPERM）")),
                 qPrintable(unread.text));
        QVERIFY(unread.english.endsWith(QLatin1String("what 127.0.0.1:7001 holds now is unknown "
                                                      "(could not read FUNCTION LIST: NOPERM)")));
    }

    void aGlobProblemIsSaidInChinese()
    {
        const auto problem = browse::globProblem("stock:{[ab");
        QVERIFY(problem);
        QCOMPARE(*problem,
                 QStringLiteral("位置 8 的 '[' 没有以 ']' 闭合（方括号本身请写作 '\\['）"));
        QVERIFY(!browse::globProblem("stock:{[ab]}*"));
    }

    // The audit log's last word on an order with no receipt: an unknown outcome stays unknown
    // in Chinese ("may have run"), never "failed" or "did not happen".
    void anUnknownLastAttemptIsSaidInChinese()
    {
        inventory::AuditRecord r;
        r.action = QStringLiteral("deduct");
        r.timeUtc = QDateTime(QDate(2026, 12, 4), QTime(9, 0), Qt::UTC);
        r.command = {"FCALL", "deduct", "2", "stock:{42}:available", "idem:{42}:9001", "1"};
        r.result = QStringLiteral("outcome unknown (timeout)");
        r.outcomeUnknown = true;
        const QString note = browse::orderAuditNote({r}, "9001", {});
        QCOMPARE(note,
                 QStringLiteral("本控制台在 2026-12-04T09:00:00Z 对这个订单的最后一次尝试结果未知："
                                "它可能已执行。"));
        QCOMPARE(
            browse::orderAuditNote({}, "9001", {}),
            QStringLiteral("本控制台的审计日志中没有这个订单的扣减（其他客户端可能执行过它）。"));
    }

    void aNewlineOnlyDiffIsSaidInChinese()
    {
        const functions::CodeDiff d = functions::diffCode(
            "return 1\n", "return 1", core::Sentence::plain("a"), core::Sentence::plain("b"));
        QCOMPARE(d.note.text, QStringLiteral("只有末尾的换行符不同"));
        QCOMPARE(d.note.english, QStringLiteral("only the final newline differs"));
    }

    // The shipped library's label is the window's words there, and English in what the
    // audit record and JSON quote.
    void theShippedLibraryIsLabelledInChinese()
    {
        functions::LocalCatalog catalog;
        catalog.scan();
        QVERIFY(!catalog.files().isEmpty());
        const QString path = catalog.files().first().path;
        QCOMPARE(functions::displayPath(path, core::Wording::Translated),
                 QStringLiteral("随附的 functions/inventory_lib_v1.lua"));
        QCOMPARE(functions::displayPath(path),
                 QStringLiteral("shipped functions/inventory_lib_v1.lua"));
        const functions::ChangeSpec load =
            functions::LibraryChange::loadSpec(catalog.files().first().inspection);
        QCOMPARE(load.fileLabel(core::Wording::Translated),
                 QStringLiteral("随附的 functions/inventory_lib_v1.lua"));
        QCOMPARE(load.incoming.fileName, QStringLiteral("shipped functions/inventory_lib_v1.lua"));
    }
};

QTEST_MAIN(TstWindowErrorsZh)
#include "tst_window_errors_zh.moc"
