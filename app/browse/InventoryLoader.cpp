// SPDX-License-Identifier: GPL-3.0-or-later
#include "InventoryLoader.h"

#include "Glob.h"
#include "Values.h"
#include "core/Bytes.h"
#include "redis/ResultReads.h"

namespace browse {

namespace {

constexpr size_t LookupChunk = 1000;
// Shared, so a million commands reuse these bytes instead of allocating each name.
const QByteArray HashFields[] = {"remaining", "quantity", "time"};
const QByteArray Pttl("PTTL"), Get("GET"), Hmget("HMGET"), Type("TYPE");

// Why a key could not be read, in the window's language (the CLI's copy stays English).
core::Sentence loaderSays(const char *source)
{
    return core::Sentence::translated("browse::InventoryLoader", source);
}

// PTTL's answer as an absolute expiry: -1 no TTL, -2 the key is gone. A refused or failed
// PTTL (NOPERM, an error, a reply that is not one of these) is not "no TTL": the key is
// unreadable, and nothing about its expiry may be said.
core::Result<qint64, redis::RedisError> expiryFrom(const redis::ReplyResult &pttl, qint64 sentMs,
                                                   bool *gone)
{
    *gone = false;
    const auto ms = redis::integerOf(pttl);
    if (!ms) {
        redis::RedisError e = ms.error();
        e.message = core::Sentence::plain(QStringLiteral("PTTL: %1")).arg(e.message);
        return e;
    }
    if (*ms < -2)
        return redis::RedisError::unexpected(
            loaderSays(QT_TRANSLATE_NOOP("browse::InventoryLoader",
                                         "PTTL answered %1, which is not a TTL"))
                .arg(*ms));
    *gone = *ms == -2;
    return *ms >= 0 ? sentMs + *ms : NoExpiry;
}

// A receipt field's text; a missing field (nil) reads as no text, and so as not an integer.
QByteArray textOrEmpty(const redis::Reply &r)
{
    const auto text = r.string();
    return text ? *text : QByteArray();
}

void setRemaining(ReceiptReading &r, const QByteArray &bytes)
{
    if (const auto v = parseCanonicalInteger(bytes)) {
        r.value = ReceiptValue::Integer;
        r.remaining = *v;
    } else {
        r.value = ReceiptValue::NotInteger;
        r.raw = bytes;
    }
}

} // namespace

InventoryLoader::InventoryLoader(KeyspaceStore &store, Filter filter)
    : m_store(store)
    , m_parser(store.schema())
    , m_filter(std::move(filter))
{}

std::optional<InventoryLoader::Item> InventoryLoader::itemFor(QByteArray key) const
{
    Item it;
    if (const auto sku = m_parser.stockSku(key)) {
        it.skuAt = *sku;
    } else if (const auto r = m_parser.receipt(key)) {
        it.receipt = true;
        it.skuAt = r->sku;
        it.orderAt = r->order;
    } else {
        return std::nullopt;
    }
    it.key = std::move(key);
    return it;
}

QByteArray InventoryLoader::matchFor(const inventory::KeySchema &schema)
{
    const QByteArray a = schema.stockPattern(), b = schema.receiptPattern();
    qsizetype n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n] && a[n] != '*' && a[n] != '?' && a[n] != '['
           && a[n] != '\\')
        ++n;
    return n ? a.left(n) + '*' : QByteArray();
}

std::optional<PageRequest> InventoryLoader::plan(const QList<QByteArray> &keys)
{
    const bool anySku = m_filter.skuGlob.isEmpty();
    const bool anyOrder = m_filter.orderId.isEmpty();
    QList<Item> items;
    items.reserve(keys.size());
    for (const QByteArray &key : keys) {
        auto it = itemFor(key);
        if (it && (anySku || globMatch(m_filter.skuGlob, it->sku()))
            && (anyOrder || (it->receipt && it->order() == m_filter.orderId)))
            items.append(std::move(*it));
        else
            ++m_stats.otherKeys;
    }
    if (items.isEmpty())
        return std::nullopt;
    return read(std::move(items));
}

std::optional<PageRequest> InventoryLoader::read(QList<Item> items)
{
    PageRequest req;
    req.commands.reserve(items.size() * 2);
    for (const Item &it : items) {
        req.commands.append({Pttl, it.key});
        if (it.hash)
            req.commands.append({Hmget, it.key, HashFields[0], HashFields[1], HashFields[2]});
        else
            req.commands.append({Get, it.key});
    }
    req.onReplies = [this, items = std::move(items)](const QList<redis::ReplyResult> &replies,
                                                     qint64 sentMs) {
        return store(items, replies, sentMs);
    };
    return req;
}

