// SPDX-License-Identifier: GPL-3.0-or-later
#include "reconcile/Reconciler.h"

#include <QTest>

using namespace reconcile;
using ledger::LedgerRow;
using ledger::OrderState;

// The comparison without I/O: split ledger lines add up, pending is never a candidate, a time
// window and an SKU glob leave rows and receipts out (counted, never judged), and a receipt
// whose age is unknown is not called a candidate.
class TstReconciler : public QObject
{
    Q_OBJECT

    static constexpr qint64 Now = 1800000000000;

    static browse::ReceiptReading v2(qint64 quantity, qint64 ageMs)
    {
        browse::ReceiptReading r;
        r.hash = true;
        r.remaining = 1;
        r.quantity = QByteArray::number(quantity);
        const qint64 at = Now - ageMs;
        r.time = QByteArray::number(at / 1000) + "."
                 + QByteArray::number(at % 1000 * 1000).rightJustified(6, '0');
        return r;
    }

    static LedgerRow row(const char *order, const char *sku, qint64 q, OrderState s,
                         qint64 timeMs = ledger::NoTime)
    {
        LedgerRow r;
        r.orderId = order;
        r.sku = sku;
        r.quantity = q;
        r.state = s;
        r.timeMs = timeMs;
        return r;
    }

    struct Run
    {
        QStringList lines;
        Tally tally;
    };

    // Feeds the rows (none released) and judges every receipt (none released).
    static Run run(const browse::KeyspaceStore &store, const QList<LedgerRow> &rows, Scope scope)
    {
        Run out;
        scope.nowMs = Now;
        Reconciler rec(store, scope, ReceiptPolicy{604800, {}},
                       [&](const Finding &f) { out.lines << rawLine(f); });
        for (const LedgerRow &r : rows)
            if (rec.inScope(r))
                rec.addRow(r, rec.receiptOf(r), false);
        for (uint32_t r = 0; r < store.receiptRows(); ++r)
            rec.judgeReceipt(r, false);
        out.lines.sort();
        out.tally = rec.tally();
        return out;
    }

private slots:
    void receiptTimes()
    {
        QCOMPARE(receiptTimeToMs("1764756000.250000"), std::optional<qint64>(1764756000250));
        QCOMPARE(receiptTimeToMs("1764756000"), std::optional<qint64>(1764756000000));
        QVERIFY(!receiptTimeToMs("1764756000.25"));
        QVERIFY(!receiptTimeToMs("-1.000000"));
        QVERIFY(!receiptTimeToMs(""));
    }

    void splitLinesAddUpAndPendingIsNeverACandidate()
    {
        browse::KeyspaceStore store;
        const uint32_t a = store.internSku("a");
        store.putReceipt(a, "split", v2(5, 3600000));
        store.putReceipt(a, "pend", v2(1, 3600000));
        store.putReceipt(a, "gone", v2(2, 3600000)); // absent from the ledger, an hour old
        store.putReceipt(a, "young", v2(2, 60000));  // absent, a minute old
        const Run r = run(store,
                          {row("split", "a", 2, OrderState::Committed),
                           row("split", "a", 3, OrderState::Committed),
                           row("pend", "a", 1, OrderState::Pending)},
                          Scope{});
        QCOMPARE(r.lines, (QStringList{"gone:a:2:release_candidate", "split:a:5:in_line"}));
        QCOMPARE(r.tally.rowsPending, 1);
        QCOMPARE(r.tally.receiptsTooRecent, 1);
        QCOMPARE(r.tally.divergent, 1);
    }

    void windowAndGlobLeaveThingsOutCounted()
    {
        browse::KeyspaceStore store;
        const uint32_t a = store.internSku("a"), b = store.internSku("b");
        store.putReceipt(a, "old", v2(1, 10 * 86400000LL)); // written before the window
        browse::ReceiptReading v1;
        v1.remaining = 3;
        store.putReceipt(a, "v1", v1); // no time: its age is not known
        store.putReceipt(b, "other", v2(1, 3600000));
        Scope scope;
        scope.sinceMs = Now - 86400000;
        scope.skuGlob = "a";
        const Run r = run(store,
                          {row("early", "a", 1, OrderState::Committed, Now - 2 * 86400000LL),
                           row("x", "b", 1, OrderState::Committed, Now - 1000)},
                          scope);
        QCOMPARE(r.lines, QStringList());
        QCOMPARE(r.tally.rowsOutOfScope, 2);
        QCOMPARE(r.tally.receiptsOutOfWindow, 1); // "old"; "other" is another SKU
        QCOMPARE(r.tally.receiptsAgeUnknown, 1);
    }

    void balancesPerSku()
    {
        browse::KeyspaceStore store;
        const uint32_t a = store.internSku("a");
        browse::StockReading stock;
        stock.state = browse::StockState::Integer;
        stock.value = 7;
        store.setStock(a, stock);
        store.putReceipt(a, "o1", v2(2, 3600000));
        Scope scope;
        scope.nowMs = Now;
        Reconciler rec(store, scope, ReceiptPolicy{604800, {}}, [](const Finding &) {});
        for (const LedgerRow &r :
             {row("o1", "a", 3, OrderState::Committed), row("o9", "z", 4, OrderState::Committed)})
            rec.addRow(r, rec.receiptOf(r), false);
        for (uint32_t r = 0; r < store.receiptRows(); ++r)
            rec.judgeReceipt(r, false);
        const auto balances = rec.balances();
        QCOMPARE(balances.size(), size_t(2));
        QCOMPARE(balances[0].sku, QByteArray("a"));
        QCOMPARE(balances[0].stock, 7);
        QCOMPARE(balances[0].receiptUnits, 2);
        QCOMPARE(balances[0].committedUnits, 3);
        QVERIFY(!balances[0].balanced());
        QCOMPARE(balances[1].sku, QByteArray("z"));
        QVERIFY(!balances[1].stockKnown);
        QCOMPARE(balances[1].stockProblem, QStringLiteral("not read"));
        QCOMPARE(balances[1].committedUnits, 4);
    }
};

QTEST_GUILESS_MAIN(TstReconciler)
#include "tst_reconciler.moc"
