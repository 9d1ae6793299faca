// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditViewerPanel.h"

#include "AuditRecordDetail.h"
#include "core/Bytes.h"
#include "core/DataPaths.h"
#include "inventory/AuditLoader.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/OutcomeStyle.h"
#include "ui/common/Palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

namespace {
// Unknown outcomes are the records someone has to follow up: they stand out. An attempt with
// no outcome record is one of them, tinted as well: the console stopped before the reply.
class AuditColorProxy : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        const auto flag = [&](AuditTableModel::Role r) {
            return QIdentityProxyModel::data(index, r).toBool();
        };
        if (role == Qt::ForegroundRole && flag(AuditTableModel::OutcomeUnknownRole))
            return outcomeColor(OutcomeKind::Unknown);
        if (role == Qt::BackgroundRole && flag(AuditTableModel::NoOutcomeRecordedRole))
            return outcomeTint(OutcomeKind::Unknown);
        if (role == Qt::ForegroundRole && index.column() == AuditTableModel::Server
            && !QIdentityProxyModel::data(index, AuditTableModel::ServerChangeRole)
                    .toString()
                    .isEmpty())
            return Palette::warning();
        return QIdentityProxyModel::data(index, role);
    }
};
constexpr int MaxColumnWidth = 340; // long results and commands: the tooltip and pane show all
constexpr int SizingRows = 60;
} // namespace

AuditViewerPanel::AuditViewerPanel(const QString &auditLogPath, QWidget *parent)
    : QWidget(parent)
    , m_path(auditLogPath)
{
    m_model = new AuditTableModel(this);
    auto *bar = buildFilterBar();
    auto *orderBar = buildOrderBar();
    auto *progressBar = buildProgressBar();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("auditStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems = new NoticeBanner(NoticeBanner::Kind::Warning, this);
    m_problems->setObjectName(QStringLiteral("auditProblems"));
    m_problems->setTextFormat(Qt::PlainText);
    auto *split = buildTableAndDetail();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(orderBar);
    layout->addLayout(progressBar);
    layout->addWidget(m_status);
    layout->addWidget(m_problems);
    layout->addWidget(split, 1);

    m_model->setIndex(std::make_unique<AuditIndex>(m_path));
    // Whoever appends (this window's panels, inventory-cli in a terminal), the rows follow.
    connect(&m_watcher, &AuditLogWatcher::changed, this, &AuditViewerPanel::reload);
    m_watcher.setPath(m_path);
    reload();
}

QHBoxLayout *AuditViewerPanel::buildFilterBar()
{
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("actionFilter"));
    m_action->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("textFilter"));
    m_text->setPlaceholderText(tr("Filter: key, order, result, profile, server, user…"));
    m_text->setClearButtonEnabled(true);
    m_unknownOnly = new QCheckBox(tr("Outcome unknown only"), this);
    m_unknownOnly->setObjectName(QStringLiteral("unknownOnly"));
    auto *reloadButton = new QPushButton(tr("Reload"), this);
    auto *csv = new QPushButton(tr("Export CSV…"), this);
    auto *jsonl = new QPushButton(tr("Export JSON lines…"), this);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Action"), this));
    bar->addWidget(m_action);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_unknownOnly);
    bar->addWidget(reloadButton);
    bar->addWidget(csv);
    bar->addWidget(jsonl);

    connect(m_action, &QComboBox::currentIndexChanged, this, &AuditViewerPanel::applyFilter);
    connect(m_text, &QLineEdit::textChanged, this, &AuditViewerPanel::applyFilter);
    connect(m_unknownOnly, &QCheckBox::toggled, this, &AuditViewerPanel::applyFilter);
    connect(reloadButton, &QPushButton::clicked, this, &AuditViewerPanel::reload);
    connect(csv, &QPushButton::clicked, this, [this] { exportInteractively(Format::Csv); });
    connect(jsonl, &QPushButton::clicked, this, [this] { exportInteractively(Format::JsonLines); });
    return bar;
}

