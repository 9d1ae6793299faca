// SPDX-License-Identifier: GPL-3.0-or-later
// Earlier calls for the same order, found in the session's history and the audit log before a
// deduction runs: the Script-mode repeat warning, the v1 quantity mismatch, the merge that
// keeps one call from counting twice, and the SKU distance behind "nearest existing SKUs".
#include "inventory/PriorDeductions.h"
#include "inventory/SkuDirectory.h"

#include <QTest>

using namespace inventory;

namespace {

const QString Server = QStringLiteral("127.0.0.1:6379");

DeductionPlan plan(DeductionMode mode, const QByteArray &order, const QByteArray &quantity)
{
    DeductionRequest r;
    r.sku = "sku-1001";
    r.orderId = order;
    r.quantity = quantity;
    r.ttlSeconds = "60";
    r.mode = mode;
    return planDeduction(r, KeySchema());
}

DeductionResult result(const DeductionPlan &p, OutcomeKind kind)
{
    DeductionResult r;
    r.plan = p;
    r.outcome.kind = kind;
    r.outcome.remaining = 7;
    r.startedUtc = QDateTime::currentDateTimeUtc();
    return r;
}

AuditRecord deductRecord(const DeductionPlan &p, const QString &result, const QString &detail)
{
    AuditRecord r;
    r.timeUtc = QDateTime::currentDateTimeUtc().addSecs(-3600);
    r.action = "deduct";
    r.command = p.command;
    r.result = result;
    r.detail = detail;
    r.server = Server;
    return r;
}

} // namespace

class TstDeductPrior : public QObject
{
    Q_OBJECT

private slots:
    void scriptRepeatFromTheHistoryWarns()
    {
        DeductionHistory h;
        const DeductionPlan first = plan(DeductionMode::Script, "9001", "3");
        h.add(result(first, OutcomeKind::Deducted));
        // Another order and another SKU do not count.
        h.add(result(plan(DeductionMode::Script, "9002", "3"), OutcomeKind::Deducted));
        const DeductionPlan again = plan(DeductionMode::Script, "9001", "3");
        const auto prior = priorInHistory(h, again);
        QCOMPARE(prior.size(), 1);
        QVERIFY(repeatMayDeductTwice(again, prior));
        const QString w = repeatWarning(again, prior);
        QVERIFY2(w.contains("may already have been deducted") && w.contains("deducts again")
                     && w.contains("this session"),
                 qPrintable(w));
    }

    void scriptRepeatAfterNothingWasWrittenIsQuiet()
    {
        DeductionHistory h;
        h.add(result(plan(DeductionMode::Script, "9001", "3"), OutcomeKind::Insufficient));
        const DeductionPlan again = plan(DeductionMode::Script, "9001", "3");
        QVERIFY(repeatWarning(again, priorInHistory(h, again)).isEmpty());
        // Without an order id there is nothing to compare.
        const DeductionPlan anonymous = plan(DeductionMode::Script, "", "3");
        QVERIFY(priorInHistory(h, anonymous).isEmpty());
    }

    void scriptRepeatFromTheAuditLogWarns()
    {
        const DeductionPlan p = plan(DeductionMode::Script, "9001", "3");
        const QList<AuditRecord> records{
            // NOSCRIPT proves nothing ran; the EVALSHA after SCRIPT LOAD deducted.
            deductRecord(p, "not run: NOSCRIPT (the script is not loaded); loading it",
                         "script mode; order 9001"),
            deductRecord(p, "deducted: remaining 7", "script mode; order 9001"),
            deductRecord(p, "deducted: remaining 4", "script mode; order 9002"),
        };
        const auto prior = priorInAudit(records, p, KeySchema(), Server);
        QCOMPARE(prior.size(), 2);
        // Another server's calls (another demo, another site) are not this stock's.
        QVERIFY(priorInAudit(records, p, KeySchema(), "127.0.0.1:7000").isEmpty());
        QVERIFY(!prior[0].mayHaveDeducted);
        QVERIFY(prior[1].mayHaveDeducted);
        const QString w = repeatWarning(p, prior);
        QVERIFY2(w.contains("an earlier call") && w.contains("audit log"), qPrintable(w));
    }

    void functionRetryWithAnotherQuantitySaysSo()
    {
        const DeductionPlan earlier = plan(DeductionMode::Function, "9001", "3");
        const QList<AuditRecord> records{
            deductRecord(earlier, "deducted: remaining 7", "function mode")};
        const DeductionPlan other = plan(DeductionMode::Function, "9001", "5");
        const auto prior = priorInAudit(records, other, KeySchema(), Server);
        QCOMPARE(prior.size(), 1);
        QCOMPARE(prior[0].quantity, QByteArray("3"));
        const QString w = repeatWarning(other, prior);
        QVERIFY2(w.contains("quantity 3") && w.contains("asks for 5")
                     && w.contains("deducts nothing"),
                 qPrintable(w));
        QVERIFY(!repeatMayDeductTwice(other, prior)); // the receipt protects it
        // The same quantity again is the safe retry v1 is made for.
        const DeductionPlan same = plan(DeductionMode::Function, "9001", "3");
        QVERIFY(repeatWarning(same, priorInAudit(records, same, KeySchema(), Server)).isEmpty());
    }

    void theSameCallIsCountedOnce()
    {
        DeductionHistory h;
        const DeductionPlan p = plan(DeductionMode::Script, "9001", "3");
        h.add(result(p, OutcomeKind::Deducted));
        AuditRecord same = deductRecord(p, "deducted: remaining 7", "script mode; order 9001");
        same.timeUtc = QDateTime::currentDateTimeUtc();
        // The same call's NOSCRIPT record comes first and is not the history entry.
        AuditRecord noscript = same;
        noscript.result = "not run: NOSCRIPT (the script is not loaded); loading it";
        const AuditRecord older =
            deductRecord(p, "deducted: remaining 10", "script mode; order 9001");
        const auto merged = mergePrior(
            priorInHistory(h, p), priorInAudit({older, noscript, same}, p, KeySchema(), Server));
        QCOMPARE(merged.size(), 3);
        QCOMPARE(merged[0].source, PriorDeduction::Source::History);
        QCOMPARE(merged[1].result, QStringLiteral("deducted: remaining 10"));
        QVERIFY(!merged[2].mayHaveDeducted); // the NOSCRIPT record, not a deduction
        QVERIFY2(repeatWarning(p, merged).contains("2 earlier calls"),
                 qPrintable(repeatWarning(p, merged)));
    }

    void nearestSkusPreferNamesHoldingTheTypedText()
    {
        QVERIFY(skuDistance("1001", "sku-1001") < skuDistance("1001", "1002"));
        QVERIFY(skuDistance("sku-1010", "sku-1001") < skuDistance("sku-1010", "widget-9"));
        QCOMPARE(skuDistance("SKU-1001", "sku-1001"), 0);
    }
};

QTEST_GUILESS_MAIN(TstDeductPrior)
#include "tst_deduct_prior.moc"
