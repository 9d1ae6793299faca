// SPDX-License-Identifier: GPL-3.0-or-later
#include "BrowserPanel.h"

#include "AnomalyView.h"
#include "BrowseTables.h"
#include "FlatKeyView.h"
#include "KeyActionDialog.h"
#include "OrderLookupView.h"
#include "ScanPaceControl.h"
#include "SkuBrowserView.h"
#include "browse/BrowseLog.h"
#include "browse/Cells.h"
#include "browse/OrderSentence.h"
#include "core/Bytes.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace ui {

namespace {
constexpr int TickMs = 1000;    // TTLs count down once a second, with no round trip
constexpr int RefreshMs = 5000; // visible rows are re-read this often
enum Tab { SkuTab, OrderTab, KeysTab, AnomalyTab };
const auto WarnSetting = QStringLiteral("browse/expiryWarningMinutes");
} // namespace

BrowserPanel::BrowserPanel(browse::InventoryScan &scan, inventory::KeySchema schema,
                           QWidget *parent)
    : QWidget(parent)
    , m_sender(scan.sender())
    , m_schema(schema)
    , m_scan(scan)
    , m_refresher(m_sender, m_scan.store())
{
    setObjectName(QStringLiteral("browserPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(createScanBar());
    m_nodes = new QLabel(this);
    m_nodes->setObjectName(QStringLiteral("scanNodes"));
    m_nodes->setWordWrap(true);
    m_nodes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nodes->setVisible(false);
    layout->addWidget(m_nodes);
    layout->addWidget(createViews(), 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("browserStatus"));
    // A node's failure can be long: wrapped, it never widens the window past the screen.
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    startTimers();
    connectScan();
    connectViews();
    m_warnWithin->setValue(
        QSettings().value(WarnSetting, int(browse::DefaultExpiryWarningMs / 60000)).toInt());
    setExpiryWarningMs(qint64(m_warnWithin->value()) * 60000);
    // Only a person's edit is remembered (setExpiryWarningMs blocks the signal).
    connect(m_warnWithin, &QSpinBox::valueChanged, this, [this](int minutes) {
        setExpiryWarningMs(qint64(minutes) * 60000);
        QSettings().setValue(WarnSetting, minutes);
    });
    updateWritable();
    updateCounts();
}

QHBoxLayout *BrowserPanel::createScanBar()
{
    auto *bar = new QHBoxLayout;
    m_rescan = new QPushButton(tr("Scan"), this);
    m_rescan->setObjectName(QStringLiteral("rescan"));
    m_rescan->setToolTip(tr("Read every stock key and receipt again (SCAN, never KEYS)"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopScan"));
    m_stop->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("scanProgress"));
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("not scanned yet"));
    m_progress->setValue(0);
    m_progress->setMinimumWidth(260);
    m_counts = new QLabel(this);
    m_counts->setObjectName(QStringLiteral("scanCounts"));
    m_export = new QPushButton(tr("Export CSV…"), this);
    m_export->setToolTip(tr("Save the table of the current tab, as filtered and sorted"));
    m_pace = new ScanPaceControl(this);
    m_warnWithin = new QSpinBox(this);
    m_warnWithin->setObjectName(QStringLiteral("expiryWarningMinutes"));
    m_warnWithin->setRange(0, 24 * 60);
    m_warnWithin->setPrefix(tr("Expiry warning: "));
    m_warnWithin->setSuffix(tr(" min"));
    m_warnWithin->setSpecialValueText(tr("No expiry warning"));
    m_warnWithin->setToolTip(tr("A receipt about to expire is flagged: after it expires, a retry "
                                "of its order deducts again. 0: no warning."));
    bar->addWidget(m_rescan);
    bar->addWidget(m_stop);
    bar->addWidget(m_progress);
    bar->addWidget(m_counts, 1);
    bar->addWidget(m_pace);
    bar->addWidget(m_warnWithin);
    bar->addWidget(m_export);
    connect(m_rescan, &QPushButton::clicked, this, &BrowserPanel::rescan);
    connect(m_stop, &QPushButton::clicked, this, &BrowserPanel::cancelScan);
    connect(m_export, &QPushButton::clicked, this, &BrowserPanel::exportCurrent);
    return bar;
}

QTabWidget *BrowserPanel::createViews()
{
    m_tabs = new QTabWidget(this);
    m_skuView = new SkuBrowserView(m_scan, m_tabs);
    m_orderView = new OrderLookupView(m_sender, m_schema, m_tabs);
    m_flatView = new FlatKeyView(m_sender, m_schema, m_tabs);
    m_anomalyView = new AnomalyView(m_scan.store(), m_tabs);
    m_tabs->addTab(m_skuView, tr("Stock && receipts"));
    m_tabs->addTab(m_orderView, tr("Order lookup"));
    m_tabs->addTab(m_flatView, tr("All keys"));
    m_tabs->addTab(m_anomalyView, tr("Anomalies"));
    return m_tabs;
}

void BrowserPanel::startTimers()
{
    m_syncTimer = new QTimer(this);
    m_syncTimer->setSingleShot(true);
    connect(m_syncTimer, &QTimer::timeout, this, &BrowserPanel::syncViews);
    m_tickTimer = new QTimer(this);
    m_tickTimer->setInterval(TickMs);
    connect(m_tickTimer, &QTimer::timeout, this, [this] {
        m_skuView->tick();
        m_orderView->tick();
        m_flatView->tick();
    });
    m_tickTimer->start();
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(RefreshMs);
    connect(m_refreshTimer, &QTimer::timeout, this, &BrowserPanel::refreshVisible);
    m_refreshTimer->start();
}

void BrowserPanel::connectScan()
{
    connect(&m_scan, &browse::InventoryScan::storeChanged, this, &BrowserPanel::scheduleSync);
    // A new scan empties the store at once: the views must forget its rows before anything
    // paints them, not at the next throttled sync.
    connect(&m_scan, &browse::InventoryScan::started, this, &BrowserPanel::syncViews);
    connect(&m_scan, &browse::InventoryScan::progress, this, &BrowserPanel::onScanProgress);
    connect(&m_scan.scanner(), &browse::KeyspaceScanner::dbSizeKnown, m_pace,
            &ScanPaceControl::setDbSize);
    connect(&m_scan, &browse::InventoryScan::finished, this, &BrowserPanel::onScanFinished);
    connect(&m_refresher, &browse::RowRefresher::refreshed, this, &BrowserPanel::scheduleSync);
    connect(&m_refresher, &browse::RowRefresher::failed, this,
            [this](const QString &e) { setStatus(tr("Refresh failed: %1").arg(e)); });
}

void BrowserPanel::connectViews()
{
    connect(m_skuView, &SkuBrowserView::actionRequested, this, &BrowserPanel::requestAction);
    connect(m_orderView, &OrderLookupView::actionRequested, this, &BrowserPanel::requestAction);
    connect(m_flatView, &FlatKeyView::actionRequested, this, &BrowserPanel::requestAction);
    connect(m_skuView, &SkuBrowserView::status, this, &BrowserPanel::setStatus);
    connect(m_orderView, &OrderLookupView::status, this, &BrowserPanel::setStatus);
    connect(m_flatView, &FlatKeyView::status, this, &BrowserPanel::setStatus);
    connect(m_anomalyView, &AnomalyView::showSku, this, [this](uint32_t sku) {
        m_tabs->setCurrentIndex(SkuTab);
        if (m_skuView->skuModel().rowOfSku(sku) < 0)
            m_skuView->skuModel().setFilter({}, false); // a filter hid it
        m_skuView->selectSku(sku);
    });
    connect(m_orderView, &OrderLookupView::auditRecordsRequested, this,
            &BrowserPanel::auditRecordsRequested);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == AnomalyTab)
            m_anomalyView->sync();
    });
}

