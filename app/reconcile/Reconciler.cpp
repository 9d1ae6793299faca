// SPDX-License-Identifier: GPL-3.0-or-later
#include "Reconciler.h"

#include "browse/Glob.h"
#include "core/Bytes.h"
#include "core/CanonicalInteger.h"

#include <QDateTime>

namespace reconcile {

namespace {

QString order(const QByteArray &id)
{
    return core::escapeBytes(id, 80);
}

QString at(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

} // namespace

bool Scope::inWindow(qint64 ms) const
{
    if (ms == ledger::NoTime)
        return !hasWindow();
    return (sinceMs == ledger::NoTime || ms >= sinceMs)
           && (untilMs == ledger::NoTime || ms < untilMs);
}

QJsonObject SkuBalance::json() const
{
    return {{QStringLiteral("sku"), QString::fromUtf8(sku)},
            {QStringLiteral("stock"), stockKnown ? QJsonValue(double(stock)) : QJsonValue()},
            {QStringLiteral("stock_problem"), stockProblem},
            {QStringLiteral("receipts"), double(receipts)},
            {QStringLiteral("receipt_units"), double(receiptUnits)},
            {QStringLiteral("receipts_without_quantity"), double(receiptsWithoutQuantity)},
            {QStringLiteral("committed_orders"), double(committedOrders)},
            {QStringLiteral("committed_units"), double(committedUnits)},
            {QStringLiteral("balanced"), balanced()}};
}

std::optional<qint64> receiptTimeToMs(QByteArrayView text)
{
    const qsizetype dot = text.indexOf('.');
    const auto seconds = core::parseCanonicalInteger(dot < 0 ? text : text.first(dot));
    if (!seconds || *seconds < 0)
        return std::nullopt;
    qint64 ms = *seconds * 1000;
    if (dot >= 0) {
        const QByteArrayView micro = text.sliced(dot + 1);
        if (micro.size() != 6 || !std::all_of(micro.begin(), micro.end(), [](char c) {
                return c >= '0' && c <= '9';
            }))
            return std::nullopt;
        ms += (micro[0] - '0') * 100 + (micro[1] - '0') * 10 + (micro[2] - '0');
    }
    return ms;
}

Reconciler::Reconciler(const browse::KeyspaceStore &store, Scope scope, ReceiptPolicy policy,
                       Sink sink)
    : m_store(store)
    , m_scope(std::move(scope))
    , m_policy(std::move(policy))
    , m_policySentence(m_policy.sentence())
    , m_policySentenceEnglish(m_policy.sentence(core::Wording::English))
    , m_sink(std::move(sink))
    , m_seen(store.receiptRows(), 0)
    , m_committed(store.receiptRows(), 0)
    , m_notCommitted(store.receiptRows(), 0)
    , m_skuUnits(store.skuCount())
{}

bool Reconciler::inScope(const ledger::LedgerRow &row)
{
    const bool in = (m_scope.skuGlob.isEmpty() || browse::globMatch(m_scope.skuGlob, row.sku))
                    && m_scope.inWindow(row.timeMs);
    if (!in)
        ++m_tally.rowsOutOfScope;
    return in;
}

uint32_t Reconciler::receiptOf(const ledger::LedgerRow &row) const
{
    const uint32_t s = m_store.findSku(row.sku);
    if (s == browse::KeyspaceStore::None)
        return browse::KeyspaceStore::None;
    const uint32_t r = m_store.findReceipt(s, row.orderId);
    return r != browse::KeyspaceStore::None && m_store.receiptAlive(r)
               ? r
               : browse::KeyspaceStore::None;
}

Reconciler::LedgerUnits &Reconciler::unitsOf(const QByteArray &sku)
{
    const uint32_t s = m_store.findSku(sku);
    return s != browse::KeyspaceStore::None ? m_skuUnits[s] : m_otherSkus[sku];
}

template<typename Words>
void Reconciler::report(Finding f, Words &&words)
{
    if (m_sentences) {
        f.sentence = words(Tr{core::Wording::Translated});
        // A divergent finding may be released from the window, and the audit record of that
        // release quotes it: in English whatever the window shows. Kept only when it differs.
        if (f.divergent) {
            QString english = words(Tr{core::Wording::English});
            if (english != f.sentence)
                f.englishSentence = std::move(english);
        }
    }
    report(std::move(f));
}

void Reconciler::report(Finding f)
{
    ++m_tally.findings[size_t(f.cls)];
    if (f.divergent)
        ++m_tally.divergent;
    m_sink(f);
}

QString Reconciler::missingReceiptSentence(const Tr &tr, const ledger::LedgerRow &row,
                                           const QString &o, const QString &sku) const
{
    // Sentences whole, joined by a space: a translation keeps its own word order.
    QStringList words{tr("Order %1 is committed in the ledger for %2 of SKU %3 but "
                         "Redis holds no receipt for it: a retry would deduct again.")
                          .arg(o)
                          .arg(row.quantity)
                          .arg(sku),
                      policySentence(tr)};
    if (row.timeMs != ledger::NoTime) {
        const qint64 ago = m_scope.nowMs - row.timeMs;
        words << (ago > m_policy.ttlSeconds * 1000
                      ? tr("It was committed %1 ago, longer than receipts live: its "
                           "receipt has most likely expired.")
                            .arg(durationText(ago, tr.wording))
                      : tr("It was committed %1 ago, within the receipt TTL: expiry "
                           "does not explain it.")
                            .arg(durationText(std::max<qint64>(ago, 0), tr.wording)));
    }
    words << tr("Do not retry this order; if its stock was never deducted, adjust the "
                "stock by hand.");
    return words.join(QLatin1Char(' '));
}

void Reconciler::addRow(const ledger::LedgerRow &row, uint32_t receipt, bool released)
{
    ++m_tally.rowsCompared;
    if (row.state == ledger::OrderState::Committed) {
        // The receipt's SKU is the row's: no second lookup by name.
        LedgerUnits &u = receipt != browse::KeyspaceStore::None
                             ? m_skuUnits[m_store.skuOfReceipt(receipt)]
                             : unitsOf(row.sku);
        ++u.orders;
        u.units += row.quantity;
    }
    if (receipt != browse::KeyspaceStore::None) {
        // Judged with its receipt at the end: several rows (a split line) add up first.
        static constexpr uint8_t bit[] = {Committed, Cancelled, Failed, Pending};
        m_seen[receipt] |= bit[size_t(row.state)] | ComparedRow | (released ? ReleaseKey : 0);
        if (row.state == ledger::OrderState::Committed)
            m_committed[receipt] += uint32_t(row.quantity);
        else if (row.state != ledger::OrderState::Pending)
            m_notCommitted[receipt] += uint32_t(row.quantity);
        return;
    }
    Finding f{row.orderId, row.sku, row.quantity, FindingClass::Released, false, {}, {}};
    const QString o = m_sentences ? order(row.orderId) : QString(),
                  sku = m_sentences ? core::escapeBytes(row.sku, 80) : QString();
    switch (row.state) {
    case ledger::OrderState::Committed:
        f.divergent = true;
        if (released) {
            report(std::move(f), [&](const Tr &tr) {
                return tr("Order %1 is committed in the ledger for %2 of SKU %3, but its "
                          "deduction was released (the release key exists) and no receipt is "
                          "left: stock was given back for a sold item. Check the order, then "
                          "deduct %2 again by hand.")
                    .arg(o)
                    .arg(row.quantity)
                    .arg(sku);
            });
            return;
        }
        f.cls = FindingClass::MissingReceipt;
        report(std::move(f), [&](const Tr &tr) { return missingReceiptSentence(tr, row, o, sku); });
        return;
    case ledger::OrderState::Cancelled:
    case ledger::OrderState::Failed:
        if (!released) {
            ++m_tally.rowsNotDeducted;
            return;
        }
        report(std::move(f), [&](const Tr &tr) {
            return (row.state == ledger::OrderState::Failed
                        ? tr("Order %1 is failed in the ledger and its deduction of SKU %2 was "
                             "released already (the release key exists): nothing to do.")
                        : tr("Order %1 is cancelled in the ledger and its deduction of SKU %2 "
                             "was released already (the release key exists): nothing to do."))
                .arg(o, sku);
        });
        return;
    case ledger::OrderState::Pending:
        ++m_tally.rowsPending;
        return;
    }
}

std::optional<qint64> Reconciler::receiptQuantity(uint32_t r) const
{
    if (!m_store.receiptIsHash(r))
        return std::nullopt;
    const auto q = core::parseCanonicalInteger(m_store.receiptQuantity(r));
    return q && *q >= 1 && *q <= ledger::MaxQuantity ? q : std::nullopt;
}

std::optional<qint64> Reconciler::receiptTimeMs(uint32_t r) const
{
    if (!m_store.receiptIsHash(r))
        return std::nullopt;
    return receiptTimeToMs(m_store.receiptTime(r));
}

bool Reconciler::needsReleaseRead(uint32_t r) const
{
    return m_store.receiptAlive(r) && !(m_seen[r] & ComparedRow);
}

namespace {
// A committed order with its receipt: in line, or the quantities differ (a v2 receipt).
void judgeCommitted(Finding &f, qint64 committed, std::optional<qint64> recorded)
{
    f.cls =
        recorded && *recorded != committed ? FindingClass::QuantityDiffers : FindingClass::InLine;
    f.divergent = f.cls == FindingClass::QuantityDiffers;
    if (!recorded)
        f.quantity = committed;
}
} // namespace

QString Reconciler::committedSentence(const Tr &tr, qint64 committed,
                                      std::optional<qint64> recorded, const QString &o,
                                      const QString &sku)
{
    if (!recorded)
        return tr("Order %1 is committed for %2 of SKU %3 and its receipt exists (a v1 receipt "
                  "records no quantity: only the deduction itself was compared).")
            .arg(o)
            .arg(committed)
            .arg(sku);
    if (*recorded == committed)
        return tr("Order %1 is committed for %2 of SKU %3 and its receipt recorded %2: in line.")
            .arg(o)
            .arg(committed)
            .arg(sku);
    const qint64 d = *recorded - committed;
    return (d > 0 ? tr("Order %1's receipt deducted %2 of SKU %3 but the ledger committed %4: "
                       "the stock is short by %5. Check the order, then adjust the stock by %6.")
                  : tr("Order %1's receipt deducted %2 of SKU %3 but the ledger committed %4: "
                       "the stock is over by %5. Check the order, then adjust the stock by %6."))
        .arg(o)
        .arg(*recorded)
        .arg(sku)
        .arg(committed)
        .arg(std::abs(d))
        .arg(d > 0 ? QStringLiteral("+%1").arg(d) : QString::number(d));
}

bool Reconciler::judgeReceipt(uint32_t r, bool released, bool releaseRead)
{
    if (!m_store.receiptAlive(r))
        return true;
    const uint8_t seen = m_seen[r] | (released ? ReleaseKey : 0);
    const QByteArray orderId = m_store.orderId(r).toByteArray();
    const QByteArray skuName = m_store.skuName(m_store.skuOfReceipt(r)).toByteArray();
    const QString o = m_sentences ? order(orderId) : QString(),
                  sku = m_sentences ? core::escapeBytes(skuName, 80) : QString();
    // The scan was filtered by the same glob; a store filled otherwise is held to it too.
    if (!m_scope.skuGlob.isEmpty() && !browse::globMatch(m_scope.skuGlob, skuName))
        return true;
    const auto recorded = receiptQuantity(r);
    const auto written = receiptTimeMs(r);
    if (!(seen & ComparedRow) && !m_scope.inWindow(written.value_or(ledger::NoTime))) {
        if (written || !m_scope.hasWindow())
            ++m_tally.receiptsOutOfWindow;
        else
            ++m_tally.receiptsAgeUnknown; // a v1 receipt: its time is not known
        return true;
    }
    Finding f{orderId, skuName, recorded.value_or(0), FindingClass::Released, false, {}, {}};
    if (seen & ReleaseKey) {
        f.divergent = seen & Committed;
        const bool sold = f.divergent;
        report(std::move(f), [&](const Tr &tr) {
            return (sold ? tr("Order %1 is committed in the ledger, yet its deduction of SKU %2 "
                              "was released (the release key exists) while its receipt remains: "
                              "stock was given back for a sold item. Check the order before "
                              "deducting again.")
                         : tr("Order %1's deduction of SKU %2 was released already (the release "
                              "key exists): nothing to do."))
                .arg(o, sku);
        });
        return true;
    }
    if (seen & Committed) {
        const qint64 committed = m_committed[r];
        judgeCommitted(f, committed, recorded);
        report(std::move(f),
               [&](const Tr &tr) { return committedSentence(tr, committed, recorded, o, sku); });
        return true;
    }
    if (seen & (Failed | Cancelled)) {
        if (!releaseRead)
            return false;
        f.cls = FindingClass::ReleaseCandidate;
        if (!recorded) // a v1 receipt: the ledger's quantity, named as such
            f.quantity = m_notCommitted[r];
        f.divergent = true;
        const qint64 quantity = f.quantity;
        report(std::move(f), [&](const Tr &tr) {
            const QString units =
                recorded ? QString::number(*recorded) : tr("(by the ledger) %1").arg(quantity);
            return ((seen & Failed) ? tr("Order %1 is failed in the ledger but its receipt "
                                         "deducted %2 of SKU %3, never given back. Once the "
                                         "order is confirmed failed, release the deduction (it "
                                         "restores the units the receipt recorded).")
                                    : tr("Order %1 is cancelled in the ledger but its receipt "
                                         "deducted %2 of SKU %3, never given back. Once the "
                                         "order is confirmed cancelled, release the deduction "
                                         "(it restores the units the receipt recorded)."))
                .arg(o, units, sku);
        });
        return true;
    }
    if (seen & Pending) {
        ++m_tally.rowsPending; // the receipt of a pending order: not a candidate
        return true;
    }
    return judgeAbsent(std::move(f), written, o, sku, recorded, releaseRead);
}

bool Reconciler::judgeAbsent(Finding f, std::optional<qint64> written, const QString &o,
                             const QString &sku, std::optional<qint64> recorded, bool releaseRead)
{
    if (!written) {
        ++m_tally.receiptsAgeUnknown;
        return true;
    }
    const qint64 age = m_scope.nowMs - *written;
    if (age < m_scope.graceMs) {
        ++m_tally.receiptsTooRecent;
        return true;
    }
    if (!releaseRead)
        return false;
    f.cls = FindingClass::ReleaseCandidate;
    f.divergent = true;
    report(std::move(f), [&](const Tr &tr) {
        const QString units = recorded ? QString::number(*recorded) : tr("an unrecorded quantity");
        return tr("Order %1 has a receipt deducting %2 of SKU %3 written %4 ago (%5), and the "
                  "ledger has no row for it (grace period %6): a deduction without an order. "
                  "Check the order system, then release it.")
            .arg(o, units, sku, durationText(age, tr.wording), at(*written),
                 durationText(m_scope.graceMs, tr.wording));
    });
    return true;
}

std::vector<SkuBalance> Reconciler::balances() const
{
    std::vector<SkuBalance> out;
    for (uint32_t s = 0; s < m_store.skuCount(); ++s) {
        SkuBalance b;
        b.sku = m_store.skuName(s).toByteArray();
        if (!m_scope.skuGlob.isEmpty() && !browse::globMatch(m_scope.skuGlob, b.sku))
            continue;
        b.stockKnown = m_store.stockState(s) == browse::StockState::Integer;
        switch (m_store.stockState(s)) {
        case browse::StockState::Integer:
            break;
        case browse::StockState::Missing:
            b.stockProblem = tr("no stock key");
            break;
        case browse::StockState::NotInteger:
        case browse::StockState::WrongType:
            b.stockProblem = tr("not an integer");
            break;
        case browse::StockState::Unseen:
            b.stockProblem = tr("not read");
            break;
        }
        b.stock = m_store.stockValue(s);
        for (uint32_t r = m_store.firstReceiptOf(s); r != browse::KeyspaceStore::None;
             r = m_store.nextReceipt(r)) {
            if (!m_store.receiptAlive(r))
                continue;
            const bool compared = m_seen[r] & ComparedRow;
            if (!compared && !m_scope.inWindow(receiptTimeMs(r).value_or(ledger::NoTime)))
                continue;
            ++b.receipts;
            if (const auto q = receiptQuantity(r))
                b.receiptUnits += *q;
            else
                ++b.receiptsWithoutQuantity;
        }
        b.committedOrders = m_skuUnits[s].orders;
        b.committedUnits = m_skuUnits[s].units;
        if (b.receipts || b.committedOrders)
            out.push_back(std::move(b));
    }
    for (auto it = m_otherSkus.cbegin(); it != m_otherSkus.cend(); ++it) {
        SkuBalance b;
        b.sku = it.key();
        b.stockProblem = tr("not read");
        b.committedOrders = it->orders;
        b.committedUnits = it->units;
        out.push_back(std::move(b));
    }
    return out;
}

} // namespace reconcile
