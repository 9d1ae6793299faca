// SPDX-License-Identifier: GPL-3.0-or-later
#include "InventoryScan.h"

#include "BrowseLog.h"

#include <QCoreApplication>

namespace browse {

namespace {
// Why the view is short of keys, in the window's language (the CLI prints the English).
struct InventoryScanText
{
    Q_DECLARE_TR_FUNCTIONS(browse::InventoryScan)
};
} // namespace

namespace {
constexpr qint64 MaxReserve = 50000000; // past this, grow as needed

// The loader, with each page's keys shown to Options::onKeys first.
class PageTap : public PageHandler
{
public:
    using OnKeys = std::function<void(const QList<QByteArray> &, const inventory::KeySchema &)>;
    PageTap(std::shared_ptr<PageHandler> inner, OnKeys onKeys, inventory::KeySchema schema)
        : m_inner(std::move(inner))
        , m_onKeys(std::move(onKeys))
        , m_schema(std::move(schema))
    {}
    std::optional<PageRequest> plan(const QList<QByteArray> &keys) override
    {
        m_onKeys(keys, m_schema);
        return m_inner->plan(keys);
    }
    std::optional<PageRequest> atEnd() override { return m_inner->atEnd(); }

private:
    std::shared_ptr<PageHandler> m_inner;
    OnKeys m_onKeys;
    inventory::KeySchema m_schema;
};
} // namespace

QString unreadableText(const InventoryLoader::Stats &stats)
{
    if (stats.unreadable == 1)
        return InventoryScanText::tr("could not read 1 key (first: %1)").arg(stats.firstProblem);
    return InventoryScanText::tr("could not read %1 keys (first: %2)")
        .arg(stats.unreadable)
        .arg(stats.firstProblem);
}

InventoryScan::InventoryScan(redis::CommandSender &sender, inventory::KeySchema schema,
                             QObject *parent)
    : QObject(parent)
    , m_sender(sender)
    , m_store(std::move(schema))
    , m_scanner(sender)
{
    connect(&m_scanner, &KeyspaceScanner::progress, this, &InventoryScan::progress);
    connect(&m_scanner, &KeyspaceScanner::dbSizeKnown, this, [this](qint64 dbSize) {
        // A full scan holds about DBSIZE keys: reserve for all of them before the first page,
        // so the store never grows (and copies) in the middle of a large scan. Filtered scans
        // and order lookups hold few keys and reserve nothing.
        if (m_options.skuGlob.isEmpty() && m_options.orderId.isEmpty() && m_store.skuCount() == 0)
            // SKUs: a quarter of the keys. Their index is written at random places, so every
            // reserved page of it becomes resident: half the keys cost 50 MB at ten million
            // for a million SKUs. Fewer than 4 keys per SKU costs one doubling instead.
            // Receipts: every key, and a sixteenth more for keys written while the scan runs,
            // because the receipt index outgrowing its reservation has to hash every receipt
            // again (see CompactHashIndex).
            m_store.reserve(size_t(qMin<qint64>(dbSize / 4, MaxReserve)),
                            size_t(qMin<qint64>(dbSize + dbSize / 16, MaxReserve)));
    });
    connect(&m_scanner, &KeyspaceScanner::pageHandled, this, [this] {
        if (m_store.overflowed() && m_scanner.isRunning())
            m_scanner.cancel();
        emit storeChanged();
    });
    connect(&m_scanner, &KeyspaceScanner::finished, this,
            [this](bool complete, const QString &error) {
                if (m_loader)
                    m_lastStats = m_loader->stats();
                m_error = m_store.overflowed()
                              ? InventoryScanText::tr("the keyspace is too large to hold in one "
                                                      "view: filter by SKU")
                              : error;
                // A key that could not be read (NOPERM on PTTL, GET or TYPE, an error reply)
                // leaves the view short of it: the scan is not complete, whatever the cursor
                // did, so that no count, "no receipt" or "without TTL" is read as a fact.
                if (m_error.isEmpty() && m_lastStats.unreadable > 0)
                    m_error = unreadableText(m_lastStats);
                m_complete = complete && m_error.isEmpty();
                // Only a scan of every SKU can say that a stock key does not exist.
                m_directory.setScanned(m_options.skuGlob.isEmpty() && m_options.orderId.isEmpty());
                emit storeChanged();
                emit finished(m_complete, m_error);
            });
}

void InventoryScan::start(const Options &options)
{
    if (m_scanner.isRunning()) {
        m_scanner.blockSignals(true); // the old run ends silently: a new one replaces it
        m_scanner.cancel();
        m_scanner.blockSignals(false);
    }
    m_options = options;
    m_store.clear();
    m_directory.setScanned(false);
    m_complete = false;
    m_error.clear();
    m_loader = std::make_shared<InventoryLoader>(
        m_store, InventoryLoader::Filter{options.skuGlob, options.orderId});
    KeyspaceScanner::Options so;
    so.match = options.orderId.isEmpty() ? InventoryLoader::matchFor(m_store.schema())
                                         : m_store.schema().receiptPatternForOrder(options.orderId);
    so.count = options.count;
    so.pagesInFlight = options.pagesInFlight;
    so.keysPerSecond = options.keysPerSecond;
    so.timeoutMs = options.timeoutMs;
    emit started();
    emit storeChanged();
    m_scanner.start(so, options.onKeys
                            ? std::make_shared<PageTap>(m_loader, options.onKeys, m_store.schema())
                            : std::shared_ptr<PageHandler>(m_loader));
}

void InventoryScan::cancel()
{
    m_scanner.cancel();
}

InventoryLoader::Stats InventoryScan::stats() const
{
    return m_loader ? m_loader->stats() : m_lastStats;
}

} // namespace browse
