// SPDX-License-Identifier: GPL-3.0-or-later
// The session history of deductions and the audit viewer's model, filter and exports,
// each run through QAbstractItemModelTester.
#include "inventory/AuditQuery.h"
#include "inventory/DeductionHistory.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;

namespace {

DeductionResult result(OutcomeKind kind, const QByteArray &order, DeductionMode mode)
{
    DeductionRequest r;
    r.sku = "42";
    r.orderId = order;
    r.quantity = "3";
    r.ttlSeconds = "60";
    r.mode = mode;
    DeductionResult out;
    out.plan = planDeduction(r, KeySchema());
    out.outcome.kind = kind;
    out.startedUtc = QDateTime::currentDateTimeUtc();
    if (kind == OutcomeKind::Deducted)
        out.outcome.remaining = 7;
    return out;
}

AuditRecord record(const QString &action, const QString &result, bool unknown,
                   QList<QByteArray> command)
{
    AuditRecord r;
    r.timeUtc = QDateTime::currentDateTimeUtc();
    r.osUser = "alice";
    r.action = action;
    r.profile = "staging";
    r.server = "127.0.0.1:6379";
    r.command = std::move(command);
    r.result = result;
    r.outcomeUnknown = unknown;
    r.durationMs = 2;
    return r;
}

} // namespace