void BrowserPanel::onScanProgress(qint64 seen, qint64 db)
{
    // DBSIZE moves while we scan and SCAN may repeat a key: never show more than 100 %.
    const qint64 total = qMax(db, seen);
    m_progress->setRange(0, 1000);
    m_progress->setValue(total > 0 ? int(seen * 1000 / total) : 0);
    m_progress->setFormat(
        db >= 0
            ? tr("scanning: %1 of %2 keys").arg(QLocale().toString(seen), QLocale().toString(db))
            : tr("scanning: %1 keys").arg(QLocale().toString(seen)));
    updateNodeProgress();
}

void BrowserPanel::onScanFinished(bool complete, const QString &error)
{
    m_rescan->setText(tr("Rescan"));
    m_stop->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(complete ? 1000 : m_progress->value());
    const auto &sc = m_scan.scanner();
    // One node of several failed: the others' keys are there, and the bar says so.
    const qint64 unreadable = m_scan.stats().unreadable;
    const bool partial =
        !complete && !error.isEmpty() && (sc.nodeProgress().size() > 1 || unreadable > 0);
    m_progress->setFormat(
        complete ? tr("scanned %1 keys in %2 s")
                       .arg(QLocale().toString(sc.keysSeen()))
                       .arg(sc.elapsedMs() / 1000.0, 0, 'f', 2)
        : partial && unreadable > 0
            ? tr("incomplete: %1 keys could not be read").arg(QLocale().toString(unreadable))
        : partial ? tr("incomplete: %1 keys, a node failed").arg(QLocale().toString(sc.keysSeen()))
                  : tr("stopped at %1 keys").arg(QLocale().toString(sc.keysSeen())));
    syncViews();
    updateNodeProgress();
    // Filters that depend on anomalies are final only now.
    if (m_skuView->skuModel().anomaliesOnly())
        m_skuView->reapplyFilter();
    setStatus(complete          ? tr("Scan complete.")
              : error.isEmpty() ? tr("Scan stopped: the views show what was read.")
              : partial         ? tr("Scan incomplete: %1.").arg(error)
                                : tr("Scan failed: %1").arg(error));
    emit scanFinished(complete);
}

