// SPDX-License-Identifier: GPL-3.0-or-later
#include "inventory/AuditLog.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace inventory;

class TstAuditLog : public QObject
{
    Q_OBJECT

    static AuditRecord write(const QString &action, const QList<QByteArray> &command)
    {
        AuditRecord r;
        r.action = action;
        r.command = command;
        return r;
    }

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

    // Write-ahead: an attempt with a fresh id, then the outcome with the same id; a reader
    // sees one write.
    void attemptThenOutcome()
    {
        QTemporaryDir dir;
        AuditLog log(dir.filePath("audit.jsonl"));
        AuditRecord r = write("expire", {"EXPIRE", "idem:{1}:2", "60"});
        const auto first = log.appendAttempt(r);
        QVERIFY(first.ok());
        const auto second = log.appendAttempt(r);
        QVERIFY(second.ok());
        QVERIFY(!first->attemptId.isEmpty());
        QVERIFY(first->attemptId != second->attemptId);
        QCOMPARE(first->phase, AuditRecord::Phase::Attempt);
        r.result = "TTL set";
        QVERIFY(log.appendOutcome(r, first->attemptId).ok());

        const auto back = AuditLog::read(log.path());
        QCOMPARE(back.problems, QStringList());
        QCOMPARE(back.records.size(), 3);
        QCOMPARE(back.records[0].phase, AuditRecord::Phase::Attempt);
        QCOMPARE(back.records[0].attemptId, first->attemptId);
        QCOMPARE(back.records[0].command, r.command);
        QCOMPARE(back.records[2].phase, AuditRecord::Phase::Outcome);
        QCOMPARE(back.records[2].attemptId, first->attemptId);
        QVERIFY(back.records[0].toJsonLine().contains("\"phase\":\"attempt\""));

        const QList<AuditRecord> writes = pairAttempts(back.records);
        QCOMPARE(writes.size(), 2);
        // In file order: the second attempt never got its outcome; the first did.
        QCOMPARE(writes[0].attemptId, second->attemptId);
        QCOMPARE(writes[0].result, noOutcomeRecordedText());
        QVERIFY(writes[0].outcomeUnknown);
        QCOMPARE(writes[1].attemptId, first->attemptId);
        QCOMPARE(writes[1].result, QStringLiteral("TTL set"));
        QVERIFY(!writes[1].outcomeUnknown);
    }

