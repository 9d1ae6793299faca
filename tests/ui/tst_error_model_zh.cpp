// SPDX-License-Identifier: GPL-3.0-or-later
// The errors that reach the window through one core::Sentence each, under the Chinese
// translator: a file refused (a FIFO, too large, missing), a probe, a known_hosts file and a
// Sentinel lookup, a ledger (its settings, a FIFO, a real SQLite file with a NULL), the private
// files the console writes, the audit log and the write gate's unlock, and the demo's seeding
// and ledger. Each keeps its English copy (.english) for the CLI, the log and records, whatever
// translator is installed. Made of real parts: files in a temporary directory, a FIFO from
// mkfifo(), an SQLite database, a redis-server, a port nothing listens on.
#include "ClosedPort.h"
#include "FileMode.h"
#include "PrivateSettings.h"
#include "ServerTest.h"
#include "core/DataPaths.h"
#include "core/RegularFile.h"
#include "demo/DemoLedger.h"
#include "demo/DemoSeeder.h"
#include "functions/Inspection.h"
#include "gate/WriteGate.h"
#include "inventory/AuditLog.h"
#include "ledger/LedgerReader.h"
#include "ledger/LedgerSpec.h"
#include "sentinel/SentinelResolver.h"
#include "session/ProbeReport.h"
#include "ssh/SshFiles.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

