// SPDX-License-Identifier: GPL-3.0-or-later
#include "FlatKeyStore.h"
#include "redis/ResultReads.h"

#include <QHash>

namespace browse {

namespace {

KeyType typeFrom(const QByteArray &t)
{
    if (t == "string")
        return KeyType::String;
    if (t == "hash")
        return KeyType::Hash;
    if (t == "list")
        return KeyType::List;
    if (t == "set")
        return KeyType::Set;
    if (t == "zset")
        return KeyType::ZSet;
    if (t == "stream")
        return KeyType::Stream;
    return KeyType::Other;
}

// Collection elements joined for the preview: "a, b, c" or "field=value, ...".
QByteArray joinElements(const redis::Reply &list, bool pairs)
{
    QByteArray out;
    const auto elements = list.array();
    if (!elements)
        return out;
    for (qsizetype i = 0; i < elements->size() && out.size() < FlatKeyStore::PreviewBytes; ++i) {
        if (i)
            out += pairs && i % 2 == 1 ? "=" : ", ";
        if (const auto text = elements->at(i).string())
            out += *text;
    }
    return out;
}

// The second round trip for a collection: its size, then its first elements (a PING stands
// in for a stream's). Empty for a type that is not read further.
QList<redis::Command> collectionCommands(KeyType t, const QByteArray &k)
{
    switch (t) {
    case KeyType::Hash:
        return {redis::Command{"HLEN", k}, redis::Command{"HSCAN", k, "0", "COUNT", "8"}};
    case KeyType::List:
        return {redis::Command{"LLEN", k}, redis::Command{"LRANGE", k, "0", "7"}};
    case KeyType::Set:
        return {redis::Command{"SCARD", k}, redis::Command{"SSCAN", k, "0", "COUNT", "8"}};
    case KeyType::ZSet:
        return {redis::Command{"ZCARD", k}, redis::Command{"ZRANGE", k, "0", "3", "WITHSCORES"}};
    case KeyType::Stream:
        return {redis::Command{"XLEN", k}, redis::Command{"PING"}};
    default:
        return {};
    }
}

} // namespace

QString keyTypeName(KeyType t)
{
    static const char *const names[] = {"string", "hash", "list", "set", "zset", "stream", "other"};
    return QString::fromLatin1(names[int(t)]);
}

void FlatKeyStore::clear()
{
    const quint64 revision = m_revision, epoch = m_epoch;
    *this = FlatKeyStore();
    m_revision = revision + 1;
    m_epoch = epoch + 1;
}

bool FlatKeyStore::previewTruncated(uint32_t i) const
{
    const KeyType t = type(i);
    return (t == KeyType::String && m_size[i] > preview(i).size())
           || (t != KeyType::String && preview(i).size() >= PreviewBytes);
}

uint32_t FlatKeyStore::find(QByteArrayView key) const
{
    return m_index.find(hashOf(key), [&](uint32_t i) { return m_keys.view(i) == key; });
}

uint32_t FlatKeyStore::put(QByteArrayView key, KeyType type, const QByteArray &typeName,
                           qint64 expiryMs, qint64 size, QByteArrayView preview)
{
    bool ok = true;
    uint32_t i = find(key);
    if (i == None) {
        i = m_keys.add(key, &ok);
        if (!ok) {
            m_overflow = true;
            return None;
        }
        m_index.insert(hashOf(key), i);
        m_type.push_back(0);
        m_gone.push_back(0);
        m_expiry.push_back(-1);
        m_size.push_back(-1);
        m_preview.push_back(0);
    }
    m_type[i] = uint8_t(type);
    m_gone[i] = 0;
    m_expiry[i] = expiryMs;
    m_size[i] = size;
    m_preview[i] =
        m_previews.add(preview.first(qMin<qsizetype>(preview.size(), PreviewBytes)), &ok);
    if (!ok)
        m_overflow = true;
    if (type == KeyType::Other)
        m_typeNames.insert(i, typeName);
    ++m_revision;
    return i;
}

void FlatKeyStore::markGone(uint32_t i)
{
    m_gone[i] = 1;
    ++m_revision;
}

FlatKeyLoader::FlatKeyLoader(FlatKeyStore &store, qint64 maxKeys)
    : m_store(store)
    , m_maxKeys(maxKeys)
{}

bool FlatKeyLoader::admit(QList<QByteArray> *keys)
{
    if (m_maxKeys <= 0)
        return true;
    // Pages still on their way count too: the limit holds however many are in flight.
    const qint64 room = m_maxKeys - m_planned;
    if (keys->size() >= room) {
        m_limitReached = true;
        keys->resize(qMax<qint64>(0, room));
    }
    m_planned += keys->size();
    return !keys->isEmpty();
}

std::optional<PageRequest> FlatKeyLoader::plan(const QList<QByteArray> &pageKeys)
{
    QList<QByteArray> keys = pageKeys;
    if (!admit(&keys))
        return std::nullopt;
    PageRequest req;
    for (const QByteArray &k : keys) {
        req.commands.append({"TYPE", k});
        req.commands.append({"PTTL", k});
        req.commands.append(
            {"GETRANGE", k, "0", QByteArray::number(FlatKeyStore::PreviewBytes - 1)});
        req.commands.append({"STRLEN", k});
    }
    req.onReplies = [this, keys](const QList<redis::ReplyResult> &replies,
                                 qint64 sentMs) -> std::optional<PageRequest> {
        return storeFirstPass(keys, replies, sentMs);
    };
    return req;
}

std::optional<PageRequest> FlatKeyLoader::storeFirstPass(const QList<QByteArray> &keys,
                                                         const QList<redis::ReplyResult> &replies,
                                                         qint64 sentMs)
{
    QList<Collection> later;
    PageRequest more;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const auto &type = replies[4 * i], &pttl = replies[4 * i + 1];
        const auto &range = replies[4 * i + 2], &len = replies[4 * i + 3];
        const auto typeName = redis::stringOf(type);
        if (!typeName || *typeName == "none")
            continue; // gone since SCAN listed it
        const auto ttlMs = redis::integerOf(pttl);
        const qint64 ttl = ttlMs ? *ttlMs : -1;
        const qint64 expiry = ttl >= 0 ? sentMs + ttl : -1;
        const KeyType t = typeFrom(*typeName);
        if (t == KeyType::String) {
            const auto length = redis::integerOf(len);
            const auto head = redis::stringOf(range);
            m_store.put(keys[i], t, {}, expiry, length ? *length : -1, head ? *head : QByteArray());
            continue;
        }
        const QList<redis::Command> commands = collectionCommands(t, keys[i]);
        if (commands.isEmpty()) {
            m_store.put(keys[i], t, *typeName, expiry, -1, {});
            continue;
        }
        more.commands << commands;
        later.append(Collection{keys[i], t, expiry});
    }
    if (later.isEmpty())
        return std::nullopt;
    more.onReplies = [this, later](const QList<redis::ReplyResult> &r,
                                   qint64) -> std::optional<PageRequest> {
        storeCollections(later, r);
        return std::nullopt;
    };
    return more;
}

void FlatKeyLoader::storeCollections(const QList<Collection> &collections,
                                     const QList<redis::ReplyResult> &replies)
{
    for (qsizetype i = 0; i < collections.size(); ++i) {
        const Collection &l = collections[i];
        const auto &size = replies[2 * i], &items = replies[2 * i + 1];
        const auto count = redis::integerOf(size);
        if (!count)
            continue; // gone or changed type since: the next scan shows it
        QByteArray preview;
        if (const auto elements = redis::arrayOf(items)) {
            // HSCAN and SSCAN answer [cursor, elements].
            const bool scanReply = l.type == KeyType::Hash || l.type == KeyType::Set;
            const redis::Reply list =
                scanReply && elements->size() == 2 ? elements->at(1) : items.value();
            preview = joinElements(list, l.type == KeyType::Hash || l.type == KeyType::ZSet);
        }
        m_store.put(l.key, l.type, {}, l.expiry, *count, preview);
    }
}

} // namespace browse