BrowserPanel::~BrowserPanel() = default;

void BrowserPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_autoScan && !m_scannedOnce)
        QTimer::singleShot(0, this, &BrowserPanel::rescan);
    m_scannedOnce = m_scannedOnce || m_autoScan;
}

void BrowserPanel::setWriteSender(redis::CommandSender *writer)
{
    m_writer = writer;
    delete m_runner;
    m_runner = nullptr;
    if (writer) {
        m_runner = new browse::KeyActionRunner(*writer, m_audit, this);
        connect(m_runner, &browse::KeyActionRunner::finished, this,
                &BrowserPanel::onActionFinished);
    }
    updateWritable();
}

void BrowserPanel::setReadOnlyReason(const QString &reason)
{
    m_readOnlyReason = reason;
    updateWritable();
}

void BrowserPanel::setAuditContext(const browse::AuditContext &audit)
{
    m_audit = audit;
    m_orderView->setAuditLogPath(audit.logPath);
    if (m_runner)
        m_runner->setAuditContext(audit);
}

void BrowserPanel::setScanCount(int count)
{
    m_scanCount = qMax(1, count);
}

void BrowserPanel::updateWritable()
{
    const QString why =
        !m_writer ? tr("Key actions are not available in this session") : m_readOnlyReason;
    const bool writable = why.isEmpty();
    m_skuView->setWritable(writable, why);
    m_orderView->setWritable(writable, why);
    m_flatView->setWritable(writable, why);
}

void BrowserPanel::setEnvironment(profiles::Environment environment)
{
    m_environment = environment;
    m_pace->setEnvironment(environment);
}

void BrowserPanel::rescan()
{
    m_scannedOnce = true;
    if (!m_topologyWait.runOrKeep([this] { startScan(); }))
        setStatus(tr("Finding out whether the server is a cluster before scanning…"));
}

void BrowserPanel::startScan()
{
    browse::InventoryScan::Options o;
    const browse::ScanPace pace = m_pace->pace();
    o.count = pace.isGentle() ? 0 : m_scanCount; // gentle: its own small pages
    pace.applyTo(o);
    if (!pace.isGentle()) // as many keys in flight as the fast pace's pages hold
        o.pagesInFlight = qMax(o.pagesInFlight, o.pagesInFlight * pace.count / qMax(1, o.count));
    o.timeoutMs = m_scanTimeoutMs;
    m_rescan->setText(tr("Rescan"));
    m_stop->setEnabled(true);
    m_progress->setRange(0, 0); // busy until DBSIZE answers
    setStatus(tr("Scanning stock keys and receipts…"));
    m_scan.start(o);
}

void BrowserPanel::cancelScan()
{
    m_scan.cancel();
}

void BrowserPanel::lookUpOrder(const QByteArray &orderId)
{
    m_tabs->setCurrentIndex(OrderTab);
    m_orderView->lookUp(orderId);
}