// Hidden until showOrder() narrows the view to one order.
QHBoxLayout *AuditViewerPanel::buildOrderBar()
{
    m_orderFilter = new QLabel(this);
    m_orderFilter->setObjectName(QStringLiteral("orderFilter"));
    m_orderFilter->setTextFormat(Qt::PlainText);
    m_clearOrder = new QPushButton(tr("Show all orders"), this);
    m_clearOrder->setObjectName(QStringLiteral("clearOrderFilter"));
    auto *orderBar = new QHBoxLayout;
    orderBar->addWidget(m_orderFilter);
    orderBar->addWidget(m_clearOrder);
    orderBar->addStretch(1);
    m_orderFilter->hide();
    m_clearOrder->hide();
    connect(m_clearOrder, &QPushButton::clicked, this, [this] { showOrder({}, {}); });
    return orderBar;
}

// Shown only while a long read runs on the worker.
QHBoxLayout *AuditViewerPanel::buildProgressBar()
{
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("auditProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("Reading the audit log… %p%"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelAuditLoad"));
    m_cancel->setToolTip(tr("Stop reading; the writes read so far (the oldest) are shown, and "
                            "Reload reads the rest."));
    auto *progressBar = new QHBoxLayout;
    progressBar->addWidget(m_progress, 1);
    progressBar->addWidget(m_cancel);
    m_progress->hide();
    m_cancel->hide();
    m_loader = new AuditLoader(this);
    connect(m_cancel, &QPushButton::clicked, this, &AuditViewerPanel::cancelLoad);
    connect(m_loader, &AuditLoader::progress, this, [this](qint64 done, qint64 total) {
        m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
        m_progress->setFormat(tr("Reading the audit log… %1 of %2 MB")
                                  .arg(double(done) / (1 << 20), 0, 'f', 0)
                                  .arg(double(total) / (1 << 20), 0, 'f', 0));
    });
    connect(m_loader, &AuditLoader::finished, this, &AuditViewerPanel::loadFinished);
    return progressBar;
}

