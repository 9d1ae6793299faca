// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "CompactHashIndex.h"
#include "HashIndex.h"
#include "StringPool.h"
#include "inventory/KeySchema.h"

#include <QHash>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace browse {

// expiry value of a key that exists and has no TTL; expiries are absolute (ms since the epoch)
// so a TTL counts down without asking the server again.
constexpr qint64 NoExpiry = -1;
constexpr qint64 NoReceiptExpiry = std::numeric_limits<qint64>::max(); // soonest of none

enum class StockState : uint8_t {
    Unseen,     // no stock key seen (yet): the scan may still find it
    Missing,    // looked for after the scan, and absent
    Integer,    // a canonical integer (possibly negative or out of range: see anomalies)
    NotInteger, // a string that is not a canonical integer
    WrongType,  // not a string at all (raw holds the type name)
};

enum class ReceiptValue : uint8_t {
    Integer,      // recorded remaining is a canonical integer
    NotInteger,   // a string (or hash field) that is not
    MissingField, // a hash receipt without a "remaining" field
    WrongType,    // neither a string nor a hash (raw holds the type name)
};

// Bits: one per anomaly class the issue lists.
enum Anomaly : uint8_t {
    StockNotInteger = 1 << 0, // not a canonical integer, not a string, or above MaxStock
    StockNegative = 1 << 1,
    StockHasTtl = 1 << 2,
    ReceiptNoTtl = 1 << 3,
    ReceiptStockMissing = 1 << 4,
    ReceiptNotInteger = 1 << 5,
};
constexpr int AnomalyKinds = 6;
QString anomalyName(Anomaly a); // "stock not an integer", ...
Anomaly anomalyAt(int index);   // 0..AnomalyKinds-1, in the order above

// Totals over the store, kept current by every change (so a status line or `keys --summary`
// costs nothing, even at ten million keys).
struct InventorySummary
{
    qint64 skus = 0;      // SKUs with a stock key or at least one receipt
    qint64 stockKeys = 0; // stock keys present
    qint64 receipts = 0;
    qint64 stockTotal = 0; // sum of the canonical stock values from 0 to MaxStock
    // Per anomaly class (see anomalyAt): SKUs for stock classes, receipts for receipt ones.
    std::array<qint64, AnomalyKinds> anomalies{};
    qint64 anomalyTotal() const;
    bool operator==(const InventorySummary &) const = default;
};

struct StockReading
{
    StockState state = StockState::Unseen;
    qint64 value = 0;
    QByteArray raw; // the bytes when NotInteger, the type name when WrongType
    qint64 expiryMs = NoExpiry;
};

struct ReceiptReading
{
    bool hash = false; // the next library version writes hash receipts
    ReceiptValue value = ReceiptValue::Integer;
    qint64 remaining = 0;
    QByteArray raw;            // the bytes when NotInteger, the type name when WrongType
    QByteArray quantity, time; // hash receipts' other fields, as stored (may be empty)
    qint64 expiryMs = NoExpiry;
};

// Stock keys and receipts in packed arrays: a SKU or a receipt is a row number, receipts of
// one SKU chained through next[]. A million keys cost tens of MB, and models sort and filter
// index vectors over them. Receipts are columns (appended in order, read a column at a time
// when sorting); a SKU's few numbers share one 40-byte row, because every key of a scan
// touches its SKU at a random place, and one cache miss is cheaper than six. Rows are never
// renumbered: a deleted receipt becomes a tombstone, so ids held by models and in-flight
// refreshes stay valid. Not thread-safe: the scanner, the models and the refresher all run
// on one thread.
class KeyspaceStore
{
public:
    static constexpr uint32_t None = HashIndex::None;

    explicit KeyspaceStore(inventory::KeySchema schema = {});
    const inventory::KeySchema &schema() const { return m_schema; }
    void clear();
    // Capacity for this many SKUs and receipts, so a large scan never stops to grow (a
    // doubling of ten million rows is a copy the window would feel). Reserved memory is only
    // address space until rows land in it.
    void reserve(size_t skus, size_t receipts);
    // Bumped by every change, so views can tell cheaply whether to look again.
    quint64 revision() const { return m_revision; }
    // Bumped by clear() only: row ids taken before a different epoch mean nothing now.
    quint64 epoch() const { return m_epoch; }

    // --- SKUs
    uint32_t skuCount() const { return m_skuNames.size(); }
    uint32_t skuCapacity() const { return uint32_t(m_skus.capacity()); } // reserve()d
    uint32_t findSku(QByteArrayView name) const;
    uint32_t internSku(QByteArrayView name) { return internSku(name, skuHash(name)); }
    // The same with the hash computed beforehand (see prefetch()).
    uint32_t internSku(QByteArrayView name, size_t hash); // finds or adds
    size_t skuHash(QByteArrayView name) const;
    size_t receiptHash(QByteArrayView sku, QByteArrayView order) const;
    // Starts loading the index slots a page's keys will probe, so the lookups that follow
    // overlap their memory latency instead of paying it one key at a time.
    void prefetchSku(size_t skuHash) const { m_skuIndex.prefetch(skuHash); }
    void prefetchReceipt(size_t receiptHash) const { m_receiptIndex.prefetch(receiptHash); }
    QByteArrayView skuName(uint32_t s) const { return m_skuNames.view(s); }
    QByteArray stockKey(uint32_t s) const { return m_schema.stockKey(m_skuNames.bytes(s)); }
    StockState stockState(uint32_t s) const { return StockState(m_skus[s].state); }
    qint64 stockValue(uint32_t s) const { return m_skus[s].stockValue; }
    QByteArray stockRaw(uint32_t s) const { return m_stockRaw.value(s); }
    qint64 stockExpiryMs(uint32_t s) const { return m_skus[s].stockExpiry; }
    uint32_t receiptCountOf(uint32_t s) const { return m_skus[s].receipts; }
    qint64 soonestReceiptExpiryMs(uint32_t s) const { return m_skus[s].soonest; }
    bool stockPresent(uint32_t s) const { return stockState(s) >= StockState::Integer; }
    uint8_t skuAnomalies(uint32_t s) const;

