// SPDX-License-Identifier: GPL-3.0-or-later
// The audit viewer panel, offscreen: reads the log newest first, reports a truncated last
// line without failing, filters by action, text and unknown outcomes, and exports what it
// shows as CSV and as JSON lines that read back; pairs attempt and outcome records into one
// row, and flags an attempt with no outcome. A library load's source shows as code; showOrder()
// filters to one order; a log too big to read at once loads on a worker with a progress bar.
#include "AuditTrail.h"
#include "FileMode.h"
#include "ui/deduct/AuditRecordDetail.h"
#include "ui/deduct/AuditViewerPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;

class TstDeductAuditViewer : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

    static AuditRecord record(const QString &action, const QString &result, bool unknown,
                              QList<QByteArray> command)
    {
        AuditRecord r;
        r.action = action;
        r.profile = "staging";
        r.server = "10.0.0.5:6379";
        r.runId = "abc";
        r.command = std::move(command);
        r.result = result;
        r.outcomeUnknown = unknown;
        r.durationMs = 4;
        return r;
    }

private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath("audit.jsonl");
        AuditLog log(m_path);
        QVERIFY(log.append(record("deduct", "deducted: remaining 7", false,
                                  {"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                                   "idem:{42}:9001", "3", "60"}))
                    .ok());
        QVERIFY(log.append(record("script-load", "loaded: sha1 22bf", false,
                                  {"SCRIPT", "LOAD", QByteArray(3000, '-')}))
                    .ok());
        QVERIFY(log.append(record("deduct", "outcome unknown (timeout: no reply)", true,
                                  {"FCALL", "inventory_deduct_v1", "2", "stock:{43}:available",
                                   "idem:{43}:77", "1", "60"}))
                    .ok());
        QFile f(m_path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"time\":\"2026-01-01T00:00:00.000Z\",\"act"); // torn by a power loss
    }

    void showsFiltersAndReportsCorruption()
    {
        ui::AuditViewerPanel panel(m_path);
        panel.resize(1300, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.model()->rowCount(), 3);
        QVERIFY2(panel.problemsText().contains("line 4"), qPrintable(panel.problemsText()));
        QCOMPARE(panel.model()->recordAt(0)->result,
                 QStringLiteral("outcome unknown (timeout: no reply)"));

        auto *action = panel.findChild<QComboBox *>("actionFilter");
        action->setCurrentIndex(action->findData(QStringLiteral("script-load")));
        QCOMPARE(panel.model()->rowCount(), 1);
        action->setCurrentIndex(0);
        QCOMPARE(panel.model()->rowCount(), 3);

        QTest::keyClicks(panel.findChild<QLineEdit *>("textFilter"), "idem:{42}");
        QCOMPARE(panel.model()->rowCount(), 1);
        panel.findChild<QLineEdit *>("textFilter")->clear();
        panel.findChild<QCheckBox *>("unknownOnly")->click();
        QCOMPARE(panel.model()->rowCount(), 1);
        QVERIFY(panel.model()->recordAt(0)->outcomeUnknown);

        auto *table = panel.findChild<QTableView *>("auditTable");
        table->selectRow(0);
        const QString detail = panel.findChild<QPlainTextEdit *>("auditDetail")->toPlainText();
        QVERIFY2(detail.contains("OUTCOME UNKNOWN"), qPrintable(detail));
        QVERIFY(detail.contains("'idem:{43}:77'"));
    }

    void exportsWhatIsShown()
    {
        ui::AuditViewerPanel panel(m_path);
        panel.findChild<QCheckBox *>("unknownOnly")->click();
        const QString csv = m_dir.filePath("out.csv");
        auto written = panel.exportTo(csv, ui::AuditViewerPanel::Format::Csv);
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error()));
        QCOMPARE(written.value(), 1);
        QCOMPARE(testsupport::fileMode(csv), 0600);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[1].contains(",true,"));

        panel.findChild<QCheckBox *>("unknownOnly")->click();
        const QString jsonl = m_dir.filePath("out.jsonl");
        written = panel.exportTo(jsonl, ui::AuditViewerPanel::Format::JsonLines);
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error()));
        QCOMPARE(written.value(), 3);
        const auto back = AuditLog::read(jsonl);
        QVERIFY(back.problems.isEmpty());
        QCOMPARE(back.records.size(), 3);
        QCOMPARE(back.records[1].command.at(2).size(), 3000); // exported whole, not cut
    }

    // An old single record, a paired attempt and outcome, and an attempt with no outcome
    // (written by hand, as a console killed before the reply leaves it): three rows.
    void pairsAttemptsAndFlagsTheOneWithNoOutcome()
    {
        const QString path = m_dir.filePath("write-ahead.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"time":"2026-01-05T08:00:00.000Z","os_user":"ops","action":"deduct",)"
                R"("profile":"staging","server":"10.0.0.5:6379","run_id":"abc","command":)"
                R"(["FCALL","inventory_deduct_v1","2","stock:{41}:available","idem:{41}:1",)"
                R"("1","60"],"result":"deducted: remaining 4","outcome_unknown":false,)"
                R"("duration_ms":2})"
                "\n");
        f.close();
        AuditLog log(path);
        AuditRecord del = record("delete", {}, false, {"DEL", "idem:{42}:9001"});
        const auto paired = log.appendAttempt(del);
        QVERIFY(paired.ok());
        f.open(QIODevice::Append);
        f.write(R"({"time":"2026-03-02T10:15:00.123Z","os_user":"ops","action":"function-load",)"
                R"("profile":"staging","server":"10.0.0.5:6379","run_id":"abc","command":)"
                R"(["FUNCTION","LOAD","REPLACE","#!lua name=inventory_lib_v1"],"result":)"
                R"("attempt","outcome_unknown":false,"duration_ms":-1,"phase":"attempt",)"
                R"("attempt_id":"hand-written-1"})"
                "\n");
        f.close();
        del.result = "deleted";
        QVERIFY(log.appendOutcome(del, paired->attemptId).ok());

        ui::AuditViewerPanel panel(path);
        panel.resize(1400, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        AuditTableModel *m = panel.model();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(m->totalCount(), 3);
        QCOMPARE(panel.problemsText(), QString());
        // Newest first: the delete's outcome (last in the file), the lone load, the old record.
        QCOMPARE(m->recordAt(0)->result, QStringLiteral("deleted"));
        QCOMPARE(m->recordAt(0)->attemptId, paired->attemptId);
        QCOMPARE(m->recordAt(1)->action, QStringLiteral("function-load"));
        QCOMPARE(m->recordAt(1)->result, noOutcomeRecordedText());
        QCOMPARE(m->recordAt(2)->result, QStringLiteral("deducted: remaining 4"));

        auto *table = panel.findChild<QTableView *>("auditTable");
        const QModelIndex lone = table->model()->index(1, AuditTableModel::Result);
        QCOMPARE(lone.data().toString(),
                 QStringLiteral("no outcome recorded: the console stopped before the reply; the "
                                "command may or may not have run"));
        QCOMPARE(table->model()->index(1, AuditTableModel::Unknown).data().toString(),
                 QStringLiteral("yes: no reply recorded"));
        QVERIFY(lone.data(Qt::BackgroundRole).isValid()); // tinted: it needs a person
        QVERIFY(lone.data(Qt::ForegroundRole).isValid());
        QVERIFY(
            !table->model()->index(0, AuditTableModel::Result).data(Qt::BackgroundRole).isValid());
        QVERIFY(
            !table->model()->index(0, AuditTableModel::Result).data(Qt::ForegroundRole).isValid());
        QVERIFY2(
            panel.findChild<QLabel *>("auditStatus")->text().contains("1 with no outcome recorded"),
            qPrintable(panel.findChild<QLabel *>("auditStatus")->text()));

        table->selectRow(1);
        const QString detail = panel.findChild<QPlainTextEdit *>("auditDetail")->toPlainText();
        QVERIFY2(detail.contains("no outcome recorded: the console stopped before the reply; "
                                 "the command may or may not have run  [OUTCOME UNKNOWN]"),
                 qPrintable(detail));
        QVERIFY(detail.contains("attempt     hand-written-1: written before sending, no outcome "
                                "followed"));
        QVERIFY(detail.contains("duration not known"));

        panel.findChild<QCheckBox *>("unknownOnly")->click();
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->recordAt(0)->attemptId, QStringLiteral("hand-written-1"));
        panel.findChild<QCheckBox *>("unknownOnly")->click();
        QTest::keyClicks(panel.findChild<QLineEdit *>("textFilter"), paired->attemptId.left(8));
        QCOMPARE(m->rowCount(), 1); // an attempt id can be searched for
        QCOMPARE(m->recordAt(0)->result, QStringLiteral("deleted"));
    }

    void reloadSeesNewRecords()
    {
        ui::AuditViewerPanel panel(m_path);
        const int before = panel.model()->totalCount();
        QVERIFY(AuditLog(m_path).append(record("deduct", "stock missing", false, {"FCALL"})).ok());
        panel.reload();
        QCOMPARE(panel.model()->totalCount(), before + 1);
        // The torn line no longer ends the file, but it is still reported and skipped.
        QVERIFY(panel.problemsText().contains("line 4"));
    }

    // Records another process appends (inventory-cli next to the console) show up without a
    // reload asked by anyone.
    void recordsAppendedElsewhereShowUp()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        QVERIFY(AuditLog(path)
                    .append(record("deduct", "deducted: remaining 7", false, {"FCALL"}))
                    .ok());
        ui::AuditViewerPanel panel(path);
        QTRY_COMPARE(panel.model()->totalCount(), 1);
        // A whole record as AuditLog writes it, appended by a shell.
        const QString elsewhere = dir.filePath("elsewhere.jsonl");
        QVERIFY(AuditLog(elsewhere).append(record("delete", "deleted", false, {"DEL", "k"})).ok());
        QCOMPARE(QProcess::execute("sh", {"-c", "cat \"$1\" >> \"$0\"", path, elsewhere}), 0);
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->totalCount(), 2, 10000);
    }

    // A row written on a server process that no longer answers at its address says so (the
    // Server column, its colour, the status line, the detail pane); one whose server answers
    // with the same run_id, or whose server was not read, says nothing.
    void rowsWrittenBeforeARestartAreMarked()
    {
        ui::AuditViewerPanel panel(m_path);
        panel.resize(1300, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        AuditTableModel *m = panel.model();
        QVERIFY(m->rowCount() >= 3);
        const QModelIndex server = m->index(0, AuditTableModel::Server);
        auto *status = panel.findChild<QLabel *>("auditStatus");
        QCOMPARE(server.data().toString(), QStringLiteral("10.0.0.5:6379"));

        const QDateTime later = QDateTime::currentDateTimeUtc().addSecs(3600);
        panel.setServersNow({{"10.0.0.5:6379", {"def0123456789", later}}});
        QCOMPARE(server.data().toString(), QStringLiteral("10.0.0.5:6379 (run_id changed since)"));
        const QString said = server.data(AuditTableModel::ServerChangeRole).toString();
        QVERIFY2(said.startsWith("The server at 10.0.0.5:6379 restarted or failed over after this "
                                 "write: it now answers with run_id def01234, started ")
                     && said.endsWith("receipts written before are gone."),
                 qPrintable(said));
        QCOMPARE(server.data(Qt::ToolTipRole).toString(), said);
        QCOMPARE(m->serverChangedCount(), m->rowCount());
        QVERIFY2(status->text().contains(QStringLiteral("%1 written on a server process that no "
                                                        "longer answers there")
                                             .arg(m->rowCount())),
                 qPrintable(status->text()));
        auto *table = panel.findChild<QTableView *>();
        QVERIFY(
            table->model()->index(0, AuditTableModel::Server).data(Qt::ForegroundRole).isValid());
        table->selectRow(0);
        QVERIFY2(panel.detail()->text().startsWith("SERVER CHANGED SINCE: " + said),
                 qPrintable(panel.detail()->text()));

        // Already running before the write: a failover or another server, not a restart.
        panel.setServersNow({{"10.0.0.5:6379", {"def0123456789", later.addDays(-2)}}});
        QVERIFY2(server.data(AuditTableModel::ServerChangeRole)
                     .toString()
                     .startsWith("The server at 10.0.0.5:6379 now answers with another run_id "
                                 "(def01234, running since "),
                 qPrintable(server.data(AuditTableModel::ServerChangeRole).toString()));

        for (const ServersNow &same : {ServersNow{{"10.0.0.5:6379", {"abc", later}}},
                                       ServersNow{{"10.0.0.6:6379", {"def", later}}},
                                       ServersNow{{"10.0.0.5:6379", {QString(), later}}}}) {
            panel.setServersNow(same);
            QCOMPARE(server.data().toString(), QStringLiteral("10.0.0.5:6379"));
            QVERIFY(server.data(AuditTableModel::ServerChangeRole).toString().isEmpty());
            QCOMPARE(m->serverChangedCount(), 0);
            QVERIFY(!status->text().contains("no longer answers"));
        }
    }

    void libraryLoadShowsItsSourceAsCode()
    {
        const QString path = m_dir.filePath("load.jsonl");
        const QByteArray source = "#!lua name=inventory_lib_v1\n-- version: 1.0.0\n"
                                  "redis.register_function('f', function() return 1 end)\n";
        QVERIFY(AuditLog(path)
                    .append(record("function-load", "loaded", false,
                                   {"FUNCTION", "LOAD", "REPLACE", source}))
                    .ok());
        ui::AuditViewerPanel panel(path);
        panel.resize(1366, 768);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.detail()->codeShown(), QString()); // nothing selected: no code pane
        QVERIFY(panel.minimumSizeHint().width() <= 1366); // fits a laptop's screen
        panel.findChild<QTableView *>("auditTable")->selectRow(0);
        QCOMPARE(panel.detail()->codeShown(), QString::fromUtf8(source));
        const QString summary = panel.detail()->text();
        QVERIFY2(summary.contains("FUNCTION LOAD REPLACE '(Lua source, 4 lines: below)'"),
                 qPrintable(summary));
        QVERIFY(!summary.contains("\\x0a"));
        QVERIFY(!summary.contains("register_function"));
    }

    void scriptDeductionIsOneRowWithItsSteps()
    {
        const QString path = m_dir.filePath("script.jsonl");
        AuditLog log(path);
        AuditRecord evalsha =
            record("deduct", {}, false, {"EVALSHA", "22bf", "1", "stock:{sku-7}:available", "2"});
        evalsha.detail = "script mode; order 4711";
        AuditRecord load = record("script-load", {}, false, {"SCRIPT", "LOAD", "return 1\n"});
        load.detail = evalsha.detail;
        auto a = log.appendAttempt(evalsha);
        evalsha.result = "not run: NOSCRIPT (the script is not loaded); loading it";
        QVERIFY(log.appendOutcome(evalsha, a->attemptId).ok());
        a = log.appendAttempt(load);
        load.result = "loaded: sha1 22bf";
        QVERIFY(log.appendOutcome(load, a->attemptId).ok());
        a = log.appendAttempt(evalsha);
        evalsha.result = "deducted: 2, 8 left";
        QVERIFY(log.appendOutcome(evalsha, a->attemptId).ok());

        ui::AuditViewerPanel panel(path);
        QCOMPARE(panel.model()->rowCount(), 1);
        auto *table = panel.findChild<QTableView *>("auditTable");
        QCOMPARE(table->model()->index(0, AuditTableModel::Action).data().toString(),
                 QStringLiteral("deduct (3 steps)"));
        QCOMPARE(table->model()->index(0, AuditTableModel::Sku).data().toString(),
                 QStringLiteral("sku-7"));
        QCOMPARE(table->model()->index(0, AuditTableModel::Order).data().toString(),
                 QStringLiteral("4711"));
        table->selectRow(0);
        const QString detail = panel.detail()->text();
        QVERIFY2(detail.contains("step 1") && detail.contains("step 2") && detail.contains("step 3")
                     && detail.contains("not a business retry"),
                 qPrintable(detail));
        QCOMPARE(panel.detail()->codeShown(), QStringLiteral("return 1\n"));
    }

    void showOrderFiltersToThatOrder()
    {
        ui::AuditViewerPanel panel(m_path);
        panel.show();
        const int all = panel.model()->rowCount();
        QVERIFY(all >= 3);
        panel.findChild<QLineEdit *>("textFilter")->setText("nothing matches this");
        panel.showOrder("42", "9001");
        QCOMPARE(panel.model()->rowCount(), 1);
        QCOMPARE(panel.model()->recordAt(0)->command.at(4), QByteArray("idem:{42}:9001"));
        QCOMPARE(panel.findChild<QLineEdit *>("textFilter")->text(), QString());
        auto *label = panel.findChild<QLabel *>("orderFilter");
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().contains("9001") && label->text().contains("42"),
                 qPrintable(label->text()));
        panel.showOrder("42", "77"); // no such write: nothing, not everything
        QCOMPARE(panel.model()->rowCount(), 0);
        // and a sentence that says why, not "0 of 0"
        const QString status = panel.findChild<QLabel *>("auditStatus")->text();
        QVERIFY2(status.contains(QLatin1String("No write of order 77")), qPrintable(status));
        panel.findChild<QPushButton *>("clearOrderFilter")->click();
        QCOMPARE(panel.model()->rowCount(), all);
        QVERIFY(!label->isVisible());
    }

    // More than InlineReadBytes: read on the worker; the panel answers meanwhile, and a write
    // appended during the load is read after it.
    void bigLogLoadsOnAWorkerWithProgress()
    {
        const QString path = m_dir.filePath("big.jsonl");
        int n = 0;
        const QByteArray lines =
            testsupport::bigDeductLog(3 * ui::AuditViewerPanel::InlineReadBytes, &n,
                                      [] { return record("deduct", "deducted", false, {}); });
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(lines);
        f.close();
        ui::AuditViewerPanel panel(path);
        // What the panel held each time it said it had loaded. The file watcher may see the
        // append below after the load and reload once more (another `loaded`, nothing new):
        // what matters is that the first one already holds the append.
        QList<int> rowsWhenLoaded;
        connect(&panel, &ui::AuditViewerPanel::loaded, &panel,
                [&] { rowsWhenLoaded << panel.model()->totalCount(); });
        QSignalSpy loaded(&panel, &ui::AuditViewerPanel::loaded);
        panel.show();
        QVERIFY(panel.isLoading());
        QVERIFY(panel.findChild<QProgressBar *>("auditProgress")->isVisible());
        QVERIFY(panel.findChild<QPushButton *>("cancelAuditLoad")->isVisible());
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(AuditLog(path).append(record("delete", "deleted", false, {"DEL", "k"})).ok());
        panel.reload(); // during the load: read once it is done
        QVERIFY(loaded.wait(30000));
        QCOMPARE(rowsWhenLoaded.first(), n + 1);
        QVERIFY(!panel.isLoading());
        QVERIFY(!panel.findChild<QProgressBar *>("auditProgress")->isVisible());
        QCOMPARE(panel.model()->totalCount(), n + 1);
        QCOMPARE(panel.model()->recordAt(0)->action, QStringLiteral("delete"));
    }
};

QTEST_MAIN(TstDeductAuditViewer)
#include "tst_deduct_audit_viewer.moc"