class TstErrorModelZh : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

    QString fifo(const char *name) const
    {
        const QString p = path(name);
        return ::mkfifo(QFile::encodeName(p).constData(), 0600) == 0 ? p : QString();
    }

    static bool write(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        QVERIFY(ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese).consoleLoaded);
        QCOMPARE(startServer(), QString());
    }

    void fileReadsAreRefusedInChinese()
    {
        const QString pipe = fifo("pipe");
        QVERIFY(!pipe.isEmpty());
        const auto fromFifo = core::readRegularFile(pipe, 1024);
        QVERIFY(!fromFifo);
        QCOMPARE(fromFifo.error().kind, core::FileReadError::Kind::NotRegular);
        QCOMPARE(fromFifo.error().message.text,
                 QStringLiteral("无法读取 %1：不是普通文件（是一个 FIFO）").arg(pipe));
        QCOMPARE(fromFifo.error().message.english,
                 QStringLiteral("cannot read %1: not a regular file (a FIFO)").arg(pipe));
        // A FIFO chosen as a library on the Libraries tab: the same refusal, in Chinese.
        const auto library = functions::inspectFile(pipe);
        QVERIFY(!library);
        QCOMPARE(library.error().text,
                 QStringLiteral("无法读取 %1：不是普通文件（是一个 FIFO）").arg(pipe));
        QCOMPARE(library.error().english,
                 QStringLiteral("cannot read %1: not a regular file (a FIFO)").arg(pipe));

        const QString big = path("big.lua");
        QVERIFY(write(big, "12345"));
        const auto tooLarge = core::readRegularFile(big, 4);
        QVERIFY(!tooLarge);
        QCOMPARE(tooLarge.error().size, qint64(5));
        QCOMPARE(tooLarge.error().message.text,
                 QStringLiteral("无法读取 %1：文件有 5 字节，超过 4 字节的上限").arg(big));
        QCOMPARE(
            tooLarge.error().message.english,
            QStringLiteral("cannot read %1: it is 5 bytes, above the limit of 4 bytes").arg(big));

        // The system's reason is not ours: the same in both copies, after our own words.
        const QString missing = path("missing.json");
        const auto absent = core::readRegularFile(missing, 1024);
        QVERIFY(!absent);
        const QString why = QString::fromLocal8Bit(std::strerror(ENOENT));
        QCOMPARE(absent.error().message.text, QStringLiteral("无法读取 %1：%2").arg(missing, why));
        QCOMPARE(absent.error().message.english,
                 QStringLiteral("cannot read %1: %2").arg(missing, why));
    }

    void aProbeAndAKnownHostsFileFailInChinese()
    {
        const auto decoded = session::decodeProbe(profiles::ConnectionProfile(), {});
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().kind, session::ProbeFailure::Kind::Other);
        QCOMPARE(decoded.error().message.text, QStringLiteral("探测：应答数量不对"));
        QCOMPARE(decoded.error().message.english, QStringLiteral("probe: wrong number of replies"));

        // known_hosts is read only as a regular file: a link in its place is refused, and the
        // tunnel's SshError carries this sentence as it is.
        const QString target = path("elsewhere");
        QVERIFY(write(target, "a ssh-ed25519 AAAA0\n"));
        const QString link = path("known_hosts");
        QVERIFY(QFile::link(target, link));
        const auto appended = ssh::appendKnownHost(link, "b ssh-ed25519 AAAA1");
        QVERIFY(!appended);
        QCOMPARE(appended.error().text,
                 QStringLiteral("无法读取 %1：它是符号链接，而此文件只按普通文件读取").arg(link));
        QVERIFY2(appended.error().english.startsWith(
                     QStringLiteral("cannot read %1: it is a symbolic link").arg(link)),
                 qPrintable(appended.error().english));
    }

    void anUnreachableSentinelIsSaidInChinese()
    {
        const quint16 port = testsupport::closedPort();
        QVERIFY(port != 0);
        sentinel::ResolverConfig config;
        config.sentinels << sentinel::NodeAddress{QStringLiteral("127.0.0.1"), port};
        config.masterName = QStringLiteral("orders");
        sentinel::SentinelResolver resolver(config);
        QSignalSpy failed(&resolver, &sentinel::SentinelResolver::failed);
        resolver.resolve();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        const auto e = failed.first().first().value<sentinel::ResolveError>();
        QCOMPARE(e.failure, sentinel::ResolveFailure::NoSentinelReachable);
        QVERIFY2(e.message.text.startsWith(
                     QStringLiteral("无法连接任何哨兵。哨兵：127.0.0.1:%1").arg(port)),
                 qPrintable(e.message.text));
        QVERIFY2(
            e.message.english.startsWith(
                QStringLiteral("no sentinel could be reached. Sentinels: 127.0.0.1:%1").arg(port)),
            qPrintable(e.message.english));
    }

    void ledgerSettingsAndReadsFailInChinese()
    {
        const auto spec = ledger::LedgerSpec::parse(QStringLiteral("orders.txt"));
        QVERIFY(!spec);
        QVERIFY2(spec.error().text.startsWith(QStringLiteral("orders.txt：订单账文件以 .csv")),
                 qPrintable(spec.error().text));
        QVERIFY(spec.error().english.startsWith(
            QStringLiteral("orders.txt: a ledger file ends in .csv")));

        const auto columns = ledger::Columns::parse(QStringLiteral("colour=red"));
        QVERIFY(!columns);
        QVERIFY2(columns.error().text.startsWith(QStringLiteral("列映射“colour=red”")),
                 qPrintable(columns.error().text));

        const QString csvPipe = fifo("orders.csv");
        QVERIFY(!csvPipe.isEmpty());
        const auto openedPipe = ledger::openLedger(ledger::LedgerSpec::parse(csvPipe).value());
        QVERIFY(!openedPipe);
        QCOMPARE(openedPipe.error().text,
                 QStringLiteral("无法读取 %1：不是普通文件（是一个 FIFO）").arg(csvPipe));
    }

    void aNullInASqliteLedgerIsSaidInChinese()
    {
        const QString db = path("orders.db");
        {
            QSqlDatabase d =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("writer"));
            d.setDatabaseName(db);
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE orders (order_id TEXT, sku TEXT, "
                                          "quantity INTEGER, state TEXT)")));
            QVERIFY(q.exec(
                QStringLiteral("INSERT INTO orders VALUES (NULL, 'sku-1', 2, 'committed')")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("writer"));
        const auto spec = ledger::LedgerSpec::parse(QStringLiteral("sqlite://") + db);
        QVERIFY(spec);
        auto source = ledger::openLedger(spec.value());
        QVERIFY2(source, qPrintable(source ? QString() : source.error().english));
        const ledger::ReadOutcome out =
            ledger::readLedger(*source.value(), [](const ledger::LedgerRow &) { return true; });
        QCOMPARE(out.end, ledger::ReadOutcome::End::Failed);
        QCOMPARE(
            out.error.text,
            QStringLiteral("无法读取订单账 sqlite://%1：第 1 行：“order_id”为 NULL（已读 0 行）")
                .arg(db));
        QCOMPARE(out.error.english,
                 QStringLiteral("could not read the ledger sqlite://%1: row 1: \"order_id\" is "
                                "NULL after 0 rows")
                     .arg(db));
    }

    void privateFilesFailInChinese()
    {
        const QString pipe = fifo("settings.conf");
        QVERIFY(!pipe.isEmpty());
        const auto refused = core::makeFilePrivate(pipe);
        QVERIFY(!refused);
        QCOMPARE(refused.error().text,
                 QStringLiteral("无法将 %1 设为私有：它不是普通文件").arg(pipe));
        QCOMPARE(refused.error().english,
                 QStringLiteral("cannot make %1 private: not a regular file").arg(pipe));

        const QString blocker = path("blocker");
        QVERIFY(write(blocker, "x"));
        const auto written = core::writePrivateFile(blocker + QStringLiteral("/backup.json"), "{}");
        QVERIFY(!written);
        QCOMPARE(written.error().text, QStringLiteral("无法创建 %1：它不是目录").arg(blocker));
        QCOMPARE(written.error().english,
                 QStringLiteral("cannot create %1: not a directory").arg(blocker));
    }

    void theAuditLogsFailureIsChineseItsRecordEnglish()
    {
        const QString pipe = fifo("audit.jsonl");
        QVERIFY(!pipe.isEmpty());
        const inventory::AuditLog onFifo(pipe);
        const auto attempt = onFifo.appendAttempt({});
        QVERIFY(!attempt);
        QVERIFY2(attempt.error().text.startsWith(
                     QStringLiteral("无法写入位于 %1 的审计日志：它不是普通文件。未发送任何内容")
                         .arg(pipe)),
                 qPrintable(attempt.error().text));
        QVERIFY2(attempt.error().english.startsWith(
                     QStringLiteral("the audit log at %1 could not be written: it is not a "
                                    "regular file. Nothing was sent")
                         .arg(pipe)),
                 qPrintable(attempt.error().english));

        const QString target = path("real-audit.jsonl");
        const QString link = path("linked-audit.jsonl");
        QVERIFY(QFile::link(target, link));
        const auto viaLink = inventory::AuditLog(link).append({});
        QVERIFY(!viaLink);
        QCOMPARE(viaLink.error().text,
                 QStringLiteral("无法写入位于 %1 的审计日志：它是符号链接；审计日志只写入普通文件")
                     .arg(link));
        QVERIFY(!QFile::exists(target));

        // What is written stays English under the Chinese translator.
        const QString real = path("audit-ok.jsonl");
        QVERIFY(inventory::AuditLog(real).appendAttempt({}));
        QFile f(real);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString line = QString::fromUtf8(f.readAll());
        QVERIFY2(line.contains(QStringLiteral("attempt: about to send")), qPrintable(line));
        QCOMPARE(testsupport::fileMode(real), 0600);
    }

    void anUnrecordedUnlockIsRefusedInChinese()
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("prod-eu");
        p.host = QStringLiteral("127.0.0.1");
        p.port = m_redis.port();
        p.environment = QStringLiteral("production");
        gate::WriteGate gate(*m_c, p);
        const QString blocker = path("gate-blocker");
        QVERIFY(write(blocker, "x"));
        gate.setAuditLogPath(blocker + QStringLiteral("/audit.jsonl"));
        QVERIFY(!gate.unlock(QStringLiteral("prod-eu")));
        QCOMPARE(gate.unlockError(),
                 QStringLiteral("无法在审计日志中记录这次解锁（无法写入位于 %1/audit.jsonl "
                                "的审计日志：无法创建 %1：它不是目录）：写入保持锁定")
                     .arg(blocker));
        QVERIFY(gate.isReadOnly());
    }

    void theDemoFailsInChinese()
    {
        QVERIFY(m_c->call({"SET", "someone:else", "1"}).ok());
        const auto seeded = demo::seedDemoBlocking(*m_c);
        QVERIFY(!seeded);
        QCOMPARE(seeded.error().text, QStringLiteral("拒绝写入演示数据：数据库中已有 1 个键"));
        QCOMPARE(seeded.error().english,
                 QStringLiteral("refusing to seed: the database already holds 1 keys"));

        const QString existing = path("demo-ledger.db");
        QVERIFY(write(existing, ""));
        const auto planted = demo::plantDemoLedger(*m_c, {}, existing);
        QVERIFY(!planted);
        QCOMPARE(planted.error().text,
                 QStringLiteral("%1 已存在：演示订单账从不覆盖已有文件").arg(existing));
        QCOMPARE(planted.error().english,
                 QStringLiteral("%1 exists already: the demo ledger is never written over")
                     .arg(existing));
    }
};

QTEST_MAIN(TstErrorModelZh)
#include "tst_error_model_zh.moc"