    void setStock(uint32_t s, const StockReading &r);
    void setStockMissing(uint32_t s);

    // --- receipts
    uint32_t receiptRows() const { return uint32_t(m_receiptSku.size()); } // tombstones too
    uint32_t receiptCount() const { return m_receiptsAlive; }
    bool receiptAlive(uint32_t r) const { return !(m_receiptFlags[r] & Gone); }
    uint32_t firstReceiptOf(uint32_t s) const { return m_skus[s].first; }
    uint32_t nextReceipt(uint32_t r) const { return m_receiptNext[r]; }
    uint32_t findReceipt(uint32_t s, QByteArrayView order) const;
    uint32_t skuOfReceipt(uint32_t r) const { return m_receiptSku[r]; }
    QByteArrayView orderId(uint32_t r) const { return m_orders.view(r); }
    QByteArray receiptKey(uint32_t r) const;
    bool receiptIsHash(uint32_t r) const { return m_receiptFlags[r] & Hash; }
    ReceiptValue receiptValue(uint32_t r) const { return ReceiptValue(m_receiptFlags[r] & 3); }
    qint64 remaining(uint32_t r) const
    {
        const int32_t v = m_remaining[r];
        return v != WideRemaining ? v : m_wideRemaining.value(r);
    }
    QByteArray receiptRaw(uint32_t r) const { return m_receiptRaw.value(r); }
    QByteArray receiptQuantity(uint32_t r) const { return m_hashFields.value(r).quantity; }
    QByteArray receiptTime(uint32_t r) const { return m_hashFields.value(r).time; }
    // Exact to the ms within 12 days of the scan; further away, rounded down to the second
    // (never later than the real expiry).
    qint64 receiptExpiryMs(uint32_t r) const { return decodeExpiry(m_receiptExpiry[r]); }
    uint8_t receiptAnomalies(uint32_t r) const;

    uint32_t putReceipt(uint32_t s, QByteArrayView order, const ReceiptReading &r)
    {
        return putReceipt(s, order, r, receiptHash(skuName(s), order));
    }
    uint32_t putReceipt(uint32_t s, QByteArrayView order, const ReceiptReading &r, size_t hash);
    void removeReceipt(uint32_t r);

    const InventorySummary &totals() const { return m_totals; }

    size_t memoryBytes() const;
    // False once a pool passed 4 GiB; the scan stops and says so.
    bool overflowed() const { return m_overflow; }

private:
    enum Flag : uint8_t { Hash = 1 << 2, Gone = 1 << 3 };
    struct HashFields
    {
        QByteArray quantity, time;
    };
    struct SkuRow
    {
        qint64 stockValue = 0;
        qint64 stockExpiry = NoExpiry;
        qint64 soonest = NoReceiptExpiry;
        uint32_t first = HashIndex::None;
        uint32_t receipts = 0;
        uint8_t state = uint8_t(StockState::Unseen);
    };
    // Receipt columns hold 4 bytes where 8 would be a third of a receipt's cost at ten million
    // keys. remaining: int32, with the rare value that does not fit (stock is at most
    // 1,000,000,000) in a side table. expiry: ms from m_expiryBase, shifted left, low bit 0;
    // past +-2^30 ms (12 days), seconds with low bit 1 (rounded down); NoExpiry a sentinel.
    static constexpr int32_t WideRemaining = std::numeric_limits<int32_t>::min();
    static constexpr int32_t NoExpiryCode = std::numeric_limits<int32_t>::min();
    int32_t encodeExpiry(qint64 expiryMs);
    qint64 decodeExpiry(int32_t code) const
    {
        if (code == NoExpiryCode)
            return NoExpiry;
        const qint64 v = code >> 1; // arithmetic: C++20
        return m_expiryBase + ((code & 1) ? v * 1000 : v);
    }
    void recomputeSoonest(uint32_t s);
    // What the receipt index asks when it grows: a receipt's hash, from the store.
    auto receiptHashOf() const
    {
        return [this](uint32_t r) {
            return receiptHash(skuName(m_receiptSku[r]), m_orders.view(r));
        };
    }
    // Adds (+1) or removes (-1) what a SKU, or a receipt, contributes to m_totals: called
    // around every change.
    void accountSku(uint32_t s, int sign);
    void accountReceipt(uint32_t r, int sign);

    inventory::KeySchema m_schema;
    quint64 m_revision = 0;
    quint64 m_epoch = 0;
    size_t m_seed = 0;
    bool m_overflow = false;

    StringPool m_skuNames;
    HashIndex m_skuIndex;
    std::vector<SkuRow> m_skus;
    QHash<uint32_t, QByteArray> m_stockRaw; // sparse: only anomalies have one

    StringPool m_orders;
    CompactHashIndex m_receiptIndex;
    std::vector<uint32_t> m_receiptSku, m_receiptNext;
    std::vector<int32_t> m_remaining, m_receiptExpiry;
    QHash<uint32_t, qint64> m_wideRemaining; // sparse: remaining values outside int32
    qint64 m_expiryBase = 0;                 // set by the first expiry stored
    std::vector<uint8_t> m_receiptFlags;     // ReceiptValue in bits 0-1, then Flag
    QHash<uint32_t, QByteArray> m_receiptRaw;
    QHash<uint32_t, HashFields> m_hashFields;
    uint32_t m_receiptsAlive = 0;
    InventorySummary m_totals;
};

} // namespace browse
