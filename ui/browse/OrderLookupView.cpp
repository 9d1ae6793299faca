// SPDX-License-Identifier: GPL-3.0-or-later
#include "OrderLookupView.h"
#include "browse/OrderAuditNote.h"

#include "ui/common/Palette.h"

#include "BrowseTables.h"
#include "browse/Cells.h"
#include "browse/ModelRoles.h"
#include "browse/OrderSentence.h"
#include "core/Bytes.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QThreadPool>
#include <QVBoxLayout>

namespace ui {

OrderLookupView::OrderLookupView(redis::CommandSender &reader, inventory::KeySchema schema,
                                 QWidget *parent)
    : QWidget(parent)
    , m_scan(reader, std::move(schema))
    , m_model(m_scan.store())
    , m_refresher(reader, m_scan.store())
    , m_warnWithinMs(browse::DefaultExpiryWarningMs)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(createInputRow());
    m_progress = new QLabel(this);
    m_progress->setObjectName(QStringLiteral("orderProgress"));
    layout->addWidget(m_progress);
    auto *split = new QSplitter(Qt::Vertical, this);
    m_result = new QTextBrowser(split);
    m_result->setObjectName(QStringLiteral("orderResult"));
    m_result->setOpenLinks(false); // "audit:<row>" links are ours, not URLs
    m_result->setPlaceholderText(
        tr("Type an order id and press Enter. Each receipt found is explained: what the order "
           "deducted, how much was left, and until when a retry returns the first result."));
    split->addWidget(m_result);
    split->addWidget(createReceiptPane(split));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    connectSearch();
    connectActions();
    updateActions();
}

QHBoxLayout *OrderLookupView::createInputRow()
{
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Order id:"), this));
    m_input = new QLineEdit(this);
    m_input->setObjectName(QStringLiteral("orderIdInput"));
    m_input->setPlaceholderText(tr("e.g. 9001: finds its receipts in every SKU"));
    m_input->setClearButtonEnabled(true);
    row->addWidget(m_input, 1);
    m_go = new QPushButton(tr("Look up"), this);
    m_go->setObjectName(QStringLiteral("orderLookUp"));
    m_go->setDefault(true);
    row->addWidget(m_go);
    return row;
}

QWidget *OrderLookupView::createReceiptPane(QWidget *parent)
{
    auto *lower = new QWidget(parent);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    m_table = makeBrowseTable(lower, QStringLiteral("orderReceiptTable"));
    m_table->setModel(&m_model);
    m_table->horizontalHeader()->setSortIndicator(browse::ReceiptTableModel::Sku,
                                                  Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    setBrowseColumnWidths(m_table, {16, 12, 18, 12, 27, 48});
    lowerLayout->addWidget(m_table, 1);
    auto *buttons = new QHBoxLayout;
    m_copyKey = new QPushButton(tr("Copy receipt key"), lower);
    m_setTtl = new QPushButton(tr("Set TTL…"), lower);
    m_delete = new QPushButton(tr("Delete receipt…"), lower);
    m_delete->setObjectName(QStringLiteral("orderDeleteReceipt"));
    m_audit = new QPushButton(tr("Show in audit log"), lower);
    m_audit->setObjectName(QStringLiteral("orderShowAudit"));
    buttons->addWidget(m_copyKey);
    buttons->addWidget(m_audit);
    buttons->addStretch();
    buttons->addWidget(m_setTtl);
    buttons->addWidget(m_delete);
    lowerLayout->addLayout(buttons);
    return lower;
}

void OrderLookupView::connectSearch()
{
    auto go = [this] {
        lookUp(m_input->text().trimmed().toUtf8());
    };
    connect(m_input, &QLineEdit::returnPressed, this, go);
    connect(m_go, &QPushButton::clicked, this, go);
    connect(&m_scan, &browse::InventoryScan::progress, this, [this] {
        m_progress->setText(tr("Searching every SKU's receipts… %1 % of the keyspace")
                                .arg(int(m_scan.scanner().fractionDone() * 100)));
    });
    const auto showRows = [this] {
        m_model.sync();
        render();
    };
    connect(&m_scan, &browse::InventoryScan::storeChanged, this, showRows);
    connect(&m_refresher, &browse::RowRefresher::refreshed, this, showRows);
    connect(&m_scan, &browse::InventoryScan::finished, this, &OrderLookupView::onSearchFinished);
}

void OrderLookupView::onSearchFinished(bool complete, const QString &error)
{
    m_go->setText(tr("Look up"));
    const auto &sc = m_scan.scanner();
    m_progress->setText(complete ? tr("%1 for order %2; searched all %3 keys in %4 s.")
                                       .arg(countText(m_scan.store().receiptCount(),
                                                      QT_TRANSLATE_NOOP("ui::Count", "receipt"),
                                                      QT_TRANSLATE_NOOP("ui::Count", "receipts")),
                                            core::escapeBytes(m_orderId, 60),
                                            QLocale().toString(qMax<qint64>(0, sc.dbSize())))
                                       .arg(sc.elapsedMs() / 1000.0, 0, 'f', 1)
                        : error.isEmpty()
                            ? tr("Search cancelled: the receipts listed may not be all.")
                            : tr("Search failed: %1").arg(error));
    m_model.sync();
    readEvidence();
    render();
}

void OrderLookupView::connectActions()
{
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OrderLookupView::updateActions);
    auto selectedKey = [this] {
        const QModelIndex i = m_table->currentIndex();
        return i.isValid() ? i.data(browse::KeyRole).toByteArray() : QByteArray();
    };
    connect(m_copyKey, &QPushButton::clicked, this, [this, selectedKey] {
        copyBytesToClipboard(selectedKey());
        emit status(tr("Copied key %1").arg(core::escapeBytes(selectedKey(), 80)));
    });
    connect(m_setTtl, &QPushButton::clicked, this, [this, selectedKey] {
        emit actionRequested(browse::KeyAction::setTtl(selectedKey(), 7 * 86400));
    });
    connect(m_delete, &QPushButton::clicked, this, [this, selectedKey] {
        emit actionRequested(browse::KeyAction::remove(selectedKey()));
    });
    connect(m_audit, &QPushButton::clicked, this, &OrderLookupView::requestAuditRecords);
    connect(m_result, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        // "audit:" alone is the whole order; "audit:<receipt row>" one SKU's records.
        if (url.scheme() != QLatin1String("audit"))
            return;
        const browse::KeyspaceStore &st = m_scan.store();
        bool ok = false;
        const uint r = url.path().toUInt(&ok);
        const QString sku = ok && r < st.receiptRows()
                                ? QString::fromUtf8(st.skuName(st.skuOfReceipt(r)).toByteArray())
                                : QString();
        emit auditRecordsRequested(sku, QString::fromUtf8(m_orderId));
    });
}

