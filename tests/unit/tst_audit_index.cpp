// SPDX-License-Identifier: GPL-3.0-or-later
// The audit index: reads only what was appended since its last read (counted in lines parsed
// and bytes), leaves an incomplete last line for later, starts over on a truncated, replaced
// or rewritten file, folds a script deduction's NOSCRIPT / SCRIPT LOAD / EVALSHA into one row,
// knows each write's SKU and order, and adds rows to its model without a reset.
#include "inventory/AuditIndex.h"
#include "inventory/AuditQuery.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;

namespace {

AuditRecord deduction(int sku, int order, const QString &result = "deducted: 1, 9 left")
{
    AuditRecord r;
    r.action = "deduct";
    r.profile = "demo";
    r.server = "127.0.0.1:6379";
    r.command = {"FCALL",
                 "inventory_deduct_v1",
                 "2",
                 QByteArray("stock:{sku-") + QByteArray::number(sku) + "}:available",
                 QByteArray("idem:{sku-") + QByteArray::number(sku)
                     + "}:" + QByteArray::number(order),
                 "1",
                 "600"};
    r.result = result;
    r.durationMs = 2;
    // A log's records always have a time (append() sets it); these are written raw too.
    r.timeUtc = QDateTime::fromMSecsSinceEpoch(1790000000000 + order, Qt::UTC);
    return r;
}

qint64 fileSize(const QString &path)
{
    return QFileInfo(path).size();
}

void appendRaw(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    QCOMPARE(f.write(bytes), bytes.size());
}

// What Deducer writes for a script deduction whose script was not loaded yet.
void writeScriptDeduction(const AuditLog &log, int part)
{
    AuditRecord evalsha;
    evalsha.action = "deduct";
    evalsha.profile = "demo";
    evalsha.server = "127.0.0.1:6379";
    evalsha.command = {"EVALSHA", "22bf", "1", "stock:{sku-7}:available", "2"};
    evalsha.detail = "script mode; order 4711";
    AuditRecord load = evalsha;
    load.action = "script-load";
    load.command = {"SCRIPT", "LOAD", "local s = redis.call('GET', KEYS[1])\nreturn s\n"};
    if (part == 0 || part < 0) {
        const auto a = log.appendAttempt(evalsha);
        QVERIFY(a.ok());
        evalsha.result = "not run: NOSCRIPT (the script is not loaded); loading it";
        QVERIFY(log.appendOutcome(evalsha, a->attemptId).ok());
        const auto l = log.appendAttempt(load);
        QVERIFY(l.ok());
        load.result = "loaded: sha1 22bf";
        QVERIFY(log.appendOutcome(load, l->attemptId).ok());
    }
    if (part == 1 || part < 0) {
        const auto b = log.appendAttempt(evalsha);
        QVERIFY(b.ok());
        evalsha.result = "deducted: 2, 8 left";
        QVERIFY(log.appendOutcome(evalsha, b->attemptId).ok());
    }
}

} // namespace

class TstAuditIndex : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("audit-%1.jsonl").arg(++m_n)); }

