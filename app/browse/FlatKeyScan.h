// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "FlatKeyStore.h"
#include "IndexTableModel.h"

#include <QObject>

namespace browse {

// The flat key view's scan: any keys matching a pattern (SCAN MATCH, optionally TYPE), into a
// FlatKeyStore. Like InventoryScan, start() clears and begins a new generation.
class FlatKeyScan : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray pattern = "*";
        QByteArray type; // SCAN TYPE; empty: any
        int count = 1000;
        qint64 maxKeys = 1000000; // the view stops there and says so; 0: no limit
        int timeoutMs = 30000;
    };

    explicit FlatKeyScan(redis::CommandSender &sender, QObject *parent = nullptr);
    void start(const Options &options);
    void cancel() { m_scanner.cancel(); }
    bool isRunning() const { return m_scanner.isRunning(); }
    bool limitReached() const { return m_loader && m_loader->limitReached(); }
    const FlatKeyStore &store() const { return m_store; }
    const KeyspaceScanner &scanner() const { return m_scanner; }

signals:
    void progress(qint64 keysSeen, qint64 dbSize);
    void storeChanged();
    void finished(bool complete, const QString &error);

private:
    FlatKeyStore m_store;
    KeyspaceScanner m_scanner;
    std::shared_ptr<FlatKeyLoader> m_loader;
    qint64 m_maxKeys = 0;
};

// Key, type, TTL (counting down), size, value preview; on a cluster, slot and node.
class FlatKeyModel : public IndexTableModel
{
    Q_OBJECT
public:
    enum Column { Key, Type, Ttl, Size, Value, Slot, Node, ColumnCount };

    explicit FlatKeyModel(const FlatKeyStore &store, QObject *parent = nullptr);
    void tick();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    uint32_t sourceRows() const override { return m_store.rows(); }
    quint64 sourceEpoch() const override { return m_store.epoch(); }
    quint64 sourceRevision() const override { return m_store.revision(); }
    bool accepts(uint32_t id) const override { return m_store.alive(id); }
    int naturalCompare(uint32_t a, uint32_t b) const override;
    NaturalKey naturalKeyOf(uint32_t id) const override { return naturalKey(m_store.key(id)); }
    int naturalColumn() const override { return Key; }
    quint64 sortKey(uint32_t id, int column) const override;

private:
    const FlatKeyStore &m_store;
};

} // namespace browse