void OrderLookupView::lookUp(const QByteArray &orderId)
{
    if (m_scan.isRunning() && orderId == m_orderId) {
        m_scan.cancel(); // the button reads "Stop" while searching
        return;
    }
    if (orderId.isEmpty()) {
        m_progress->setText(tr("Type an order id first."));
        return;
    }
    if (m_input->text().trimmed().toUtf8() != orderId)
        m_input->setText(QString::fromUtf8(orderId));
    if (!m_topologyWait.runOrKeep([this, orderId] { start(orderId); }))
        m_progress->setText(tr("Finding out whether the server is a cluster before "
                               "searching…"));
}

void OrderLookupView::start(const QByteArray &orderId)
{
    m_orderId = orderId;
    browse::InventoryScan::Options o;
    o.orderId = orderId;
    o.count = 5000; // one pattern, few hits: bigger pages mean fewer round trips
    m_go->setText(tr("Stop"));
    m_rendered.clear();
    m_evidence = {};
    ++m_generation; // replies to an earlier lookup's evidence reads are dropped
    m_scan.start(o);
    m_model.showAll();
    render();
}

void OrderLookupView::readEvidence()
{
    // What the retry and "no receipt" sentences rest on, read from the node holding each
    // receipt (or every node searched); until it comes they say "not proven yet".
    const browse::KeyspaceStore &st = m_scan.store();
    auto read = [this,
                 generation = m_generation](redis::CommandSender &sender, const QByteArray &key,
                                            std::function<void(browse::ServerEvidence)> keep) {
        sender.sendBatch(browse::evidenceCommands(key), this,
                         [this, generation, keep](const QList<redis::ReplyResult> &replies) {
                             if (generation != m_generation)
                                 return;
                             keep(browse::decodeEvidence(replies, browse::modelNowMs()));
                             render();
                         });
    };
    bool any = false;
    for (uint32_t r : m_model.receipts())
        if (st.receiptAlive(r)) {
            any = true;
            read(m_scan.sender(), st.receiptKey(r),
                 [this, r](browse::ServerEvidence e) { m_evidence.byReceipt.insert(r, e); });
        }
    if (any || !m_scan.isComplete())
        return;
    const QList<redis::ScanNode> nodes = m_scan.sender().scanNodes();
    m_nodesAsked = nodes.size();
    for (const redis::ScanNode &node : nodes)
        read(*node.sender, {}, [this](browse::ServerEvidence e) {
            m_evidence.nodes << e;
            if (m_evidence.nodes.size() == m_nodesAsked)
                readAuditNote();
        });
}