private slots:
    void readsOnlyWhatWasAppended()
    {
        const QString path = freshPath();
        AuditLog log(path);
        for (int i = 0; i < 10; ++i)
            QVERIFY(log.append(deduction(1, i)).ok());
        AuditIndex index(path);
        auto stats = index.readAppended();
        QCOMPARE(stats.parsed, 10);
        QCOMPARE(stats.read.bytes, fileSize(path));
        const qint64 before = fileSize(path);
        for (int i = 10; i < 13; ++i)
            QVERIFY(log.append(deduction(1, i)).ok());
        QCOMPARE(index.tail().pendingBytes(), fileSize(path) - before);
        stats = index.readAppended();
        QVERIFY(!stats.read.restarted);
        QCOMPARE(stats.parsed, 3); // exactly the new records, nothing read twice
        QCOMPARE(stats.read.bytes, fileSize(path) - before);
        QCOMPARE(int(index.entries().size()), 13);
        QCOMPARE(index.readAppended().parsed, 0);
        QCOMPARE(index.record(12)->command.at(4), QByteArray("idem:{sku-1}:12"));
    }

    void incompleteLastLineWaitsForItsNewline()
    {
        const QString path = freshPath();
        AuditLog log(path);
        QVERIFY(log.append(deduction(2, 1)).ok());
        const QByteArray line = deduction(2, 2).toJsonLine();
        appendRaw(path, line.left(25)); // a writer mid-append
        AuditIndex index(path);
        QCOMPARE(index.readAppended().parsed, 1);
        QCOMPARE(index.problemCount(), 0);
        QVERIFY2(index.problems().join('\n').contains("line 2: incomplete"),
                 qPrintable(index.problems().join('\n')));
        appendRaw(path, line.mid(25) + '\n');
        const auto stats = index.readAppended();
        QCOMPARE(stats.parsed, 1);
        QCOMPARE(int(index.entries().size()), 2);
        QVERIFY(index.problems().isEmpty());
        QCOMPARE(index.record(1)->command.at(4), QByteArray("idem:{sku-2}:2"));
    }

    void cancelStopsBetweenBlocksAndTheRestFollows()
    {
        const QString path = freshPath();
        QByteArray many;
        for (int i = 0; i < 12000; ++i)
            many += deduction(3, i).toJsonLine() + '\n';
        appendRaw(path, many);
        QVERIFY(many.size() > 2 * (1 << 20)); // more than one block
        AuditIndex index(path);
        std::atomic_bool cancel{false};
        auto stats = index.readAppended(-1, &cancel, [&](qint64, qint64) { cancel = true; });
        QVERIFY(stats.read.cancelled);
        QVERIFY(stats.parsed > 0 && stats.parsed < 12000);
        const int first = stats.parsed;
        stats = index.readAppended();
        QCOMPARE(first + stats.parsed, 12000);
        QCOMPARE(int(index.entries().size()), 12000);
    }

    void truncatedReplacedOrRewrittenFileIsReadAgain()
    {
        const QString path = freshPath();
        AuditLog log(path);
        for (int i = 0; i < 5; ++i)
            QVERIFY(log.append(deduction(4, i)).ok());
        AuditIndex index(path);
        QCOMPARE(index.readAppended().parsed, 5);

        // Truncated, then two other records.
        QVERIFY(QFile::resize(path, 0));
        QVERIFY(log.append(deduction(5, 100)).ok());
        QVERIFY(log.append(deduction(5, 101)).ok());
        auto stats = index.readAppended();
        QVERIFY(stats.read.restarted);
        QCOMPARE(stats.parsed, 2);
        QCOMPARE(int(index.entries().size()), 2);
        QCOMPARE(index.texts(index.entries().at(0)).order, QStringLiteral("100"));

        // Rotated: another file (another inode) in its place, longer than what was read.
        QVERIFY(QFile::rename(path, path + ".1"));
        for (int i = 0; i < 6; ++i)
            QVERIFY(log.append(deduction(6, i)).ok());
        stats = index.readAppended();
        QVERIFY(stats.read.restarted);
        QCOMPARE(int(index.entries().size()), 6);

        // Copied over in place (same inode) by an older, longer log: the bytes just before
        // the offset are not the ones read there.
        QByteArray older;
        for (int i = 0; i < 7; ++i)
            older += deduction(8, 1000 + i).toJsonLine() + '\n';
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite | QIODevice::Truncate));
        QCOMPARE(f.write(older), older.size());
        f.close();
        stats = index.readAppended();
        QVERIFY(stats.read.restarted);
        QCOMPARE(int(index.entries().size()), 7);
        QCOMPARE(index.strings().at(index.entries().at(0).sku), QStringLiteral("sku-8"));
    }

    void scriptDeductionIsOneRowWithThreeSteps()
    {
        const QString path = freshPath();
        AuditLog log(path);
        QVERIFY(log.append(deduction(9, 1)).ok());
        writeScriptDeduction(log, -1);
        AuditTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setIndex(std::make_unique<AuditIndex>(path));
        model.readAppended();
        QCOMPARE(model.rowCount(), 2); // 7 lines: one FCALL, one script deduction
        QCOMPARE(model.index(0, AuditTableModel::Action).data(AuditTableModel::StepsRole), 3);
        QCOMPARE(model.index(0, AuditTableModel::Action).data().toString(),
                 QStringLiteral("deduct (3 steps)"));
        QCOMPARE(model.index(0, AuditTableModel::Result).data().toString(),
                 QStringLiteral("deducted: 2, 8 left"));
        QCOMPARE(model.index(0, AuditTableModel::Order).data().toString(), QStringLiteral("4711"));
        QCOMPARE(model.index(1, AuditTableModel::Action).data(AuditTableModel::StepsRole), 1);
        const QList<AuditRecord> steps = model.stepsAt(0);
        QCOMPARE(steps.size(), 3);
        QVERIFY(steps.at(0).result.startsWith("not run: NOSCRIPT"));
        QCOMPARE(steps.at(1).command.at(1), QByteArray("LOAD"));
        QCOMPARE(steps.at(2).result, QStringLiteral("deducted: 2, 8 left"));
        QCOMPARE(model.noOutcomeCount(), 0);
    }

    // The steps arrive in two reads (the viewer reloaded between them): the rows shown before
    // are folded too.
    void scriptStepsFoldAcrossReads()
    {
        const QString path = freshPath();
        AuditLog log(path);
        writeScriptDeduction(log, 0);
        AuditTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setIndex(std::make_unique<AuditIndex>(path));
        model.readAppended();
        QCOMPARE(model.rowCount(), 1); // NOSCRIPT folded into SCRIPT LOAD already
        writeScriptDeduction(log, 1);
        model.readAppended();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.stepsAt(0).size(), 3);
    }

    void skuAndOrderColumnsAndTheirFilter()
    {
        AuditRecord del = deduction(0, 0);
        del.action = "delete";
        del.command = {"DEL", "idem:{sku-3}:9001"};
        AuditRecord set = deduction(0, 0);
        set.action = "persist";
        set.command = {"PERSIST", "stock:{sku-3}:available"};
        AuditRecord load = deduction(0, 0);
        load.action = "function-load";
        load.command = {"FUNCTION", "LOAD", "REPLACE", "#!lua name=x\n"};
        AuditTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords({deduction(42, 9001), del, set, load, deduction(42, 9002)});
        QCOMPARE(model.rowCount(), 5);
        const auto cell = [&](int row, int column) {
            return model.index(row, column).data().toString();
        };
        QCOMPARE(model.headerData(AuditTableModel::Sku, Qt::Horizontal).toString(), "SKU");
        QCOMPARE(model.headerData(AuditTableModel::Order, Qt::Horizontal).toString(), "Order");
        QCOMPARE(cell(0, AuditTableModel::Sku), QStringLiteral("sku-42"));
        QCOMPARE(cell(0, AuditTableModel::Order), QStringLiteral("9002"));
        QCOMPARE(cell(1, AuditTableModel::Sku), QString()); // a library load names neither
        QCOMPARE(cell(2, AuditTableModel::Sku), QStringLiteral("sku-3"));
        QCOMPARE(cell(2, AuditTableModel::Order), QString());
        QCOMPARE(cell(3, AuditTableModel::Order), QStringLiteral("9001"));

        AuditFilter f;
        f.sku = "sku-42";
        f.order = "9001";
        model.setFilter(f);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(0, AuditTableModel::Order), QStringLiteral("9001"));
        QVERIFY(f.matches(deduction(42, 9001)));
        QVERIFY(!f.matches(deduction(42, 90011))); // exact, not a prefix
        f.order = "900";
        model.setFilter(f);
        QCOMPARE(model.rowCount(), 0);
        f = {};
        f.text = "IDEM:{SKU-3}"; // free text still searches the command, any case
        model.setFilter(f);
        QCOMPARE(model.rowCount(), 1);

        // Typing into the text filter narrows the rows shown; each step shows what a fresh
        // filter with that text shows, and deleting characters widens it again.
        QStringList typed;
        for (const char *text : {"9", "90", "900", "9002", "900", ""}) {
            f = {};
            f.text = QString::fromLatin1(text);
            model.setFilter(f);
            AuditTableModel fresh;
            fresh.setRecords({deduction(42, 9001), del, set, load, deduction(42, 9002)});
            fresh.setFilter(f);
            QCOMPARE(model.rowCount(), fresh.rowCount());
            typed << QString::number(model.rowCount());
        }
        QCOMPARE(typed.join(' '), QStringLiteral("5 3 3 1 3 5"));
    }

    void appendedRowsAreInsertedNotReset()
    {
        const QString path = freshPath();
        AuditLog log(path);
        for (int i = 0; i < 4; ++i)
            QVERIFY(log.append(deduction(10, i)).ok());
        AuditTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setIndex(std::make_unique<AuditIndex>(path));
        model.readAppended();
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const auto a = log.appendAttempt(deduction(10, 4));
        QVERIFY(a.ok());
        QVERIFY(log.appendOutcome(deduction(10, 4), a->attemptId).ok());
        QVERIFY(log.append(deduction(10, 5)).ok());
        QCOMPARE(model.readAppended().parsed, 3);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.first().at(1).toInt(), 0);
        QCOMPARE(inserted.first().at(2).toInt(), 1); // two rows: the pair is one
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(0, AuditTableModel::Order).data().toString(), QStringLiteral("5"));

        // An attempt shown alone, whose outcome comes with the next read: rows are rebuilt.
        const auto lone = log.appendAttempt(deduction(10, 6));
        QVERIFY(lone.ok());
        model.readAppended();
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.noOutcomeCount(), 1);
        QVERIFY(log.appendOutcome(deduction(10, 6), lone->attemptId).ok());
        model.readAppended();
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.noOutcomeCount(), 0);
        QCOMPARE(reset.size(), 1);
    }
};

QTEST_MAIN(TstAuditIndex)
#include "tst_audit_index.moc"