class TstDeductModels : public QObject
{
    Q_OBJECT

private slots:
    void historyAddsAndRechecks()
    {
        DeductionHistory h;
        QAbstractItemModelTester tester(&h, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int a = h.add(result(OutcomeKind::Deducted, "9001", DeductionMode::Function));
        const int b = h.add(result(OutcomeKind::Unknown, "9002", DeductionMode::Function));
        const int c = h.add(result(OutcomeKind::Unknown, "", DeductionMode::Script));
        QCOMPARE(h.rowCount(), 3);
        QVERIFY(a != b && b != c);
        QCOMPARE(h.data(h.index(0, DeductionHistory::Outcome)).toString(),
                 QStringLiteral("Deducted"));
        QCOMPARE(h.data(h.index(0, DeductionHistory::Value)).toString(),
                 QStringLiteral("remaining 7"));
        QCOMPARE(h.data(h.index(1, DeductionHistory::Outcome), DeductionHistory::OutcomeKindRole)
                     .toInt(),
                 int(OutcomeKind::Unknown));
        QCOMPARE(h.data(h.index(1, DeductionHistory::Check)).toString(),
                 QStringLiteral("not checked"));

        ReceiptStatus s;
        s.key = "idem:{42}:9002";
        s.exists = true;
        s.type = "string";
        s.remaining = 4;
        s.ttlSeconds = 60;
        s.checkedUtc = QDateTime::currentDateTimeUtc();
        h.setReceiptCheck(b, s);
        QVERIFY(h.data(h.index(1, DeductionHistory::Check))
                    .toString()
                    .startsWith(QLatin1String("happened")));
        QVERIFY(h.entry(b)->receiptCheck->exists);

        KeyReading now;
        now.read = true;
        now.value = "7";
        h.setStockCheck(c, now);
        QVERIFY(h.data(h.index(2, DeductionHistory::Check)).toString().contains("stock now 7"));
        QCOMPARE(h.rowOf(999), -1);
        QVERIFY(!h.entry(999));
    }

    // Issue 28: no receipt is not proof that a deduction did not happen (it may have expired,
    // been evicted, or been lost in a restart); and after a call whose reply promised one, its
    // absence means a retry deducts (issue 29, D3).
    void noReceiptIsNotDidNotHappen()
    {
        DeductionHistory h;
        const int unknown = h.add(result(OutcomeKind::Unknown, "9002", DeductionMode::Function));
        const int deducted = h.add(result(OutcomeKind::Deducted, "9003", DeductionMode::Function));
        ReceiptStatus none;
        none.key = "idem:{42}:x";
        none.type = "none";
        none.checkedUtc = QDateTime::currentDateTimeUtc();
        h.setReceiptCheck(unknown, none);
        h.setReceiptCheck(deducted, none);
        const QString first = h.data(h.index(0, DeductionHistory::Check)).toString();
        QVERIFY2(first.startsWith(QLatin1String("no receipt found")), qPrintable(first));
        const QString second = h.data(h.index(1, DeductionHistory::Check)).toString();
        QVERIFY2(second.startsWith(QLatin1String("receipt gone: a retry deducts")),
                 qPrintable(second));
        for (int row : {0, 1}) {
            const QString tip =
                h.data(h.index(row, DeductionHistory::Check), Qt::ToolTipRole).toString();
            QVERIFY2(!tip.contains(QLatin1String("did not happen")), qPrintable(tip));
            QVERIFY2(tip.contains(QLatin1String("evicted")), qPrintable(tip));
        }
    }

    void scriptCheckVerdicts()
    {
        DeductionResult r = result(OutcomeKind::Unknown, "", DeductionMode::Script);
        r.stockBefore.read = true;
        r.stockBefore.value = "10";
        KeyReading now;
        now.read = true;
        now.value = "7";
        QVERIFY(scriptCheckVerdict(r, now).contains(QLatin1String("most likely happened")));
        now.value = "10";
        QVERIFY(scriptCheckVerdict(r, now).contains(QLatin1String("most likely did not")));
        now.value = "5";
        QVERIFY(scriptCheckVerdict(r, now).contains(QLatin1String("nothing can be concluded")));
        now.error = core::Sentence::plain(QStringLiteral("timeout"));
        QVERIFY(scriptCheckVerdict(r, now).contains(QLatin1String("could not be read")));
    }

    void auditFilterAndModel()
    {
        AuditTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRecords({record("deduct", "deducted: remaining 7", false,
                             {"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                              "idem:{42}:9001", "3", "60"}),
                      record("script-load", "loaded", false, {"SCRIPT", "LOAD", "return 1"}),
                      record("deduct", "outcome unknown (timeout)", true,
                             {"FCALL", "inventory_deduct_v1", "2", "stock:{43}:available",
                              "idem:{43}:77", "1", "60"})});
        QCOMPARE(m.rowCount(), 3);
        // Newest first.
        QCOMPARE(m.recordAt(0)->result, QStringLiteral("outcome unknown (timeout)"));
        QCOMPARE(m.actions(), (QStringList{"deduct", "script-load"}));
        m.setFilter({QStringLiteral("deduct"), {}, false, {}, {}});
        QCOMPARE(m.rowCount(), 2);
        m.setFilter({{}, {}, true, {}, {}});
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.data(m.index(0, AuditTableModel::Unknown)).toString(), QStringLiteral("yes"));
        m.setFilter({{}, QStringLiteral("IDEM:{42}"), false, {}, {}}); // in the command, any case
        QCOMPARE(m.rowCount(), 1);
        QVERIFY(m.recordAt(0)->result.startsWith(QLatin1String("deducted")));
        m.setFilter({{}, QStringLiteral("alice"), false, {}, {}});
        QCOMPARE(m.rowCount(), 3);
        m.setFilter({{}, QStringLiteral("nothing like this"), false, {}, {}});
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.totalCount(), 3);
    }

    void exports()
    {
        AuditRecord a = record("deduct", "rejected: ERR \"quoted\", with comma", false,
                               {"FCALL", "f", "1", "key with space"});
        a.detail = "line one\nline two";
        const AuditRecord b = record("deduct", "outcome unknown", true, {"EVALSHA", "abc"});
        const QByteArray csv = auditToCsv({a, b});
        const QList<QByteArray> lines = csv.split('\n');
        QVERIFY(lines.first().startsWith("time_utc,os_user,action,"));
        QVERIFY(csv.contains("\"rejected: ERR \"\"quoted\"\", with comma\""));
        QVERIFY(csv.contains("FCALL f 1 'key with space'"));
        QVERIFY(csv.contains("\"line one\nline two\""));
        QVERIFY(csv.contains(",true,"));
        // A profile or detail typed by someone does not run as a spreadsheet formula.
        AuditRecord c = record("deduct", "ok", false, {"GET", "k"});
        c.profile = "=HYPERLINK(\"http://x\")";
        c.detail = "@SUM(A1)";
        c.durationMs = -1;
        const QByteArray evil = auditToCsv({c});
        QVERIFY(evil.contains(",\"'=HYPERLINK(\"\"http://x\"\")\","));
        QVERIFY(evil.contains(",'@SUM(A1),"));
        QVERIFY(evil.contains(",-1,")); // a number stays a number

        QTemporaryDir dir;
        const QString path = dir.filePath("export.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(auditToJsonLines({a, b}));
        f.close();
        const auto back = AuditLog::read(path);
        QVERIFY(back.problems.isEmpty());
        QCOMPARE(back.records.size(), 2);
        QCOMPARE(back.records[0].command, a.command);
        QCOMPARE(back.records[0].detail, a.detail);
        QVERIFY(back.records[1].outcomeUnknown);
    }

    void commandTextQuotesAndCuts()
    {
        QCOMPARE(commandText({"GET", "a b"}), QStringLiteral("GET 'a b'"));
        const QString cut = commandText({"SCRIPT", "LOAD", QByteArray(500, 'x')}, 10);
        QVERIFY(cut.contains(QLatin1String("(500 bytes)")));
        QVERIFY(cut.size() < 60);
    }

    // Their titles are a list in column order (core::TitledTableModel): one title per column
    // of the enum, the first and the last where the enum says.
    void everyColumnHasItsTitle()
    {
        const DeductionHistory history;
        QCOMPARE(history.columnCount(), int(DeductionHistory::ColumnCount));
        QCOMPARE(history.headerData(DeductionHistory::Time, Qt::Horizontal).toString(), "Time");
        QCOMPARE(history.headerData(DeductionHistory::Check, Qt::Horizontal).toString(),
                 "Last check");
        const AuditTableModel audit;
        QCOMPARE(audit.columnCount(), int(AuditTableModel::ColumnCount));
        QCOMPARE(audit.headerData(AuditTableModel::Time, Qt::Horizontal).toString(), "Time (UTC)");
        QCOMPARE(audit.headerData(AuditTableModel::Detail, Qt::Horizontal).toString(), "Detail");
        QVERIFY(!audit.headerData(AuditTableModel::Detail, Qt::Vertical).isValid());
        QVERIFY(!audit.headerData(AuditTableModel::ColumnCount, Qt::Horizontal).isValid());
    }
};

QTEST_GUILESS_MAIN(TstDeductModels)
#include "tst_deduct_models.moc"