std::optional<PageRequest> InventoryLoader::store(const QList<Item> &items,
                                                  const QList<redis::ReplyResult> &replies,
                                                  qint64 sentMs)
{
    // First pass: start loading the index slots every key of the page will probe, so the
    // second pass finds them in cache instead of waiting on memory key after key.
    for (const Item &it : items) {
        const QByteArrayView sku = it.sku();
        m_store.prefetchSku(m_store.skuHash(sku));
        if (it.receipt)
            m_store.prefetchReceipt(m_store.receiptHash(sku, it.order()));
    }
    QList<Item> retype; // not of the type we asked for: read again by TYPE
    QList<qint64> retypeExpiry;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const Item &it = items[i];
        bool gone = false;
        const auto read = expiryFrom(replies[2 * i], sentMs, &gone);
        const redis::ReplyResult &value = replies[2 * i + 1];
        if (!it.lookup)
            it.receipt ? ++m_stats.receiptKeys : ++m_stats.stockKeys;
        if (!read.ok()) {
            noteProblem(it, read.error());
            continue;
        }
        const qint64 expiry = read.value();
        if (!value.ok()) {
            if (value.error().code == "WRONGTYPE") {
                retype.append(it);
                retypeExpiry.append(expiry);
            } else {
                noteProblem(it, value.error());
            }
            continue;
        }
        // GET answers a string or nil, HMGET an array: any other shape is an anomaly of the
        // server or of the path to it, and says nothing about the key (D4 of issue 29).
        const bool expected = value->isNil() || (it.hash ? value->isArray() : value->string().ok());
        if (!expected) {
            noteProblem(it, redis::RedisError::unexpected(
                                loaderSays(QT_TRANSLATE_NOOP("browse::InventoryLoader",
                                                             "%1 answered %2, not the value of a "
                                                             "key"))
                                    .arg(it.hash ? QStringLiteral("HMGET") : QStringLiteral("GET"),
                                         value->isArray()
                                             ? loaderSays(QT_TRANSLATE_NOOP(
                                                 "browse::InventoryLoader", "an array"))
                                             : loaderSays(QT_TRANSLATE_NOOP(
                                                 "browse::InventoryLoader", "another type")))));
            continue;
        }
        // HMGET of a missing key answers [nil, nil, nil]: PTTL -2 tells it apart.
        if (gone || value->isNil())
            vanish(it);
        else
            storeValue(it, value.value(), expiry);
    }
    if (retype.isEmpty())
        return std::nullopt;
    return readByType(std::move(retype), std::move(retypeExpiry));
}

std::optional<PageRequest> InventoryLoader::readByType(QList<Item> items, QList<qint64> expiries)
{
    // TYPE decides which of GET / HMGET answered meaningfully; the other one is a WRONGTYPE.
    PageRequest req;
    for (const Item &it : items) {
        req.commands.append({Type, it.key});
        req.commands.append({Get, it.key});
        if (it.receipt)
            req.commands.append({Hmget, it.key, HashFields[0], HashFields[1], HashFields[2]});
    }
    req.onReplies = [this, items = std::move(items),
                     expiries = std::move(expiries)](const QList<redis::ReplyResult> &replies,
                                                     qint64) -> std::optional<PageRequest> {
        qsizetype at = 0;
        for (qsizetype i = 0; i < items.size(); ++i) {
            const Item &it = items[i];
            const redis::ReplyResult &type = replies[at];
            const redis::ReplyResult &get = replies[at + 1];
            const redis::ReplyResult *fields = it.receipt ? &replies[at + 2] : nullptr;
            at += it.receipt ? 3 : 2;
            if (!type.ok()) {
                noteProblem(it, type.error());
                continue;
            }
            const auto typeName = type->string();
            if (!typeName) {
                noteProblem(it, typeName.error());
                continue;
            }
            const QByteArray t = *typeName;
            if (t == "none") {
                vanish(it);
            } else if (t == "string" && redis::stringOf(get)) {
                storeValue(it, get.value(), expiries[i]);
            } else if (t == "hash" && fields && redis::arrayOf(*fields)) {
                storeValue(it, fields->value(), expiries[i]);
            } else if (const uint32_t s = m_store.internSku(it.sku()); s != KeyspaceStore::None) {
                if (!it.receipt) {
                    m_store.setStock(s, StockReading{StockState::WrongType, 0, t, expiries[i]});
                } else {
                    ReceiptReading r;
                    r.expiryMs = expiries[i];
                    r.value = ReceiptValue::WrongType;
                    r.raw = t;
                    m_store.putReceipt(s, it.order(), r);
                }
            }
        }
        return std::nullopt;
    };
    return req;
}

