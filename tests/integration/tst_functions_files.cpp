// SPDX-License-Identifier: GPL-3.0-or-later
// The files the functions room reads and the dumps it keeps (issue 29): a backup, a library
// or a load journal that is a device, a FIFO, a huge sparse file or a link is refused quickly
// with the file named and why, never read without end (D7, core/RegularFile.h); a FUNCTION
// DUMP that would not restore is refused before it becomes a backup, and nothing is changed
// (D9). Against a real redis-server and the inventory-cli CMake built.
#include "ChangeCliTest.h"
#include "ChangeFixture.h"
#include "core/RegularFile.h"
#include "functions/ChangeLease.h"
#include "functions/DumpPayload.h"
#include "functions/FunctionBackup.h"
#include "functions/LibraryChange.h"
#include "functions/LoadJournal.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace functions;

namespace {

const QString Shipped = QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua");

// Forwards to a real connection and answers FUNCTION DUMP with `dump` instead.
class HostileDump : public redis::CommandSender
{
public:
    HostileDump(redis::RedisClient &real, QByteArray dump)
        : m_real(real)
        , m_dump(std::move(dump))
    {}
    using CommandSender::send;
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback cb,
                   int timeoutMs) override
    {
        const qsizetype at = commands.indexOf(redis::Command{"FUNCTION", "DUMP"});
        m_real.sendBatch(
            std::move(commands), context,
            [cb, at, dump = m_dump](QList<redis::ReplyResult> r) {
                if (at >= 0 && at < r.size())
                    r[at] = redis::Reply::bulk(dump);
                cb(r);
            },
            timeoutMs);
    }
    QString address() const override { return m_real.address(); }

private:
    redis::RedisClient &m_real;
    QByteArray m_dump;
};

} // namespace

class TstFunctionsFiles : public testsupport::ChangeCliTest
{
    Q_OBJECT

    // `rollback --backup path` fails at once with exit 1 and `why`, before connecting.
    void expectRollbackRefused(const QString &path, const QString &why)
    {
        const auto run =
            cli({"rollback", "--backup", path, "--url", url(), "--confirm", "inventory_lib_v1"});
        QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("cannot read %1: %2").arg(path, why).toUtf8()),
                 run.err.constData());
        QCOMPARE(serverCode(), testsupport::previousReleaseSource());
    }
    QString fifo()
    {
        const QString path = m_data.filePath("fifo.json");
        QFile::remove(path);
        return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0 ? path : QString();
    }

