// SPDX-License-Identifier: GPL-3.0-or-later
#include "SkuBrowserView.h"

#include "BrowseTables.h"
#include "browse/Cells.h"
#include "browse/Glob.h"
#include "browse/InventoryScan.h"
#include "browse/ModelRoles.h"
#include "browse/Values.h"
#include "core/Bytes.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

SkuBrowserView::SkuBrowserView(browse::InventoryScan &scan, QWidget *parent)
    : QWidget(parent)
    , m_scan(scan)
    , m_skus(scan.store())
    , m_receipts(scan.store())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(createFilterRow());
    auto *split = new QSplitter(Qt::Vertical, this);
    m_skuTable = makeBrowseTable(split, QStringLiteral("skuTable"));
    m_skuTable->setModel(&m_skus);
    m_skuTable->horizontalHeader()->setSortIndicator(browse::SkuTableModel::Sku,
                                                     Qt::AscendingOrder);
    m_skuTable->setSortingEnabled(true);
    setBrowseColumnWidths(m_skuTable, {22, 12, 12, 9, 22});
    split->addWidget(m_skuTable);
    split->addWidget(createReceiptPane(split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_skuTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SkuBrowserView::showReceiptsOfCurrent);
    connect(m_receiptTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SkuBrowserView::updateActions);
    connect(m_receiptTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SkuBrowserView::updateActions);
    connect(m_skuTable, &QTableView::pressed, m_receiptTable, &QTableView::clearSelection);
    connectButtons();
    addContextActions();
    updateActions();
}

QHBoxLayout *SkuBrowserView::createFilterRow()
{
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Filter SKUs:"), this));
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("skuFilter"));
    m_filter->setPlaceholderText(tr("part of a SKU, or a glob like sku-10*"));
    m_filter->setClearButtonEnabled(true);
    filterRow->addWidget(m_filter, 1);
    m_anomaliesOnly = new QCheckBox(tr("Only SKUs with anomalies"), this);
    m_anomaliesOnly->setObjectName(QStringLiteral("anomaliesOnly"));
    filterRow->addWidget(m_anomaliesOnly);
    // Typing filters after a pause: a million rows are filtered once, not per keystroke.
    auto *filterDelay = new QTimer(this);
    filterDelay->setSingleShot(true);
    filterDelay->setInterval(250);
    connect(m_filter, &QLineEdit::textChanged, filterDelay, qOverload<>(&QTimer::start));
    connect(filterDelay, &QTimer::timeout, this, &SkuBrowserView::applyFilter);
    connect(m_anomaliesOnly, &QCheckBox::toggled, this, &SkuBrowserView::applyFilter);
    return filterRow;
}

QWidget *SkuBrowserView::createReceiptPane(QWidget *parent)
{
    auto *lower = new QWidget(parent);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 4, 0, 0);
    m_receiptsTitle = new QLabel(tr("Select a SKU to see its receipts."), lower);
    m_receiptsTitle->setObjectName(QStringLiteral("receiptsTitle"));
    m_receiptsTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lowerLayout->addWidget(m_receiptsTitle);
    m_receiptTable = makeBrowseTable(lower, QStringLiteral("receiptTable"));
    m_receiptTable->setModel(&m_receipts);
    m_receiptTable->horizontalHeader()->setSortIndicator(browse::ReceiptTableModel::Order,
                                                         Qt::AscendingOrder);
    m_receiptTable->setSortingEnabled(true);
    m_receiptTable->hideColumn(browse::ReceiptTableModel::Sku);
    setBrowseColumnWidths(m_receiptTable, {0, 16, 18, 12, 27, 48});
    lowerLayout->addWidget(m_receiptTable, 1);

    auto *buttons = new QHBoxLayout;
    m_copyKey = new QPushButton(tr("Copy key"), lower);
    m_copyValue = new QPushButton(tr("Copy value"), lower);
    m_setTtl = new QPushButton(tr("Set TTL…"), lower);
    m_removeTtl = new QPushButton(tr("Remove TTL…"), lower);
    m_delete = new QPushButton(tr("Delete receipt…"), lower);
    m_setStock = new QPushButton(tr("Set stock…"), lower);
    m_setStock->setObjectName(QStringLiteral("setStock"));
    m_setTtl->setObjectName(QStringLiteral("setTtl"));
    m_removeTtl->setObjectName(QStringLiteral("removeTtl"));
    m_delete->setObjectName(QStringLiteral("deleteReceipt"));
    for (QPushButton *b : {m_copyKey, m_copyValue})
        buttons->addWidget(b);
    buttons->addStretch();
    for (QPushButton *b : {m_setStock, m_setTtl, m_removeTtl, m_delete})
        buttons->addWidget(b);
    lowerLayout->addLayout(buttons);
    return lower;
}