QSplitter *AuditViewerPanel::buildTableAndDetail()
{
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    auto *proxy = new AuditColorProxy(this);
    proxy->setSourceModel(m_model);
    m_table->setModel(proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // A million rows: every row one line high, so the view never asks each for its size.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_detail = new AuditRecordDetail(this);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditViewerPanel::showSelected);
    return split;
}

void AuditViewerPanel::setAuditLogPath(const QString &path)
{
    m_watcher.setPath(path);
    if (m_loader->isRunning()) {
        // The worker owns the old log's index; start over once it has stopped.
        m_path = path;
        m_reloadAgain = true;
        m_loader->cancel();
        return;
    }
    m_path = path;
    m_model->setIndex(std::make_unique<AuditIndex>(m_path));
    m_columnsSized = false;
    reload();
}

bool AuditViewerPanel::isLoading() const
{
    return m_loader->isRunning();
}

void AuditViewerPanel::reload()
{
    if (m_loader->isRunning()) {
        m_reloadAgain = true; // what was appended meanwhile is read after this load
        return;
    }
    // Most reloads follow one write: a few hundred bytes, read here. A long stretch (the first
    // load of a big log, one replaced by a big file) is read on a worker.
    if (AuditLoader::readsOnWorker(*m_model->auditIndex())) {
        startBackgroundLoad();
        return;
    }
    m_loadNote.clear();
    m_model->readAppended();
    afterRead();
    emit loaded();
}

void AuditViewerPanel::startBackgroundLoad()
{
    m_loadNote.clear();
    m_detail->clear();
    m_progress->setValue(0);
    m_progress->setFormat(tr("Reading the audit log… %p%"));
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Reading %1…").arg(m_path));
    m_loader->start(m_model->takeIndex());
}

void AuditViewerPanel::cancelLoad()
{
    m_loader->cancel();
}

void AuditViewerPanel::loadFinished(bool cancelled)
{
    m_progress->hide();
    m_cancel->hide();
    std::unique_ptr<AuditIndex> index = m_loader->takeIndex();
    if (index->path() != m_path) {
        // setAuditLogPath() during the load: that one is read now.
        index = std::make_unique<AuditIndex>(m_path);
        m_columnsSized = false;
        cancelled = false;
    }
    m_model->setIndex(std::move(index));
    if (cancelled) {
        const qint64 left = m_model->auditIndex()->tail().pendingBytes();
        m_loadNote = tr("Reading stopped: the oldest %1 writes are shown, %2 MB of the log "
                        "are not read yet. Reload reads the rest.")
                         .arg(m_model->totalCount())
                         .arg(double(std::max<qint64>(left, 0)) / (1 << 20), 0, 'f', 1);
        m_reloadAgain = false;
    }
    // The rest in the next turn of the event loop: swapping a million rows in and updating
    // the bar above them are two shorter stalls, not one longer.
    QTimer::singleShot(0, this, [this, cancelled] {
        afterRead();
        if (std::exchange(m_reloadAgain, false) && !cancelled) {
            reload();
            return;
        }
        emit loaded();
    });
}

void AuditViewerPanel::afterRead()
{
    const QStringList problems = m_model->auditIndex()->problems();
    if (problems.isEmpty()) {
        m_problems->hide();
    } else {
        const int shown = 5;
        QStringList lines = problems.mid(0, shown);
        if (problems.size() > shown)
            lines << tr("… and %1 more").arg(problems.size() - shown);
        m_problems->setNotice(tr("%n line(s) of the audit log could not be read yet (a truncated "
                                 "last line usually means the machine lost power while writing):",
                                 nullptr, int(problems.size())),
                              lines.join(QLatin1Char('\n')));
    }
    // Keep the chosen action if it still exists.
    const QString current = m_action->currentData().toString();
    {
        const QSignalBlocker block(m_action);
        m_action->clear();
        m_action->addItem(tr("All actions"), QString());
        for (const QString &a : m_model->actions())
            m_action->addItem(a, a);
        m_action->setCurrentIndex(std::max(0, m_action->findData(current)));
    }
    applyFilter();
    if (!m_columnsSized && m_model->rowCount() > 0) {
        // Once: sizing again on every reload would undo what the user dragged. In a turn of its
        // own, after the rows are in.
        QTimer::singleShot(0, this, &AuditViewerPanel::sizeColumns);
        m_columnsSized = true;
    }
}

void AuditViewerPanel::sizeColumns()
{
    // Not resizeColumnsToContents(): on a hidden view it measures every row, a million of
    // them. The newest rows and the header tell the widths well enough.
    const QFontMetrics header = m_table->horizontalHeader()->fontMetrics();
    const QFontMetrics cells = m_table->fontMetrics();
    const QAbstractItemModel *model = m_table->model();
    const int rows = std::min(model->rowCount(), SizingRows);
    for (int c = 0; c < AuditTableModel::ColumnCount; ++c) {
        int width = header.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + 24;
        for (int r = 0; r < rows; ++r)
            width =
                std::max(width, cells.horizontalAdvance(model->index(r, c).data().toString()) + 12);
        // Rows marked "(run_id changed since)" are the older ones, rarely among those measured.
        if (c == AuditTableModel::Server && m_model->serverChangedCount() > 0)
            width += cells.horizontalAdvance(tr(" (run_id changed since)"));
        m_table->setColumnWidth(c, std::min(width, MaxColumnWidth));
    }
}

void AuditViewerPanel::showOrder(const QString &sku, const QString &order)
{
    m_sku = sku;
    m_order = order;
    const bool on = !sku.isEmpty() || !order.isEmpty();
    if (on) {
        const QSignalBlocker a(m_action), t(m_text), u(m_unknownOnly);
        m_action->setCurrentIndex(0);
        m_text->clear();
        m_unknownOnly->setChecked(false);
        m_orderFilter->setText(
            tr("Showing the writes of order %1 of SKU %2")
                .arg(order.isEmpty() ? tr("(any)") : order, sku.isEmpty() ? tr("(any)") : sku));
    }
    m_orderFilter->setVisible(on);
    m_clearOrder->setVisible(on);
    applyFilter();
    if (on && m_model->rowCount() > 0)
        m_table->selectRow(0);
}

void AuditViewerPanel::applyFilter()
{
    AuditFilter f;
    f.action = m_action->currentData().toString();
    f.text = m_text->text();
    f.unknownOnly = m_unknownOnly->isChecked();
    f.sku = m_sku;
    f.order = m_order;
    // Unchanged (a reload after one more write): the rows were added, nothing to redo.
    const bool changed = !(f == m_model->filter());
    if (changed)
        m_model->setFilter(f);
    QString status =
        tr("%1 of %2 writes shown").arg(m_model->rowCount()).arg(m_model->totalCount());
    // An order with no write here is not an error: say where its writes would be instead.
    if (!m_order.isEmpty() && m_model->rowCount() == 0)
        status = tr("No write of order %1 is in this audit log: it holds only what this "
                    "console and inventory-cli sent from this machine, not other clients' "
                    "writes (nor the demo's seed data)")
                     .arg(m_order);
    if (const int lone = m_model->noOutcomeCount())
        status += tr("  ·  %n with no outcome recorded (the console stopped before the reply)",
                     nullptr, lone);
    if (const int before = m_model->serverChangedCount())
        status += tr("  ·  %n written on a server process that no longer answers there "
                     "(restarted or failed over: run_id changed): its receipts may be gone",
                     nullptr, before);
    if (!m_loadNote.isEmpty())
        status += QStringLiteral("  ·  ") + m_loadNote;
    m_status->setText(status + QStringLiteral("  ·  ") + m_path);
    if (changed)
        m_detail->clear();
}

void AuditViewerPanel::showSelected()
{
    const QModelIndex current = m_table->currentIndex();
    m_detail->show(m_model->stepsAt(current.row()),
                   current.siblingAtColumn(0).data(AuditTableModel::ServerChangeRole).toString());
}

void AuditViewerPanel::setServersNow(const ServersNow &now)
{
    // Every overview refresh comes here: the rows are counted again only when a run_id changed.
    if (!m_model->setServersNow(now))
        return;
    sizeColumns(); // "(run_id changed since)" would be cut off at the old width
    applyFilter();
    if (m_table->currentIndex().isValid())
        showSelected();
}

QString AuditViewerPanel::problemsText() const
{
    return m_problems->isHidden() ? QString() : m_problems->text();
}

core::Result<int, QString> AuditViewerPanel::exportTo(const QString &path, Format format) const
{
    const QList<AuditRecord> records = m_model->visibleRecords();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return tr("cannot write %1: %2").arg(path, f.errorString());
    if (auto privateFile = core::makeOpenFilePrivate(f); !privateFile) {
        f.cancelWriting();
        return privateFile.error().text;
    }
    f.write(format == Format::Csv ? auditToCsv(records) : auditToJsonLines(records));
    if (!f.commit())
        return tr("cannot write %1: %2").arg(path, f.errorString());
    return int(records.size());
}

void AuditViewerPanel::exportInteractively(Format format)
{
    const bool csv = format == Format::Csv;
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? tr("Export audit records as CSV") : tr("Export audit records as JSON lines"),
        csv ? QStringLiteral("audit.csv") : QStringLiteral("audit.jsonl"),
        csv ? tr("CSV (*.csv)") : tr("JSON lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    const auto written = exportTo(path, format);
    if (!written.ok())
        QMessageBox::warning(this, tr("Export failed"), written.error());
    else
        m_status->setText(tr("Exported %1 records to %2").arg(written.value()).arg(path));
}

} // namespace ui