void InventoryLoader::storeValue(const Item &it, const redis::Reply &value, qint64 expiryMs)
{
    const QByteArrayView sku = it.sku();
    const uint32_t s = m_store.internSku(sku, m_store.skuHash(sku));
    if (s == KeyspaceStore::None)
        return; // overflow: InventoryScan reports it
    if (!it.receipt) {
        StockReading st;
        st.expiryMs = expiryMs;
        const auto text = value.string();
        if (!text) {
            st.state = StockState::WrongType; // an array: the key is a hash
            st.raw = value.isArray() ? QByteArray("hash") : text.error().message.english.toUtf8();
        } else if (const auto v = parseCanonicalInteger(*text)) {
            st.state = StockState::Integer;
            st.value = *v;
        } else {
            st.state = StockState::NotInteger;
            st.raw = *text;
        }
        m_store.setStock(s, st);
        return;
    }
    ReceiptReading r;
    r.expiryMs = expiryMs;
    if (const auto fields = value.array()) {
        // HMGET remaining quantity time: nil for a field the hash does not have.
        r.hash = true;
        const auto remaining = fields->value(0).string();
        if (fields->size() != 3 || !remaining)
            r.value = ReceiptValue::MissingField;
        else
            setRemaining(r, *remaining);
        if (fields->size() == 3) {
            r.quantity = textOrEmpty(fields->at(1));
            r.time = textOrEmpty(fields->at(2));
        }
    } else {
        setRemaining(r, textOrEmpty(value));
    }
    m_store.putReceipt(s, it.order(), r, m_store.receiptHash(sku, it.order()));
}

void InventoryLoader::vanish(const Item &it)
{
    // Listed by SCAN, expired or deleted since: not part of the keyspace any more.
    if (!it.lookup)
        ++m_stats.vanished;
    const uint32_t s = m_store.findSku(it.sku());
    if (s == KeyspaceStore::None)
        return;
    if (!it.receipt)
        m_store.setStockMissing(s);
    else if (const uint32_t r = m_store.findReceipt(s, it.order()); r != KeyspaceStore::None)
        m_store.removeReceipt(r);
}

void InventoryLoader::noteProblem(const Item &item, const redis::RedisError &e)
{
    ++m_stats.unreadable;
    if (m_stats.firstProblem.isEmpty())
        m_stats.firstProblem =
            QStringLiteral("%1: %2").arg(core::escapeBytes(item.key, 80), e.toString().text);
}

std::optional<PageRequest> InventoryLoader::atEnd()
{
    if (!m_endListed) {
        m_endListed = true;
        for (uint32_t s = 0; s < m_store.skuCount(); ++s)
            if (m_store.stockState(s) == StockState::Unseen && m_store.receiptCountOf(s) > 0)
                m_unseen.push_back(s);
    }
    if (m_unseenNext >= m_unseen.size())
        return std::nullopt;
    const size_t end = std::min(m_unseen.size(), m_unseenNext + LookupChunk);
    std::vector<uint32_t> chunk(m_unseen.begin() + m_unseenNext, m_unseen.begin() + end);
    m_unseenNext = end;
    auto req = reread(chunk, {});
    // A stock key that is still absent is now known to be missing, not merely unseen.
    req->onReplies = [this, chunk, epoch = m_store.epoch(), inner = std::move(req->onReplies)](
                         const QList<redis::ReplyResult> &replies, qint64 sentMs) {
        auto next = inner(replies, sentMs);
        if (m_store.epoch() == epoch)
            for (uint32_t s : chunk)
                if (m_store.stockState(s) == StockState::Unseen)
                    m_store.setStockMissing(s);
        return next;
    };
    return req;
}

std::optional<PageRequest> InventoryLoader::reread(const std::vector<uint32_t> &skus,
                                                   const std::vector<uint32_t> &receipts)
{
    QList<Item> items;
    items.reserve(qsizetype(skus.size() + receipts.size()));
    auto add = [&](QByteArray key, bool hash) {
        if (auto it = itemFor(std::move(key))) {
            it->lookup = true;
            it->hash = hash;
            items.append(std::move(*it));
        }
    };
    for (uint32_t s : skus)
        add(m_store.stockKey(s), false);
    for (uint32_t r : receipts)
        if (m_store.receiptAlive(r))
            add(m_store.receiptKey(r), m_store.receiptIsHash(r));
    if (items.isEmpty())
        return std::nullopt;
    return read(std::move(items));
}

} // namespace browse