// Which key the buttons act on: the receipt if one is selected, else the SKU's stock key.
void SkuBrowserView::connectButtons()
{
    connect(m_copyKey, &QPushButton::clicked, this, [this] {
        bool receipt = false;
        const QByteArray key = currentKey(&receipt);
        copyBytesToClipboard(key);
        emit status(tr("Copied key %1").arg(core::escapeBytes(key, 80)));
    });
    connect(m_copyValue, &QPushButton::clicked, this, [this] {
        bool receipt = false;
        currentKey(&receipt);
        const QTableView *t = receipt ? m_receiptTable : m_skuTable;
        const int column = t == m_receiptTable ? int(browse::ReceiptTableModel::Remaining)
                                               : int(browse::SkuTableModel::Stock);
        const QModelIndex i = t->model()->index(t->currentIndex().row(), column);
        copyBytesToClipboard(i.data(browse::RawBytesRole).toByteArray());
        emit status(tr("Copied value %1").arg(i.data().toString()));
    });
    connect(m_setTtl, &QPushButton::clicked, this, [this] {
        bool receipt = false;
        const QByteArray key = currentKey(&receipt);
        emit actionRequested(browse::KeyAction::setTtl(key, receipt ? 7 * 86400 : 86400));
    });
    connect(m_removeTtl, &QPushButton::clicked, this, [this] {
        bool receipt = false;
        emit actionRequested(browse::KeyAction::removeTtl(currentKey(&receipt)));
    });
    connect(m_setStock, &QPushButton::clicked, this, [this] {
        const uint32_t sku = currentStockSku();
        if (sku == browse::KeyspaceStore::None)
            return;
        const browse::KeyspaceStore &st = m_scan.store();
        emit actionRequested(
            browse::KeyAction::setStock(st.stockKey(sku), {}, browse::stockText(st, sku)));
    });
    connect(m_delete, &QPushButton::clicked, this, [this] {
        bool receipt = false;
        const QByteArray key = currentKey(&receipt);
        if (receipt)
            emit actionRequested(browse::KeyAction::remove(key));
    });
}

// The buttons' actions in the tables' context menus, and Watch stock on the SKU table.
void SkuBrowserView::addContextActions()
{
    for (QTableView *t : {m_skuTable, m_receiptTable})
        for (QPushButton *b :
             {m_copyKey, m_copyValue, m_setStock, m_setTtl, m_removeTtl, m_delete}) {
            if ((t == m_skuTable && b == m_delete) || (t == m_receiptTable && b == m_setStock))
                continue;
            auto *a = new QAction(b->text(), t);
            connect(a, &QAction::triggered, b, &QPushButton::click);
            t->addAction(a);
        }
    // Only reads: allowed in a read-only session too.
    auto *watch = new QAction(tr("Watch stock (Charts tab)"), m_skuTable);
    watch->setObjectName(QStringLiteral("watchStockAction"));
    connect(watch, &QAction::triggered, this, [this] {
        const QModelIndex i = m_skuTable->currentIndex();
        if (!i.isValid())
            return;
        const uint32_t sku = m_skus.skuAt(i.row());
        const browse::KeyspaceStore &st = m_scan.store();
        emit watchStockRequested(st.skuName(sku).toByteArray(), st.stockKey(sku));
    });
    m_skuTable->addAction(watch);
}

void SkuBrowserView::reapplyFilter()
{
    applyFilter();
}

