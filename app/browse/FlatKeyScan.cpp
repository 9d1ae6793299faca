// SPDX-License-Identifier: GPL-3.0-or-later
#include "FlatKeyScan.h"

#include "Cells.h"
#include "ModelRoles.h"
#include "StringPool.h"
#include "Values.h"
#include "core/Bytes.h"

namespace browse {

FlatKeyScan::FlatKeyScan(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_scanner(sender)
{
    connect(&m_scanner, &KeyspaceScanner::progress, this, &FlatKeyScan::progress);
    connect(&m_scanner, &KeyspaceScanner::pageHandled, this, &FlatKeyScan::storeChanged);
    // Progress follows every SCAN page: once the limit is reached, ask for no more.
    connect(&m_scanner, &KeyspaceScanner::progress, this, [this] {
        if (limitReached())
            m_scanner.finishEarly(
                tr("stopped at %1 keys: narrow the pattern to see the rest").arg(m_maxKeys));
    });
    connect(&m_scanner, &KeyspaceScanner::finished, this,
            [this](bool complete, const QString &error) {
                emit storeChanged();
                emit finished(complete, error);
            });
}

void FlatKeyScan::start(const Options &options)
{
    if (m_scanner.isRunning()) {
        m_scanner.blockSignals(true);
        m_scanner.cancel();
        m_scanner.blockSignals(false);
    }
    m_store.clear();
    m_loader = std::make_shared<FlatKeyLoader>(m_store, options.maxKeys);
    m_maxKeys = options.maxKeys;
    KeyspaceScanner::Options so;
    so.match = options.pattern == "*" ? QByteArray() : options.pattern;
    so.type = options.type;
    so.count = options.count;
    so.timeoutMs = options.timeoutMs;
    emit storeChanged();
    m_scanner.start(so, m_loader);
}

FlatKeyModel::FlatKeyModel(const FlatKeyStore &store, QObject *parent)
    : IndexTableModel(parent)
    , m_store(store)
{
    static const ColumnHeader columns[] = {
        {QT_TR_NOOP("Key"), "key"},
        {QT_TR_NOOP("Type"), "type"},
        {QT_TR_NOOP("TTL"), "ttl_ms"},
        {QT_TR_NOOP("Size"), "size"},
        {QT_TR_NOOP("Value (preview)"), "value_preview"},
    };
    static_assert(std::size(columns) == Slot);
    setPlainColumns(columns);
    setDefaultSort(Key);
    rebuild();
}

void FlatKeyModel::tick()
{
    if (rowCount())
        emit dataChanged(index(0, Ttl), index(rowCount() - 1, Ttl), {Qt::DisplayRole});
}

int FlatKeyModel::naturalCompare(uint32_t a, uint32_t b) const
{
    return browse::naturalCompare(m_store.key(a), m_store.key(b));
}

quint64 FlatKeyModel::sortKey(uint32_t id, int column) const
{
    switch (column) {
    case Slot:
    case Node:
        return locatedSortKey(column, m_store.key(id).toByteArray());
    case Type:
        return quint64(m_store.type(id));
    case Ttl: // no TTL after every TTL
        return m_store.expiryMs(id) < 0 ? ~quint64(0) : quint64(m_store.expiryMs(id));
    case Size:
        return signedKey(m_store.size(id));
    case Value: {
        // The first eight bytes, big-endian: enough to group previews; ties by key.
        quint64 k = 0;
        const QByteArrayView p = m_store.preview(id);
        for (int i = 0; i < 8; ++i)
            k = (k << 8) | (i < p.size() ? quint8(p[i]) : 0);
        return k;
    }
    }
    return 0;
}

QVariant FlatKeyModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const uint32_t i = idAt(index.row());
    const FlatKeyStore &st = m_store;
    if (index.column() >= Slot && isLocatedRole(role))
        return locatedData(index.column(), st.key(i).toByteArray(), role);
    const qint64 expiry = st.expiryMs(i) < 0 ? NoExpiry : st.expiryMs(i);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Key:
            return core::escapeBytes(st.key(i).toByteArray(), DisplayBytes);
        case Type:
            return st.type(i) == KeyType::Other ? QString::fromLatin1(st.typeName(i))
                                                : keyTypeName(st.type(i));
        case Ttl:
            return ttlText(expiry, modelNowMs());
        case Size:
            if (st.size(i) < 0)
                return QString();
            return st.type(i) == KeyType::String ? countOf(st.size(i), "byte", "bytes")
                                                 : countOf(st.size(i), "element", "elements");
        case Value: {
            QString text = core::escapeBytes(st.preview(i).toByteArray(), DisplayBytes);
            if (st.previewTruncated(i) && !text.endsWith(QChar(0x2026)))
                text += QChar(0x2026);
            return text;
        }
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == Key)
            return core::escapeBytes(st.key(i).toByteArray());
        if (index.column() == Ttl && expiry != NoExpiry)
            return formatExpiry(expiry);
        break;
    case RawBytesRole:
        if (index.column() == Key)
            return st.key(i).toByteArray();
        if (index.column() == Value)
            return st.preview(i).toByteArray();
        break;
    case ExportRole:
        switch (index.column()) {
        case Key:
            return st.key(i).toByteArray();
        case Ttl:
            return expiry == NoExpiry ? qint64(-1) : qMax<qint64>(0, expiry - modelNowMs());
        case Size:
            return st.size(i);
        case Value:
            return st.preview(i).toByteArray();
        default:
            return data(index, Qt::DisplayRole);
        }
    case KeyRole:
        return st.key(i).toByteArray();
    case ExpiryRole:
        return expiry;
    }
    return {};
}

} // namespace browse
