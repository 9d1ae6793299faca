// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "InventoryLoader.h"
#include "KeyspaceScanner.h"
#include "KeyspaceStore.h"
#include "StoreSkuDirectory.h"

#include <QObject>

namespace browse {

// "could not read 3 keys (first: idem:{a}:1: NOPERM ...)": why a scan that walked the whole
// keyspace is still incomplete.
QString unreadableText(const InventoryLoader::Stats &stats);

// A scan of the stock and receipt families into one KeyspaceStore: what the SKU view and
// `inventory-cli keys` both run, and, with an order id, the order lookup. start() clears the store
// and begins a new generation, so a rescan or a new SKU filter never mixes in late pages of the
// previous one.
class InventoryScan : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray skuGlob; // empty: every SKU
        // Set: only this order's receipts (SCAN MATCH on the receipt family) and the stock
        // of their SKUs: the order lookup.
        QByteArray orderId;
        int count = 1000; // SCAN COUNT (ScanPace::applyTo fills it in when 0)
        int pagesInFlight = 4;
        qint64 keysPerSecond = 0; // KeyspaceScanner::Options::keysPerSecond; 0: no cap
        int timeoutMs = 30000;
        // Every page's keys as SCAN returned them, with the schema the store reads its own
        // by: for a caller that needs another family the same walk passes (reconcile's
        // release keys), so that it costs no second walk. Runs on the scanner's thread.
        std::function<void(const QList<QByteArray> &keys, const inventory::KeySchema &schema)>
            onKeys{};
    };

    // The sender is not owned and must outlive this object.
    InventoryScan(redis::CommandSender &sender, inventory::KeySchema schema,
                  QObject *parent = nullptr);

    void start(const Options &options);
    void cancel();
    bool isRunning() const { return m_scanner.isRunning(); }
    // The last scan ran to its end (not cancelled, no error) and read every key it listed.
    bool isComplete() const { return m_complete; }
    QString lastError() const { return m_error; }

    KeyspaceStore &store() { return m_store; }
    const KeyspaceStore &store() const { return m_store; }
    // The store as a read-only SKU lookup (suggestions, known anomalies) for other views.
    const inventory::SkuDirectory &skuDirectory() const { return m_directory; }
    const KeyspaceScanner &scanner() const { return m_scanner; }
    InventoryLoader::Stats stats() const;
    redis::CommandSender &sender() { return m_sender; }
    const Options &options() const { return m_options; }

signals:
    void started();
    void progress(qint64 keysSeen, qint64 dbSize);
    void storeChanged(); // after every handled page; views coalesce
    void finished(bool complete, const QString &error);

private:
    redis::CommandSender &m_sender;
    KeyspaceStore m_store;
    StoreSkuDirectory m_directory{m_store};
    KeyspaceScanner m_scanner;
    std::shared_ptr<InventoryLoader> m_loader;
    InventoryLoader::Stats m_lastStats;
    Options m_options;
    bool m_complete = false;
    QString m_error;
};

} // namespace browse