void BrowserPanel::findOrder()
{
    m_tabs->setCurrentIndex(OrderTab);
    m_orderView->focusInput();
}

void BrowserPanel::setExpiryWarningMs(qint64 ms)
{
    {
        const QSignalBlocker quiet(m_warnWithin); // a setting from code is not remembered
        m_warnWithin->setValue(int(ms / 60000));
    }
    m_skuView->setExpiryWarningMs(ms);
    m_orderView->setExpiryWarningMs(ms);
}

qint64 BrowserPanel::expiryWarningMs() const
{
    return m_skuView->receiptModel().expiryWarningMs();
}

void BrowserPanel::scheduleSync()
{
    if (m_syncTimer->isActive())
        return;
    // Merging new rows costs O(rows): sync less often as the table grows, so a ten-million
    // key scan spends its time reading, not re-sorting.
    const int rows = m_skuView->skuModel().rowCount();
    m_syncTimer->start(rows > 1000000 ? 2000 : rows > 200000 ? 750 : 200);
}

void BrowserPanel::syncViews()
{
    QElapsedTimer clock;
    clock.start();
    const auto logSlow = qScopeGuard([&] {
        if (clock.elapsed() > 20) // the window's budget is 50 ms: say where it went
            qCDebug(lcBrowse) << "views synced in" << clock.elapsed() << "ms,"
                              << m_skuView->skuModel().rowCount() << "SKU rows";
    });
    if (!m_skuView->sync())
        m_syncTimer->start(5); // more rows to take in: next turn, after the heartbeat
    // The anomaly list is a pass over every row: built only when someone looks at it.
    if (m_tabs->currentIndex() == AnomalyTab)
        m_anomalyView->sync();
    updateCounts();
}

void BrowserPanel::updateCounts()
{
    const browse::KeyspaceStore &st = m_scan.store();
    if (m_scan.isRunning()) {
        m_counts->setText(
            tr("%1 SKUs, %2 receipts so far")
                .arg(QLocale().toString(st.skuCount()), QLocale().toString(st.receiptCount())));
        return;
    }
    const browse::InventorySummary &s = st.totals();
    m_counts->setText(tr("%1 SKUs, %2 receipts, %3 anomalies")
                          .arg(QLocale().toString(s.skus), QLocale().toString(s.receipts),
                               QLocale().toString(s.anomalyTotal())));
    m_tabs->setTabText(AnomalyTab,
                       s.anomalyTotal()
                           ? tr("Anomalies (%1)").arg(QLocale().toString(s.anomalyTotal()))
                           : tr("Anomalies"));
}

void BrowserPanel::refreshVisible()
{
    if (!isVisible() || m_scan.isRunning())
        return;
    if (m_tabs->currentIndex() == OrderTab) {
        m_orderView->refresh();
        return;
    }
    if (m_tabs->currentIndex() != SkuTab)
        return;
    m_refresher.refresh(m_skuView->visibleSkus(), m_skuView->receiptModel().receipts());
}