void SkuBrowserView::setExpiryWarningMs(qint64 ms)
{
    m_skus.setExpiryWarningMs(ms);
    m_receipts.setExpiryWarningMs(ms);
    updateReceiptsTitle();
}

void SkuBrowserView::applyFilter()
{
    const uint32_t current = m_skuTable->currentIndex().isValid()
                                 ? m_skus.skuAt(m_skuTable->currentIndex().row())
                                 : browse::KeyspaceStore::None;
    const QByteArray filter = m_filter->text().toUtf8();
    m_skus.setFilter(filter, m_anomaliesOnly->isChecked());
    if (current != browse::KeyspaceStore::None && m_skus.rowOfSku(current) >= 0)
        selectSku(current);
    else
        m_skuTable->setCurrentIndex({}); // a reset drops the current row without a signal
    // The receipts pane shows the current SKU or nothing, never one the filter hid.
    showReceiptsOfCurrent();
    const QString shown =
        tr("%1 shown")
            .arg(countText(m_skus.rowCount(), QT_TRANSLATE_NOOP("ui::Count", "SKU"),
                           QT_TRANSLATE_NOOP("ui::Count", "SKUs")));
    // A glob that cannot mean what was typed shows few or no rows: say why.
    const auto problem = m_skus.filterIsGlob() ? browse::globProblem(filter) : std::nullopt;
    emit status(problem ? tr("%1; in the filter, %2").arg(shown, *problem) : shown);
}

bool SkuBrowserView::sync()
{
    // At most 20,000 new rows a turn, the rest waits for the next one. On a million-row table a
    // sync's cost is mostly its passes over every row (the new rows' places are found by a
    // galloping search), so fewer, larger steps stall less than many small ones.
    constexpr uint32_t RowsPerSync = 20000;
    const bool caughtUp = m_skus.sync(RowsPerSync);
    m_receipts.sync();
    if (m_receipts.sku() == browse::KeyspaceStore::None && m_skuTable->currentIndex().isValid())
        showReceiptsOfCurrent();
    else if (m_receipts.sku() != browse::KeyspaceStore::None
             && m_skus.rowOfSku(m_receipts.sku()) < 0)
        showReceiptsOfCurrent(); // the SKU left the table (a rebuild, a filter)
    updateReceiptsTitle();
    updateActions();
    return caughtUp;
}

void SkuBrowserView::tick()
{
    m_skus.tick();
    m_receipts.tick();
    updateReceiptsTitle(); // a receipt that expired is no longer counted
}

void SkuBrowserView::selectSku(uint32_t sku)
{
    const int row = m_skus.rowOfSku(sku);
    if (row < 0)
        return;
    m_skuTable->setCurrentIndex(m_skus.index(row, 0));
    m_skuTable->scrollTo(m_skus.index(row, 0), QAbstractItemView::PositionAtCenter);
}

std::vector<uint32_t> SkuBrowserView::visibleSkus() const
{
    if (m_skus.rowCount() == 0)
        return {};
    const int first = qMax(0, m_skuTable->rowAt(0));
    int last = m_skuTable->rowAt(m_skuTable->viewport()->height() - 1);
    if (last < 0)
        last = m_skus.rowCount() - 1;
    return m_skus.idsInRows(first, last);
}

void SkuBrowserView::showReceiptsOfCurrent()
{
    const QModelIndex i = m_skuTable->currentIndex();
    m_receipts.showSku(i.isValid() ? m_skus.skuAt(i.row()) : browse::KeyspaceStore::None);
    updateReceiptsTitle();
    updateActions();
}

