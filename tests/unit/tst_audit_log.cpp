#include "inventory/AuditLog.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;

class TstAuditLog : public QObject
{
    Q_OBJECT

private slots:
    void appendAndReadBack()
    {
        QTemporaryDir dir;
        AuditLog log(dir.filePath("sub/audit.jsonl"));
        AuditRecord r;
        r.action = "deduct";
        r.profile = "demo";
        r.server = "127.0.0.1:6379";
        r.command = {"FCALL",
                     "inventory_deduct_v1",
                     "2",
                     "stock:{1}:available",
                     QByteArray("\xff\x00", 2),
                     "3",
                     "60"};
        r.result = "deducted, 7 left";
        r.durationMs = 3;
        QVERIFY(log.append(r).ok());
        r.outcomeUnknown = true;
        r.result = "outcome unknown";
        QVERIFY(log.append(r).ok());
        const auto back = AuditLog::read(log.path());
        QVERIFY(back.problems.isEmpty());
        QCOMPARE(back.records.size(), 2);
        QCOMPARE(back.records[0].command, r.command); // bytes exactly, binary included
        QVERIFY(!back.records[0].osUser.isEmpty());
        QVERIFY(back.records[0].timeUtc.isValid());
        QVERIFY(back.records[1].outcomeUnknown);
        QCOMPARE(QFile(log.path()).permissions() & QFile::ReadOther, QFile::Permissions());
    }

    void truncatedLastLineIsReportedAndSkipped()
    {
        QTemporaryDir dir;
        AuditLog log(dir.filePath("audit.jsonl"));
        AuditRecord r;
        r.action = "delete";
        r.command = {"DEL", "idem:{1}:2"};
        QVERIFY(log.append(r).ok());
        {
            QFile f(log.path());
            QVERIFY(f.open(QIODevice::Append));
            f.write("{\"time\":\"2026-"); // power loss mid-record
        }
        auto back = AuditLog::read(log.path());
        QCOMPARE(back.records.size(), 1);
        QCOMPARE(back.problems.size(), 1);
        QVERIFY(back.problems[0].contains("line 2"));
        // The next append starts on a fresh line, so only the broken record is lost.
        QVERIFY(log.append(r).ok());
        back = AuditLog::read(log.path());
        QCOMPARE(back.records.size(), 2);
        QCOMPARE(back.problems.size(), 1);
    }

    void secretsAreRedacted()
    {
        QCOMPARE(redactCommand({"AUTH", "user", "s3cret"}),
                 (QList<QByteArray>{"AUTH", "(redacted)", "(redacted)"}));
        QCOMPARE(redactCommand({"ACL", "SETUSER", "loader", "on", ">pw"}),
                 (QList<QByteArray>{"ACL", "SETUSER", "loader", "on", "(redacted)"}));
        QCOMPARE(redactCommand({"CONFIG", "SET", "requirepass", "pw"}),
                 (QList<QByteArray>{"CONFIG", "SET", "requirepass", "(redacted)"}));
        AuditRecord r;
        r.command = {"AUTH", "s3cret"};
        QVERIFY(!r.toJsonLine().contains("s3cret"));
    }
};

QTEST_GUILESS_MAIN(TstAuditLog)
#include "tst_audit_log.moc"
