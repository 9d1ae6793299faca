// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Finding.h"
#include "ReceiptPolicy.h"
#include "browse/KeyspaceStore.h"
#include "core/Wording.h"
#include "ledger/LedgerRow.h"

#include <QCoreApplication>
#include <QHash>
#include <array>
#include <functional>
#include <vector>

namespace reconcile {

constexpr qint64 DefaultGraceMs = 15 * 60 * 1000;

// Which orders are compared: SKUs matching a glob (empty: all; the scan is filtered the same
// way), ledger rows in a time window, and how long a receipt absent from the ledger is given
// before it is called a release candidate (an export runs behind the orders being written).
struct Scope
{
    QByteArray skuGlob;
    qint64 sinceMs = ledger::NoTime, untilMs = ledger::NoTime; // [since, until)
    qint64 nowMs = 0;
    qint64 graceMs = DefaultGraceMs;
    bool hasWindow() const { return sinceMs != ledger::NoTime || untilMs != ledger::NoTime; }
    bool inWindow(qint64 ms) const;
};

// What was counted besides the findings: rows and receipts left out, and why.
struct Tally
{
    std::array<qint64, FindingClasses> findings{};
    qint64 divergent = 0;
    qint64 rowsCompared = 0;
    qint64 rowsOutOfScope = 0;     // another SKU, or outside the window
    qint64 rowsNotDeducted = 0;    // failed or cancelled, no receipt, no release: nothing to do
    qint64 rowsPending = 0;        // pending rows: never a release candidate
    qint64 receiptsTooRecent = 0;  // absent from the ledger, younger than the grace period
    qint64 receiptsAgeUnknown = 0; // absent from the ledger, a v1 receipt (no time recorded)
    qint64 receiptsOutOfWindow = 0;
};

// Per SKU: what Redis holds against what the ledger committed in scope.
struct SkuBalance
{
    QByteArray sku;
    bool stockKnown = false;
    // Why there is no number: "no stock key", "not an integer", "not read" (a SKU only the
    // ledger names is not looked up).
    QString stockProblem;
    qint64 stock = 0;
    qint64 receipts = 0, receiptUnits = 0, receiptsWithoutQuantity = 0;
    qint64 committedOrders = 0, committedUnits = 0;
    // Receipted units equal committed units, and every receipt recorded its quantity.
    bool balanced() const { return receiptsWithoutQuantity == 0 && receiptUnits == committedUnits; }
    QJsonObject json() const;
};

// The comparison itself, with no I/O: the receipts come from a finished scan (one compact
// entry each in the KeyspaceStore: SKU id, order id, remaining, quantity, time), the ledger one
// row at a time, and whether a release key exists from the caller (ReconcileRun reads them in
// batches). It holds 9 bytes per receipt (what the ledger said of it, the units it committed
// and the units of failed or cancelled rows) and
// one counter pair per SKU; never the ledger. Findings go to the sink as soon as they are
// known: rows without a receipt while the ledger is read, receipts at the end.
class Reconciler
{
    Q_DECLARE_TR_FUNCTIONS(reconcile::Reconciler)

public:
    using Sink = std::function<void(const Finding &)>;
    Reconciler(const browse::KeyspaceStore &store, Scope scope, ReceiptPolicy policy, Sink sink);

    // Phase 1, for each ledger row: in scope? (counted when not); its receipt (None: none).
    bool inScope(const ledger::LedgerRow &row);
    uint32_t receiptOf(const ledger::LedgerRow &row) const;
    void addRow(const ledger::LedgerRow &row, uint32_t receipt, bool released);

    // Phase 2, for each live receipt in row order: whether its release key must be read (no
    // ledger row said anything of it), then the judgement. `releaseRead` false: `released`
    // (and the rows') came from a scan that did not list the key, which does not prove it
    // absent now; a verdict that would be a release candidate then reports nothing and
    // returns false, and the caller reads the key (EXISTS) and judges again with it.
    bool needsReleaseRead(uint32_t receipt) const;
    bool judgeReceipt(uint32_t receipt, bool released, bool releaseRead = true);

    // Without sentences, findings carry their facts only (Finding::sentence empty): --raw
    // prints none, and a million of them cost a second of formatting.
    void setSentences(bool on) { m_sentences = on; }

    const Tally &tally() const { return m_tally; }
    std::vector<SkuBalance> balances() const; // every SKU in scope, store order then ledger's
    const ReceiptPolicy &policy() const { return m_policy; }

private:
    enum Seen : uint8_t {
        Committed = 1,
        Cancelled = 2,
        Failed = 4,
        Pending = 8,
        ReleaseKey = 16,
        ComparedRow = 32, // an in-scope row matched it
    };
    void report(Finding f);
    // The same with the sentence `words(tr)` makes, made only when sentences are wanted: in the
    // window's language, and for a divergent finding in English too (Finding::englishSentence).
    template<typename Words>
    void report(Finding f, Words &&words);
    // Translates in the context lupdate gives this class's tr("...") calls.
    struct Tr
    {
        core::Wording wording;
        QString operator()(const char *source) const
        {
            return core::word(wording, "reconcile::Reconciler", source);
        }
    };
    const QString &policySentence(const Tr &tr) const
    {
        return tr.wording == core::Wording::English ? m_policySentenceEnglish : m_policySentence;
    }
    static QString committedSentence(const Tr &tr, qint64 committed, std::optional<qint64> recorded,
                                     const QString &o, const QString &sku);
    // A committed order with no receipt: what happened, what the TTL policy and the order's
    // age say of it, and what to do.
    QString missingReceiptSentence(const Tr &tr, const ledger::LedgerRow &row, const QString &o,
                                   const QString &sku) const;
    std::optional<qint64> receiptQuantity(uint32_t r) const;
    // A receipt whose order the ledger does not have: a release candidate once the grace
    // period has passed and its age is known.
    // False when it would be a candidate and the release key was not read (judgeReceipt).
    bool judgeAbsent(Finding f, std::optional<qint64> written, const QString &o, const QString &sku,
                     std::optional<qint64> recorded, bool releaseRead);
    std::optional<qint64> receiptTimeMs(uint32_t r) const;
    struct LedgerUnits
    {
        qint64 orders = 0, units = 0;
    };
    LedgerUnits &unitsOf(const QByteArray &sku);

    const browse::KeyspaceStore &m_store;
    Scope m_scope;
    ReceiptPolicy m_policy;
    QString m_policySentence; // built once: a million missing receipts share it
    QString m_policySentenceEnglish;
    Sink m_sink;
    std::vector<uint8_t> m_seen;                // per receipt row
    std::vector<uint32_t> m_committed;          // per receipt row: units the ledger committed
    std::vector<uint32_t> m_notCommitted;       // per receipt row: units of failed/cancelled rows
    std::vector<LedgerUnits> m_skuUnits;        // per store SKU
    QHash<QByteArray, LedgerUnits> m_otherSkus; // ledger SKUs Redis has no key of
    Tally m_tally;
    bool m_sentences = true;
};

// Seconds.microseconds as the v2 function records `time`, to ms; nullopt if not that.
std::optional<qint64> receiptTimeToMs(QByteArrayView text);

} // namespace reconcile