void SkuBrowserView::updateReceiptsTitle()
{
    const uint32_t sku = m_receipts.sku();
    const browse::KeyspaceStore &st = m_scan.store();
    if (sku == browse::KeyspaceStore::None) {
        m_receiptsTitle->setText(tr("Select a SKU to see its receipts."));
        return;
    }
    // Counted from the rows below, by the clock: a receipt that expired a second ago is gone
    // on the server even before the next refresh removes its row.
    const qint64 now = browse::modelNowMs();
    QString text =
        tr("Receipts of SKU %1 (stock key %2): %3")
            .arg(core::escapeBytes(st.skuName(sku).toByteArray(), 60),
                 core::escapeBytes(st.stockKey(sku), 80),
                 countText(m_receipts.liveCount(now), QT_TRANSLATE_NOOP("ui::Count", "receipt"),
                           QT_TRANSLATE_NOOP("ui::Count", "receipts")));
    if (const int soon = m_receipts.expiringSoonCount(now))
        text += tr("; %1 within %2: a retry after that deducts again")
                    .arg(soon == 1 ? tr("1 expires") : tr("%1 expire").arg(soon),
                         browse::formatDuration(m_receipts.expiryWarningMs(),
                                                core::Wording::Translated));
    if (m_receiptsTitle->text() != text)
        m_receiptsTitle->setText(text);
}

QByteArray SkuBrowserView::currentKey(bool *isReceipt) const
{
    const QModelIndex r = m_receiptTable->currentIndex();
    // isRowSelected() would ask for every column, the hidden SKU column too: ask for the
    // current cell instead.
    if (r.isValid() && m_receiptTable->selectionModel()->isSelected(r)) {
        *isReceipt = true;
        return r.data(browse::KeyRole).toByteArray();
    }
    *isReceipt = false;
    const QModelIndex s = m_skuTable->currentIndex();
    return s.isValid() ? s.data(browse::KeyRole).toByteArray() : QByteArray();
}

QString SkuBrowserView::receiptsTitle() const
{
    return m_receiptsTitle->text();
}

uint32_t SkuBrowserView::currentStockSku() const
{
    bool receipt = false;
    currentKey(&receipt);
    const QModelIndex i = m_skuTable->currentIndex();
    if (receipt || !i.isValid())
        return browse::KeyspaceStore::None;
    const uint32_t sku = m_skus.skuAt(i.row());
    return m_scan.store().stockPresent(sku) ? sku : browse::KeyspaceStore::None;
}

qint64 SkuBrowserView::currentExpiry() const
{
    bool receipt = false;
    currentKey(&receipt);
    const QModelIndex i = receipt ? m_receiptTable->currentIndex() : m_skuTable->currentIndex();
    return i.isValid() ? i.data(browse::ExpiryRole).toLongLong() : browse::NoExpiry;
}

void SkuBrowserView::setWritable(bool writable, const QString &why)
{
    m_writable = writable;
    m_readOnlyWhy = why;
    updateActions();
}

void SkuBrowserView::updateActions()
{
    bool receipt = false;
    const QByteArray key = currentKey(&receipt);
    const bool any = !key.isEmpty();
    m_copyKey->setEnabled(any);
    m_copyValue->setEnabled(any);
    // PERSIST on a key without a TTL changes nothing: offer it only where there is one.
    const bool hasTtl = any && currentExpiry() != browse::NoExpiry;
    for (QPushButton *b : {m_setTtl, m_removeTtl, m_delete}) {
        b->setEnabled(any && m_writable && (b != m_delete || receipt)
                      && (b != m_removeTtl || hasTtl));
        b->setToolTip(m_writable ? QString() : m_readOnlyWhy);
    }
    const bool stock = currentStockSku() != browse::KeyspaceStore::None;
    m_setStock->setEnabled(stock && m_writable);
    m_setStock->setToolTip(!m_writable ? m_readOnlyWhy
                           : stock     ? tr("Replace this SKU's stock value (e.g. a bad one such "
                                                "as 12.5 or -3); the exact command is shown first")
                                       : tr("Select a SKU whose stock key exists"));
    if (m_writable && any && !hasTtl)
        m_removeTtl->setToolTip(tr("This key has no TTL: there is nothing to remove."));
    const QString target = receipt ? tr("receipt") : tr("stock key");
    m_copyKey->setText(receipt ? tr("Copy receipt key") : tr("Copy stock key"));
    m_setTtl->setText(tr("Set TTL on %1…").arg(target));
    m_removeTtl->setText(tr("Remove TTL from %1…").arg(target));
}

} // namespace ui