    // An attempt written by hand, as a console killed before the reply leaves it.
    void unpairedAttemptShowsNoOutcomeRecorded()
    {
        const QByteArray attempt =
            R"({"time":"2026-03-02T10:15:00.123Z","os_user":"ops","action":"deduct",)"
            R"("profile":"staging","server":"10.0.0.5:6379","run_id":"abc",)"
            R"("command":["FCALL","inventory_deduct_v1","2","stock:{42}:available",)"
            R"("idem:{42}:9001","3","60"],"result":"attempt","outcome_unknown":false,)"
            R"("duration_ms":-1,"phase":"attempt","attempt_id":"7f0c"})";
        const auto r = AuditRecord::fromJsonLine(attempt);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error()));
        QCOMPARE(r->phase, AuditRecord::Phase::Attempt);
        QCOMPARE(r->attemptId, QStringLiteral("7f0c"));
        const QList<AuditRecord> writes = pairAttempts({r.value()});
        QCOMPARE(writes.size(), 1);
        QCOMPARE(writes[0].result,
                 QStringLiteral("no outcome recorded: the console stopped before the reply; the "
                                "command may or may not have run"));
        QVERIFY(writes[0].outcomeUnknown);
        QCOMPARE(writes[0].phase, AuditRecord::Phase::Attempt);
        QCOMPARE(writes[0].command.value(4), QByteArray("idem:{42}:9001"));
        // An outcome for a different attempt does not pair with it.
        AuditRecord other = r.value();
        other.phase = AuditRecord::Phase::Outcome;
        other.attemptId = "9e1d";
        other.result = "deducted: remaining 7";
        QCOMPARE(pairAttempts({r.value(), other}).size(), 2);
        other.attemptId = "7f0c";
        QCOMPARE(pairAttempts({r.value(), other}).size(), 1);
        QCOMPARE(pairAttempts({r.value(), other})[0].result, other.result);
    }

    // A line written before write-ahead records (no phase, no attempt id) still loads as one
    // complete write, and is written back the same way.
    void oldSingleRecordLinesStillLoad()
    {
        const QByteArray old =
            R"({"action":"deduct","command":["FCALL","inventory_deduct_v1","2",)"
            R"("stock:{42}:available","idem:{42}:9001","3","60"],"duration_ms":4,)"
            R"("os_user":"ops","outcome_unknown":false,"profile":"staging",)"
            R"("result":"deducted: remaining 7","run_id":"abc","server":"10.0.0.5:6379",)"
            R"("time":"2026-01-05T08:00:00.000Z"})";
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(old + '\n' + old + '\n');
        f.close();
        const auto back = AuditLog::read(path);
        QCOMPARE(back.problems, QStringList());
        QCOMPARE(back.records.size(), 2);
        const AuditRecord &r = back.records[0];
        QCOMPARE(r.phase, AuditRecord::Phase::Single);
        QVERIFY(r.attemptId.isEmpty());
        QCOMPARE(r.result, QStringLiteral("deducted: remaining 7"));
        QCOMPARE(r.durationMs, 4);
        QCOMPARE(r.command.size(), 7);
        QVERIFY(!r.outcomeUnknown);
        const QList<AuditRecord> writes = pairAttempts(back.records);
        QCOMPARE(writes.size(), 2);
        QCOMPARE(writes[1].result, QStringLiteral("deducted: remaining 7"));
        QVERIFY(!r.toJsonLine().contains("phase"));
        QVERIFY(!r.toJsonLine().contains("attempt_id"));
    }

    // A duration no qint64 holds (a corrupt line; casting it was undefined behaviour, found
    // by tests/fuzz/fuzz_audit_log) reads as unknown, and so does a negative one.
    void durationOutOfRangeReadsAsUnknown()
    {
        for (const QByteArray duration : {"1e300", "-1e300", "9223372036854775808", "-7"}) {
            const auto r = AuditRecord::fromJsonLine(R"({"time":"2026-01-05T08:00:00.000Z",)"
                                                     R"("command":["GET","k"],"duration_ms":)"
                                                     + duration + "}");
            QVERIFY2(r.ok(), duration.constData());
            QCOMPARE(r->durationMs, -1);
        }
        const auto ok = AuditRecord::fromJsonLine(
            R"({"time":"2026-01-05T08:00:00.000Z","command":[],"duration_ms":1500})");
        QVERIFY(ok.ok());
        QCOMPARE(ok->durationMs, 1500);
    }

    // No attempt record, no write: the refusal says where and why.
    void attemptRefusedWhenTheLogCannotBeWritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        QVERIFY(QDir().mkpath(path)); // a directory in its place
        const auto attempt = AuditLog(path).appendAttempt(write("delete", {"DEL", "idem:{1}:2"}));
        QVERIFY(!attempt.ok());
        QVERIFY2(attempt.error().english.startsWith(
                     QStringLiteral("the audit log at %1 could not be written: cannot open it (")
                         .arg(path)),
                 qPrintable(attempt.error().english));
        QVERIFY(attempt.error().english.contains("Nothing was sent"));
    }

    // D11: the audit log is never written through a link, and a dangling link's target is
    // never created; a FIFO in its place is refused without waiting for a reader.
    void neverThroughALinkNorIntoAFifo()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("elsewhere.jsonl");
        const QString path = dir.filePath("audit.jsonl");
        QVERIFY(QFile::link(target, path)); // dangling
        auto attempt = AuditLog(path).appendAttempt(write("delete", {"DEL", "idem:{1}:2"}));
        QVERIFY(!attempt.ok());
        QVERIFY2(attempt.error().english.contains("it is a symbolic link"),
                 qPrintable(attempt.error().english));
        QVERIFY(!QFile::exists(target));
        QVERIFY(QFile::remove(path));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        attempt = AuditLog(path).appendAttempt(write("delete", {"DEL", "idem:{1}:2"}));
        QVERIFY(!attempt.ok());
        QVERIFY2(attempt.error().english.contains("it is not a regular file"),
                 qPrintable(attempt.error().english));
    }
};

QTEST_GUILESS_MAIN(TstAuditLog)
#include "tst_audit_log.moc"