void BrowserPanel::requestAction(const browse::KeyAction &action)
{
    if (!m_runner || !m_readOnlyReason.isEmpty()) {
        setStatus(m_readOnlyReason.isEmpty() ? tr("Key actions are not available in this session")
                                             : m_readOnlyReason);
        return;
    }
    if (m_runner->isBusy()) {
        setStatus(tr("Another key action is still running."));
        return;
    }
    KeyActionDialog dialog(action,
                           tr("It goes through this session's write gate and is recorded in the "
                              "audit log."),
                           m_environment, m_audit.serverFor(action.key, m_writer->address()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const browse::KeyAction chosen = dialog.action();
    setStatus(tr("Sending: %1").arg(chosen.commandText()));
    m_runner->run(chosen);
}

void BrowserPanel::onActionFinished(const browse::KeyActionRunner::Outcome &o)
{
    QString text = tr("%1 → %2").arg(o.action.commandText(), o.result.text);
    if (!o.auditProblem.isEmpty())
        text +=
            tr(" (WARNING: the audit record could not be written: %1)").arg(o.auditProblem.text);
    setStatus(text);
    if (o.auditProblem.isEmpty())
        emit auditRecorded();
    if (!o.ok)
        return;
    emit keyChanged(o.action.key);
    // Re-read what the action touched, so the views show the server's state, not a guess.
    browse::KeyspaceStore &st = m_scan.store();
    std::vector<uint32_t> skus, receipts;
    if (const auto rk = m_schema.parseReceiptKey(o.action.key)) {
        if (const uint32_t s = st.findSku(rk->sku); s != browse::KeyspaceStore::None)
            if (const uint32_t r = st.findReceipt(s, rk->orderId); r != browse::KeyspaceStore::None)
                receipts.push_back(r);
        if (m_orderView->scan().store().receiptCount() > 0)
            m_orderView->refresh();
    } else if (const auto sku = m_schema.skuOfStockKey(o.action.key)) {
        if (const uint32_t s = st.findSku(*sku); s != browse::KeyspaceStore::None)
            skus.push_back(s);
    }
    if (!m_refresher.refresh(skus, receipts))
        QTimer::singleShot(500, this,
                           [this, skus, receipts] { m_refresher.refresh(skus, receipts); });
}

void BrowserPanel::exportCurrent()
{
    const QAbstractItemModel *model = nullptr;
    QString name;
    switch (m_tabs->currentIndex()) {
    case SkuTab:
        model = &m_skuView->skuModel();
        name = QStringLiteral("skus.csv");
        break;
    case OrderTab:
        model = &m_orderView->model();
        name = QStringLiteral("order-receipts.csv");
        break;
    case KeysTab:
        model = &m_flatView->model();
        name = QStringLiteral("keys.csv");
        break;
    default:
        model = &m_anomalyView->model();
        name = QStringLiteral("anomalies.csv");
    }
    exportModelCsv(this, *model, name, [this](const QString &s) { setStatus(s); });
}

void BrowserPanel::setTopology(const redis::ClusterTopology *topology)
{
    const bool appeared = topology && !m_locator.isCluster();
    m_locator.setTopology(topology);
    for (browse::LocatedTableModel *m : std::initializer_list<browse::LocatedTableModel *>{
             &m_skuView->skuModel(), &m_skuView->receiptModel(), &m_orderView->model(),
             &m_anomalyView->model(), &m_flatView->model()})
        m->setLocator(&m_locator);
    // The new columns get widths that show a whole slot number and host:port (once: later
    // topology changes keep what the user resized).
    if (appeared)
        for (QTableView *view : findChildren<QTableView *>())
            if (auto *m = qobject_cast<browse::LocatedTableModel *>(view->model());
                m && m->located()) {
                const int ch = view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
                view->setColumnWidth(m->columnCount() - 2, 7 * ch + 16);
                view->setColumnWidth(m->columnCount() - 1, 22 * ch + 16);
            }
    updateNodeProgress();
}

void BrowserPanel::setTopologyKnown(bool known)
{
    m_orderView->setTopologyKnown(known);
    m_flatView->setTopologyKnown(known);
    m_topologyWait.setKnown(known);
}

void BrowserPanel::updateNodeProgress()
{
    QList<browse::KeyspaceScanner::NodeProgress> nodes = m_scan.scanner().nodeProgress();
    std::sort(nodes.begin(), nodes.end(),
              [](const auto &a, const auto &b) { return a.name < b.name; });
    m_nodes->setVisible(nodes.size() > 1);
    if (nodes.size() <= 1)
        return;
    QStringList parts;
    for (const auto &n : nodes) {
        const QString keys = countText(n.keysSeen, QT_TRANSLATE_NOOP("ui::Count", "key"),
                                       QT_TRANSLATE_NOOP("ui::Count", "keys"));
        if (!n.failure.isEmpty())
            parts << tr("<b>%1 FAILED</b> after %2: %3")
                         .arg(n.name.toHtmlEscaped(), keys, n.failure.toHtmlEscaped());
        else if (n.done)
            parts << tr("%1 done, %2").arg(n.name.toHtmlEscaped(), keys);
        else
            parts << tr("%1 %2 %, %3")
                         .arg(n.name.toHtmlEscaped())
                         .arg(int(n.fraction * 100))
                         .arg(keys);
    }
    m_nodes->setText(tr("Cluster, %1 primaries: ").arg(nodes.size())
                     + parts.join(QStringLiteral(" · ")));
}

void BrowserPanel::setStatus(const QString &message)
{
    m_status->setText(message);
    emit statusMessage(message);
}

QString BrowserPanel::statusText() const
{
    return m_status->text();
}

} // namespace ui