void OrderLookupView::readAuditNote()
{
    // The log can hold years of records: it is read off the GUI thread.
    const QString path =
        m_auditLogPath.isEmpty() ? inventory::AuditLog::defaultPath() : m_auditLogPath;
    QPointer<OrderLookupView> self(this);
    QThreadPool::globalInstance()->start([self, path, orderId = m_orderId, nodes = m_evidence.nodes,
                                          generation = m_generation] {
        const auto audit = inventory::AuditLog::read(path);
        const QString note =
            audit.records.isEmpty() && !audit.problems.isEmpty()
                ? tr("Could not read this console's audit log: %1").arg(audit.problems.first())
                : browse::orderAuditNote(inventory::pairAttempts(audit.records), orderId, nodes);
        QMetaObject::invokeMethod(
            qApp,
            [self, note, generation] {
                if (!self || generation != self->m_generation)
                    return;
                self->m_evidence.auditNote = note;
                self->render();
            },
            Qt::QueuedConnection);
    });
}
void OrderLookupView::requestAuditRecords()
{
    if (m_orderId.isEmpty())
        return;
    const QModelIndex i = m_table->currentIndex();
    QString sku;
    if (i.isValid())
        sku = QString::fromUtf8(m_model.index(i.row(), browse::ReceiptTableModel::Sku)
                                    .data(browse::RawBytesRole)
                                    .toByteArray());
    emit auditRecordsRequested(sku, QString::fromUtf8(m_orderId));
}

void OrderLookupView::setExpiryWarningMs(qint64 ms)
{
    m_warnWithinMs = ms;
    m_model.setExpiryWarningMs(ms);
    render();
}

void OrderLookupView::focusInput()
{
    m_input->setFocus(Qt::ShortcutFocusReason);
    m_input->selectAll();
}

QString OrderLookupView::resultText() const
{
    return m_result->toPlainText();
}

void OrderLookupView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        render();
}

void OrderLookupView::render()
{
    const browse::KeyspaceStore &st = m_scan.store();
    const qint64 now = browse::modelNowMs();
    QString html;
    if (m_orderId.isEmpty())
        return;
    const std::vector<uint32_t> &rows = m_model.receipts();
    const QString quiet = Palette::muted().name();
    for (uint32_t r : rows) {
        if (!st.receiptAlive(r))
            continue;
        const auto evidence = m_evidence.byReceipt.constFind(r);
        const browse::OrderExplanation e = browse::explainOrder(
            st, r, now, evidence == m_evidence.byReceipt.constEnd() ? nullptr : &*evidence,
            m_warnWithinMs);
        // The retry line answers the question support is asked; when its window is about
        // to close it is the one thing on the page that must not be missed.
        const QString retry = e.expiringSoon
                                  ? QStringLiteral("<span style='background:%2'>&#9888; %1</span>")
                                        .arg(e.retry.toHtmlEscaped(), Palette::soonTint().name())
                                  : e.retry.toHtmlEscaped();
        html += (QStringLiteral("<p><b>SKU %1</b> &nbsp;<span style='color:") + quiet
                 + QStringLiteral("'>%2</span><br>%3<br>%4<br>%5<br><a href='audit:%6'>%7</a></p>"))
                    .arg(core::escapeBytes(st.skuName(st.skuOfReceipt(r)).toByteArray(), 60)
                             .toHtmlEscaped(),
                         core::escapeBytes(st.receiptKey(r), 120).toHtmlEscaped(),
                         e.deducted.toHtmlEscaped(), retry, e.stockNow.toHtmlEscaped())
                    .arg(r)
                    .arg(tr("Show this order in the audit log"));
    }
    if (html.isEmpty())
        html = m_scan.isRunning()
                   ? tr("<p>Searching for order %1…</p>")
                         .arg(core::escapeBytes(m_orderId, 60).toHtmlEscaped())
                   : QStringLiteral("<p>%1</p><p>%2</p><p><a href='audit:'>%3</a></p>")
                         .arg(browse::orderNotFoundSentence(m_orderId, m_evidence.nodes,
                                                            m_scan.isComplete())
                                  .toHtmlEscaped(),
                              m_evidence.auditNote.toHtmlEscaped(),
                              tr("Look for this order in the audit log"));
    if (html != m_rendered) { // a re-render would reset the reader's scroll and selection
        m_rendered = html;
        m_result->setHtml(html);
    }
    updateActions();
}

void OrderLookupView::tick()
{
    m_model.tick();
    render();
}

void OrderLookupView::refresh()
{
    if (!m_scan.isRunning() && m_model.rowCount() > 0)
        m_refresher.refresh({}, m_model.receipts());
}

void OrderLookupView::setWritable(bool writable, const QString &why)
{
    m_writable = writable;
    m_readOnlyWhy = why;
    updateActions();
}

void OrderLookupView::updateActions()
{
    const bool any = m_table->currentIndex().isValid();
    m_copyKey->setEnabled(any);
    m_audit->setEnabled(!m_orderId.isEmpty());
    m_audit->setToolTip(any ? tr("This order's records for the selected SKU in the audit log")
                            : tr("This order's records in the audit log, in every SKU"));
    for (QPushButton *b : {m_setTtl, m_delete}) {
        b->setEnabled(any && m_writable);
        b->setToolTip(m_writable ? QString() : m_readOnlyWhy);
    }
}

} // namespace ui