private slots:
    void initTestCase() { QCOMPARE(start(), QString()); }
    void init() { QCOMPARE(reset(QStringLiteral("files test")), QString()); }

    void backupThatIsADevice()
    {
        expectRollbackRefused("/dev/zero", "not a regular file (a device)");
    }

    void backupThatIsAFifo()
    {
        const QString path = fifo();
        QVERIFY(!path.isEmpty());
        expectRollbackRefused(path, "not a regular file (a FIFO)");
    }

    void backupThatIsAHugeSparseFile()
    {
        const QString path = m_data.filePath("sparse.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(3LL * 1024 * 1024 * 1024));
        f.close();
        expectRollbackRefused(path, QStringLiteral("it is 3221225472 bytes, above the limit of "
                                                   "%1 bytes")
                                        .arg(FunctionBackup::MaxFileBytes));
        QFile::remove(path);
    }

    void libraryThatIsAFifo()
    {
        const QString path = fifo();
        QVERIFY(!path.isEmpty());
        const auto run = cli({"load", path, "--url", url(), "--confirm", "inventory_lib_v1"});
        QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(
            run.err.contains(
                QStringLiteral("cannot read %1: not a regular file (a FIFO)").arg(path).toUtf8()),
            run.err.constData());
    }

    // A journal entry that links to /dev/zero is skipped (named in the log), never read: the
    // next load runs as usual, and the link is left for a person to look at.
    void journalLinkedToADevice()
    {
        const QString dir = loadJournalDirectory(dataDir() + "/function-backups");
        QVERIFY(QDir().mkpath(dir));
        const QString link = dir + "/127.0.0.1_1-inventory_lib_v1.json";
        QVERIFY(QFile::link("/dev/zero", link));
        const auto run = cli({"load", Shipped, "--url", url(), "--confirm", "inventory_lib_v1"});
        QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(pendingLoadJournals(dataDir() + "/function-backups", m_c->address()).isEmpty());
    }

    // The helper itself: a link is refused when links are, a file over the cap is, and a
    // regular file within it is read whole.
    void regularFileHelper()
    {
        const QString path = m_data.filePath("small.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("12345") == 5);
        f.close();
        QCOMPARE(core::readRegularFile(path, 5).value(), QByteArray("12345"));
        const auto big = core::readRegularFile(path, 4);
        QVERIFY(!big && big.error().kind == core::FileReadError::Kind::TooLarge);
        const QString link = m_data.filePath("link.json");
        QFile::remove(link);
        QVERIFY(QFile::link(path, link));
        QVERIFY(core::readRegularFile(link, 5, core::Links::Follow).ok());
        const auto refused = core::readRegularFile(link, 5, core::Links::Refuse);
        QVERIFY(!refused && refused.error().kind == core::FileReadError::Kind::NotRegular);
    }

    // Two journals of the same node and library (two runs) are two files; one whose writer
    // still runs (this process) is in flight, not interrupted: not reported, not removed.
    void journalsArePerRun()
    {
        const QString backups = dataDir() + "/function-backups";
        LoadJournalEntry a{m_c->address(),
                           "inventory_lib_v1",
                           "load",
                           "1.0.0",
                           "1.2.0",
                           "x.json",
                           QDateTime::currentDateTimeUtc(),
                           {}};
        LoadJournalEntry b = a;
        QVERIFY(writeLoadJournal(backups, a).ok());
        QVERIFY(writeLoadJournal(backups, b).ok());
        QVERIFY(a.path != b.path);
        QVERIFY(QFile::exists(a.path) && QFile::exists(b.path));
        QVERIFY(pendingLoadJournals(backups, m_c->address()).isEmpty());
        clearLoadJournal(a);
        QVERIFY(!QFile::exists(a.path) && QFile::exists(b.path));
    }

    // D9: a FUNCTION DUMP that is junk, or a well-formed one holding other code than FUNCTION
    // LIST shows, is no backup: the change stops there, no file is written, the lock is
    // given back and the server is as it was.
    void junkDumpIsNoBackup_data()
    {
        QTest::addColumn<QByteArray>("dump");
        QTest::addColumn<QString>("why");
        QTest::newRow("junk") << QByteArray("not a dump at all") << "checksum is wrong";
        QTest::newRow("empty") << QByteArray() << "shorter than its trailer";
        // A valid empty dump (trailer and CRC64 only): restores, but holds no library.
        QByteArray empty("\x0a\x00", 2);
        const quint64 crc = redisCrc64(empty);
        for (int i = 0; i < 8; ++i)
            empty.append(char((crc >> (8 * i)) & 0xff));
        QTest::newRow("other libraries")
            << empty << "holds 0 libraries where FUNCTION LIST shows 1";
    }
    void junkDumpIsNoBackup()
    {
        QFETCH(QByteArray, dump);
        QFETCH(QString, why);
        HostileDump hostile(*m_c, dump);
        ChangeContext ctx =
            testsupport::singleNodeContext(*m_c, m_gate.get(), m_dir, "files test", &hostile);
        ctx.backupDirectory = dataDir() + "/function-backups";
        const auto file = inspectFile(Shipped);
        QVERIFY(file.ok());
        LibraryChange change(ctx, LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QVERIFY(change.preflightBlocking().passed());
        const auto backup = change.backupBlocking();
        QVERIFY(!backup.ok());
        QVERIFY2(backup.error().contains(QLatin1String("gave a payload that cannot be restored")),
                 qPrintable(backup.error()));
        QVERIFY2(backup.error().contains(why), qPrintable(backup.error()));
        QVERIFY(backup.error().contains(QLatin1String("nothing was changed")));
        QVERIFY(QDir(ctx.backupDirectory).entryList({"*.json"}, QDir::Files).isEmpty());
        QVERIFY(!change.confirm("inventory_lib_v1", false).isEmpty());
        QVERIFY(!change.executeBlocking().succeeded());
        QCOMPARE(serverCode(), testsupport::previousReleaseSource());
        QCOMPARE(testsupport::render(m_c->call({"EXISTS", ChangeLockKey})), QStringLiteral("0"));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsFiles)
#include "tst_functions_files.moc"
