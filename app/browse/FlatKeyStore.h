// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "HashIndex.h"
#include "KeyspaceScanner.h"
#include "StringPool.h"

#include <vector>

namespace browse {

enum class KeyType : uint8_t { String, Hash, List, Set, ZSet, Stream, Other };
QString keyTypeName(KeyType t);

// Any keys, as the flat view lists them: key, type, expiry, size and a short value preview,
// packed like KeyspaceStore (pools of bytes, columns of numbers).
class FlatKeyStore
{
public:
    static constexpr int PreviewBytes = 160; // bytes of value kept for the preview column
    static constexpr uint32_t None = HashIndex::None;

    void clear();
    quint64 revision() const { return m_revision; }
    quint64 epoch() const { return m_epoch; }

    uint32_t rows() const { return m_keys.size(); } // including keys gone since
    bool alive(uint32_t i) const { return !m_gone[i]; }
    QByteArrayView key(uint32_t i) const { return m_keys.view(i); }
    KeyType type(uint32_t i) const { return KeyType(m_type[i]); }
    QByteArray typeName(uint32_t i) const { return m_typeNames.value(i); } // for Other
    qint64 expiryMs(uint32_t i) const { return m_expiry[i]; }
    qint64 size(uint32_t i) const { return m_size[i]; } // bytes or elements; -1 unknown
    QByteArrayView preview(uint32_t i) const { return m_previews.view(m_preview[i]); }
    bool previewTruncated(uint32_t i) const;

    uint32_t find(QByteArrayView key) const;
    // Adds or updates one key. The preview is cut to PreviewBytes.
    uint32_t put(QByteArrayView key, KeyType type, const QByteArray &typeName, qint64 expiryMs,
                 qint64 size, QByteArrayView preview);
    void markGone(uint32_t i);
    bool overflowed() const { return m_overflow; }

private:
    size_t hashOf(QByteArrayView k) const { return qHash(k, 0x9e3779b9u); }

    quint64 m_revision = 0, m_epoch = 0;
    bool m_overflow = false;
    StringPool m_keys, m_previews;
    HashIndex m_index;
    std::vector<uint8_t> m_type, m_gone;
    std::vector<qint64> m_expiry, m_size;
    std::vector<uint32_t> m_preview; // id in m_previews (a refreshed key gets a new one)
    QHash<uint32_t, QByteArray> m_typeNames;
};

// Reads pages of arbitrary keys: TYPE, PTTL, GETRANGE (the first PreviewBytes) and STRLEN in
// one batch; collections get their size and first elements in one more.
class FlatKeyLoader : public PageHandler
{
public:
    explicit FlatKeyLoader(FlatKeyStore &store, qint64 maxKeys = 0);
    std::optional<PageRequest> plan(const QList<QByteArray> &keys) override;
    bool limitReached() const { return m_limitReached; }

private:
    // A collection key whose size and first elements a second round trip reads.
    struct Collection
    {
        QByteArray key;
        KeyType type;
        qint64 expiry;
    };
    // Cuts `keys` to what the limit leaves room for; false when nothing is left to read.
    bool admit(QList<QByteArray> *keys);
    // Stores the strings and the other plain types; the collections need a second round trip.
    std::optional<PageRequest> storeFirstPass(const QList<QByteArray> &keys,
                                              const QList<redis::ReplyResult> &replies,
                                              qint64 sentMs);
    void storeCollections(const QList<Collection> &collections,
                          const QList<redis::ReplyResult> &replies);

    FlatKeyStore &m_store;
    qint64 m_maxKeys;
    bool m_limitReached = false;
    qint64 m_planned = 0;
};

} // namespace browse
