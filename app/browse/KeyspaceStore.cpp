// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyspaceStore.h"

#include "Values.h"

#include <QCoreApplication>
#include <QHashFunctions>
#include <QRandomGenerator>

namespace browse {

namespace {
// The anomaly names the Keys tab shows are translated there; the CLI prints the English.
struct KeyspaceStoreText
{
    Q_DECLARE_TR_FUNCTIONS(browse::KeyspaceStore)
};
} // namespace

QString anomalyName(Anomaly a)
{
    switch (a) {
    case StockNotInteger:
        return KeyspaceStoreText::tr("stock not a canonical integer");
    case StockNegative:
        return KeyspaceStoreText::tr("stock negative");
    case StockHasTtl:
        return KeyspaceStoreText::tr("stock key has a TTL");
    case ReceiptNoTtl:
        return KeyspaceStoreText::tr("receipt without TTL");
    case ReceiptStockMissing:
        return KeyspaceStoreText::tr("receipt, stock key missing");
    case ReceiptNotInteger:
        return KeyspaceStoreText::tr("receipt remaining not an integer");
    }
    return {};
}

Anomaly anomalyAt(int index)
{
    return Anomaly(1 << index);
}

KeyspaceStore::KeyspaceStore(inventory::KeySchema schema)
    : m_schema(std::move(schema))
    , m_seed(QRandomGenerator::global()->generate()) // keys come from outside: seed the hash
{}

void KeyspaceStore::clear()
{
    const quint64 revision = m_revision, epoch = m_epoch;
    *this = KeyspaceStore(m_schema);
    m_revision = revision + 1; // never back: views compare revisions
    m_epoch = epoch + 1;
}

void KeyspaceStore::reserve(size_t skus, size_t receipts)
{
    m_skuIndex.reserve(skus);
    m_skus.reserve(skus);
    m_skuNames.reserve(skus, skus * 12);
    m_receiptIndex.reserve(receipts, receiptHashOf());
    m_receiptSku.reserve(receipts);
    m_receiptNext.reserve(receipts);
    m_remaining.reserve(receipts);
    m_receiptExpiry.reserve(receipts);
    m_receiptFlags.reserve(receipts);
    m_orders.reserve(receipts, receipts * 12);
}

size_t KeyspaceStore::skuHash(QByteArrayView name) const
{
    return qHash(name, m_seed);
}

size_t KeyspaceStore::receiptHash(QByteArrayView sku, QByteArrayView order) const
{
    // By the SKU's name, not its row: a page can hash (and prefetch) before interning.
    return qHash(order, qHash(sku, m_seed));
}

uint32_t KeyspaceStore::findSku(QByteArrayView name) const
{
    return m_skuIndex.find(skuHash(name), [&](uint32_t id) { return m_skuNames.view(id) == name; });
}

uint32_t KeyspaceStore::internSku(QByteArrayView name, size_t h)
{
    const uint32_t found =
        m_skuIndex.find(h, [&](uint32_t id) { return m_skuNames.view(id) == name; });
    if (found != None)
        return found;
    bool ok = true;
    const uint32_t id = m_skuNames.add(name, &ok);
    if (!ok) {
        m_overflow = true;
        return None;
    }
    m_skuIndex.insert(h, id);
    m_skus.emplace_back();
    ++m_revision;
    return id;
}

qint64 InventorySummary::anomalyTotal() const
{
    qint64 n = 0;
    for (qint64 a : anomalies)
        n += a;
    return n;
}

void KeyspaceStore::accountSku(uint32_t s, int sign)
{
    const bool present = stockPresent(s);
    const SkuRow &row = m_skus[s];
    if (present || row.receipts > 0)
        m_totals.skus += sign;
    if (present)
        m_totals.stockKeys += sign;
    if (stockState(s) == StockState::Integer && row.stockValue >= 0 && row.stockValue <= MaxStock)
        m_totals.stockTotal += sign * row.stockValue;
    const uint8_t a = skuAnomalies(s);
    for (int i = 0; i < AnomalyKinds; ++i)
        if (a & anomalyAt(i))
            m_totals.anomalies[size_t(i)] += sign;
    // "Stock key missing" is a receipt anomaly that follows from the SKU's state.
    if (stockState(s) == StockState::Missing)
        m_totals.anomalies[4] += sign * qint64(row.receipts);
}

void KeyspaceStore::accountReceipt(uint32_t r, int sign)
{
    if (!receiptAlive(r))
        return;
    m_totals.receipts += sign;
    if (m_receiptExpiry[r] == NoExpiryCode)
        m_totals.anomalies[3] += sign;
    if (receiptValue(r) != ReceiptValue::Integer)
        m_totals.anomalies[5] += sign;
}

void KeyspaceStore::setStock(uint32_t s, const StockReading &r)
{
    accountSku(s, -1);
    SkuRow &row = m_skus[s];
    row.state = uint8_t(r.state);
    row.stockValue = r.value;
    row.stockExpiry = r.expiryMs;
    if (r.state == StockState::NotInteger || r.state == StockState::WrongType)
        m_stockRaw.insert(s, r.raw);
    else
        m_stockRaw.remove(s);
    accountSku(s, +1);
    ++m_revision;
}

void KeyspaceStore::setStockMissing(uint32_t s)
{
    setStock(s, StockReading{StockState::Missing, 0, {}, NoExpiry});
}

uint8_t KeyspaceStore::skuAnomalies(uint32_t s) const
{
    uint8_t a = 0;
    const StockState st = stockState(s);
    if (st == StockState::NotInteger || st == StockState::WrongType
        || (st == StockState::Integer && m_skus[s].stockValue > MaxStock))
        a |= StockNotInteger;
    if (st == StockState::Integer && m_skus[s].stockValue < 0)
        a |= StockNegative;
    if (st >= StockState::Integer && m_skus[s].stockExpiry != NoExpiry)
        a |= StockHasTtl;
    return a;
}

uint32_t KeyspaceStore::findReceipt(uint32_t s, QByteArrayView order) const
{
    return m_receiptIndex.find(receiptHash(skuName(s), order), [&](uint32_t id) {
        return m_receiptSku[id] == s && m_orders.view(id) == order;
    });
}

QByteArray KeyspaceStore::receiptKey(uint32_t r) const
{
    return m_schema.receiptKey(m_skuNames.bytes(m_receiptSku[r]), m_orders.bytes(r));
}

uint32_t KeyspaceStore::putReceipt(uint32_t s, QByteArrayView order, const ReceiptReading &r,
                                   size_t h)
{
    accountSku(s, -1);
    SkuRow &row = m_skus[s];
    uint32_t id = m_receiptIndex.find(
        h, [&](uint32_t i) { return m_receiptSku[i] == s && m_orders.view(i) == order; });
    if (id == None) {
        bool ok = true;
        id = m_orders.add(order, &ok);
        if (!ok) {
            m_overflow = true;
            accountSku(s, +1);
            return None;
        }
        m_receiptIndex.insert(h, id, receiptHashOf());
        m_receiptSku.push_back(s);
        m_receiptNext.push_back(row.first);
        row.first = id;
        m_remaining.push_back(0);
        m_receiptExpiry.push_back(NoExpiryCode);
        m_receiptFlags.push_back(0);
        ++row.receipts;
        ++m_receiptsAlive;
    } else {
        accountReceipt(id, -1);
    }
    const qint64 before = receiptExpiryMs(id);
    if (r.remaining > WideRemaining && r.remaining <= std::numeric_limits<int32_t>::max()) {
        m_remaining[id] = int32_t(r.remaining);
        m_wideRemaining.remove(id);
    } else {
        m_remaining[id] = WideRemaining;
        m_wideRemaining.insert(id, r.remaining);
    }
    m_receiptExpiry[id] = encodeExpiry(r.expiryMs);
    const qint64 expiry = receiptExpiryMs(id); // as stored (far ones rounded)
    m_receiptFlags[id] = uint8_t(r.value) | (r.hash ? Hash : 0);
    if (r.value == ReceiptValue::Integer || r.value == ReceiptValue::MissingField)
        m_receiptRaw.remove(id);
    else
        m_receiptRaw.insert(id, r.raw);
    if (r.hash)
        m_hashFields.insert(id, HashFields{r.quantity, r.time});
    else
        m_hashFields.remove(id);
    if (expiry != NoExpiry && expiry < row.soonest)
        row.soonest = expiry;
    else if (before != NoExpiry && before == row.soonest && expiry != before)
        recomputeSoonest(s); // the soonest one moved later (a refresh after EXPIRE)
    accountReceipt(id, +1);
    accountSku(s, +1);
    ++m_revision;
    return id;
}

void KeyspaceStore::removeReceipt(uint32_t r)
{
    if (!receiptAlive(r))
        return;
    const uint32_t s = m_receiptSku[r];
    accountSku(s, -1);
    accountReceipt(r, -1);
    m_receiptIndex.erase(receiptHash(skuName(s), m_orders.view(r)), r);
    // Unlink from the SKU's chain (one SKU's receipts: short).
    SkuRow &row = m_skus[s];
    if (row.first == r) {
        row.first = m_receiptNext[r];
    } else {
        for (uint32_t p = row.first; p != None; p = m_receiptNext[p])
            if (m_receiptNext[p] == r) {
                m_receiptNext[p] = m_receiptNext[r];
                break;
            }
    }
    m_receiptNext[r] = None;
    m_receiptFlags[r] |= Gone;
    m_receiptRaw.remove(r);
    m_hashFields.remove(r);
    m_wideRemaining.remove(r);
    --row.receipts;
    --m_receiptsAlive;
    recomputeSoonest(s);
    accountSku(s, +1);
    ++m_revision;
}

int32_t KeyspaceStore::encodeExpiry(qint64 expiryMs)
{
    if (expiryMs == NoExpiry)
        return NoExpiryCode;
    if (m_expiryBase == 0)
        m_expiryBase = expiryMs;
    constexpr qint64 Range = qint64(1) << 30;
    const qint64 delta = expiryMs - m_expiryBase;
    if (delta > -Range && delta < Range)
        return int32_t(delta * 2);
    // Whole seconds, rounded down (towards earlier), clamped to +-34 years.
    const qint64 seconds =
        qBound(-Range + 1, delta >= 0 ? delta / 1000 : -((-delta + 999) / 1000), Range - 1);
    return int32_t(seconds * 2 + 1);
}

void KeyspaceStore::recomputeSoonest(uint32_t s)
{
    qint64 soonest = NoReceiptExpiry;
    for (uint32_t r = m_skus[s].first; r != None; r = m_receiptNext[r])
        if (const qint64 e = receiptExpiryMs(r); e != NoExpiry && e < soonest)
            soonest = e;
    m_skus[s].soonest = soonest;
}

uint8_t KeyspaceStore::receiptAnomalies(uint32_t r) const
{
    if (!receiptAlive(r))
        return 0;
    uint8_t a = 0;
    if (m_receiptExpiry[r] == NoExpiryCode)
        a |= ReceiptNoTtl;
    if (stockState(m_receiptSku[r]) == StockState::Missing)
        a |= ReceiptStockMissing;
    if (receiptValue(r) != ReceiptValue::Integer)
        a |= ReceiptNotInteger;
    return a;
}

size_t KeyspaceStore::memoryBytes() const
{
    auto v = [](const auto &vec) {
        return vec.capacity() * sizeof(vec[0]);
    };
    return m_skuNames.memoryBytes() + m_skuIndex.memoryBytes() + v(m_skus) + m_orders.memoryBytes()
           + m_receiptIndex.memoryBytes() + v(m_receiptSku) + v(m_receiptNext) + v(m_remaining)
           + v(m_receiptExpiry) + v(m_receiptFlags);
}

} // namespace browse
