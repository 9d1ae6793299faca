// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyParser.h"
#include "KeyspaceScanner.h"
#include "KeyspaceStore.h"

#include <QStringList>

namespace browse {

// Reads what SCAN returns into a KeyspaceStore: for every stock or receipt key of the page,
// PTTL and GET in the page's one batch (PTTL and HMGET for receipts already known to be
// hashes). Keys whose type turned out different (hash receipts of the next library version,
// or damage) get TYPE + GET + HMGET in one more batch. At the end, the SKUs that have
// receipts but whose stock key no page returned are looked up directly, so "stock key
// missing" is never a guess from an unfinished scan.
class InventoryLoader : public PageHandler
{
public:
    struct Stats
    {
        qint64 stockKeys = 0, receiptKeys = 0;
        qint64 otherKeys = 0; // returned by SCAN, not of the schema (or filtered out)
        qint64 vanished = 0;  // listed by SCAN, gone by the time we read it (expired)
        qint64 unreadable = 0;
        QString firstProblem; // e.g. a NOPERM on GET
    };
    struct Filter
    {
        QByteArray skuGlob; // Redis glob over the SKU; empty: all
        QByteArray orderId; // exact order id; empty: all (the order lookup sets it)
    };

    // store must outlive the loader.
    explicit InventoryLoader(KeyspaceStore &store, Filter filter = {});

    std::optional<PageRequest> plan(const QList<QByteArray> &keys) override;
    std::optional<PageRequest> atEnd() override;
    const Stats &stats() const { return m_stats; }

    // Reads these rows again (their stock keys, these receipts) in one batch: the refresh
    // of visible rows. Vanished receipts are removed, vanished stock becomes missing.
    std::optional<PageRequest> reread(const std::vector<uint32_t> &skus,
                                      const std::vector<uint32_t> &receipts);

    // SCAN MATCH for both families of a schema: their common literal prefix, or empty.
    static QByteArray matchFor(const inventory::KeySchema &schema);

private:
    struct Item
    {
        QByteArray key;
        KeyParser::Span skuAt, orderAt; // where the SKU and order id are in the key
        bool receipt = false;
        bool lookup = false; // asked for directly, not a key SCAN returned
        bool hash = false;   // known to be a hash receipt: HMGET instead of GET
        QByteArrayView sku() const { return skuAt.in(key); }
        QByteArrayView order() const { return orderAt.in(key); }
    };
    std::optional<Item> itemFor(QByteArray key) const; // a stock or receipt key, else nullopt
    std::optional<PageRequest> read(QList<Item> items);
    std::optional<PageRequest> store(const QList<Item> &items,
                                     const QList<redis::ReplyResult> &replies, qint64 sentMs);
    std::optional<PageRequest> readByType(QList<Item> items, QList<qint64> expiries);
    void storeValue(const Item &it, const redis::Reply &value, qint64 expiryMs);
    void vanish(const Item &it);
    void noteProblem(const Item &item, const redis::RedisError &e);

    KeyspaceStore &m_store;
    KeyParser m_parser;
    Filter m_filter;
    Stats m_stats;
    bool m_endListed = false;
    std::vector<uint32_t> m_unseen; // SKUs to look up at the end
    size_t m_unseenNext = 0;
};

} // namespace browse
