// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcilePanel.h"

#include "LedgerForm.h"
#include "LedgerProfileLink.h"
#include "ReconcileFindingsModel.h"
#include "RepairDialog.h" // m_dialog's QPointer
#include "SkuBalanceModel.h"
#include "browse/ScanPace.h"
#include "gate/WriteGate.h"
#include "ui/common/NoticeBanner.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

using reconcile::FindingClass;

namespace {
QTableView *tableView(const char *name, QAbstractItemModel *model, int sortRole, QWidget *parent)
{
    auto *proxy = qobject_cast<QSortFilterProxyModel *>(model);
    if (proxy)
        proxy->setSortRole(sortRole);
    auto *view = new QTableView(parent);
    view->setObjectName(QLatin1String(name));
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    QHeaderView *header = view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    return view;
}
} // namespace

ReconcilePanel::ReconcilePanel(const ReconcileContext &ctx, QWidget *parent)
    : QWidget(parent)
    , m_ctx(ctx)
    , m_scan(*ctx.scanReader, ctx.deduct.schema)
    , m_job(*ctx.scanReader)
{
    setObjectName(QStringLiteral("reconcilePanel"));
    m_note = new NoticeBanner(NoticeBanner::Kind::Info, this);
    m_note->setObjectName(QStringLiteral("reconcileNote"));
    m_form = new LedgerForm(this);

    m_run = new QPushButton(tr("&Run reconciliation"), this);
    m_run->setObjectName(QStringLiteral("reconcileRun"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("reconcileCancel"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_progressText = new QLabel(tr("Compares every receipt in Redis with the ledger's order "
                                   "lines; nothing is written on either side."),
                                this);
    m_progressText->setObjectName(QStringLiteral("reconcileProgress"));
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_progress);
    runRow->addWidget(m_progressText, 1);

    m_summary = new NoticeBanner(NoticeBanner::Kind::Info, this);
    m_summary->setObjectName(QStringLiteral("reconcileSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_repairBanner = new NoticeBanner(NoticeBanner::Kind::Info, this);
    m_repairBanner->setObjectName(QStringLiteral("repairOutcome"));
    m_repairBanner->setTextFormat(Qt::PlainText);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_form);
    layout->addLayout(runRow);
    layout->addWidget(m_summary);
    layout->addWidget(buildResults(), 1);
    layout->addWidget(m_repairBanner);
    layout->addLayout(buildActions());

    connect(m_run, &QPushButton::clicked, this, &ReconcilePanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &ReconcilePanel::cancel);
    connect(&m_scan, &browse::InventoryScan::progress, this, [this](qint64 seen, qint64 dbSize) {
        m_progressText->setText(
            dbSize > 0 ? tr("Scanning Redis: %1 of about %2 keys…").arg(seen).arg(dbSize)
                       : tr("Scanning Redis: %1 keys…").arg(seen));
    });
    connect(&m_scan, &browse::InventoryScan::finished, this,
            [this](bool complete, const QString &error) {
                if (!m_running)
                    return;
                if (complete) {
                    startJob();
                    return;
                }
                ReconcileResult r;
                r.openError = tr("the scan of Redis did not finish: %1")
                                  .arg(error.isEmpty() ? tr("cancelled") : error);
                r.cancelled = error.isEmpty();
                onFinished(r);
            });
    connect(&m_job, &ReconcileJob::rowsRead, this, [this](qint64 rows) {
        m_progressText->setText(tr("Reading the ledger: %1 rows compared so far…").arg(rows));
    });
    connect(&m_job, &ReconcileJob::found, this, [this](const QList<reconcile::Finding> &batch) {
        m_findings->append(batch);
        updateClassFilter();
    });
    connect(&m_job, &ReconcileJob::finished, this, &ReconcilePanel::onFinished);
    updateActions();
}

ReconcilePanel::~ReconcilePanel() = default;

RepairDialog *ReconcilePanel::pendingRepair() const
{
    return m_dialog;
}

QWidget *ReconcilePanel::buildResults()
{
    m_findings = new ReconcileFindingsModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_findings);
    m_proxy->setFilterRole(ReconcileFindingsModel::ClassRole);
    m_view = tableView("reconcileFindings", m_proxy, ReconcileFindingsModel::SortRole, this);
    // Several release candidates may be released together (Shift/Ctrl-click).
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->sortByColumn(ReconcileFindingsModel::ClassColumn, Qt::AscendingOrder);
    // What a release read back is long: the cell shows its start, the line under the table
    // and the tooltip the whole of it, so the sentences keep their room.
    m_view->horizontalHeader()->setSectionResizeMode(ReconcileFindingsModel::StatusColumn,
                                                     QHeaderView::Interactive);
    m_view->horizontalHeader()->resizeSection(ReconcileFindingsModel::StatusColumn, 200);
    m_classFilter = new QComboBox(this);
    m_classFilter->setObjectName(QStringLiteral("classFilter"));
    m_classFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_selected = new QLabel(this);
    m_selected->setObjectName(QStringLiteral("selectedFinding"));
    m_selected->setWordWrap(true);
    m_selected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selected->setMinimumHeight(m_selected->fontMetrics().lineSpacing() * 2);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Show:"), this));
    filterRow->addWidget(m_classFilter);
    const QString order = tr("What needs acting on comes first; click a column's title to sort "
                             "by it.");
    m_classFilter->setToolTip(order);
    m_view->horizontalHeader()->setToolTip(order);

    auto *findingsPage = new QWidget(this);
    auto *findingsLayout = new QVBoxLayout(findingsPage);
    findingsLayout->addWidget(m_view, 1);
    findingsLayout->addWidget(m_selected);

    m_skus = new SkuBalanceModel(this);
    auto *skuProxy = new QSortFilterProxyModel(this);
    skuProxy->setSourceModel(m_skus);
    m_skuView = tableView("reconcileSkus", skuProxy, SkuBalanceModel::SortRole, this);

    m_resultTabs = new QTabWidget(this);
    m_resultTabs->addTab(findingsPage, tr("Findings"));
    m_resultTabs->addTab(m_skuView, tr("Per SKU"));
    // The class box beside the tabs: the table keeps the height a laptop screen has.
    auto *corner = new QWidget(this);
    corner->setLayout(filterRow);
    filterRow->setContentsMargins(12, 0, 0, 4);
    m_resultTabs->setCornerWidget(corner, Qt::TopRightCorner);
    connect(m_classFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int cls = m_classFilter->currentData().toInt();
        m_proxy->setFilterFixedString(cls < 0 ? QString() : QString::number(cls));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateActions(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateActions(); });
    // A release moves its row to its new class: the view follows it.
    connect(m_findings, &QAbstractItemModel::dataChanged, this, [this] {
        updateClassFilter();
        updateActions();
        m_view->scrollTo(m_view->currentIndex());
    });
    updateClassFilter();
    return m_resultTabs;
}

QLayout *ReconcilePanel::buildActions()
{
    m_release = new QPushButton(tr("R&elease…"), this);
    m_release->setObjectName(QStringLiteral("releaseFinding"));
    m_release->setToolTip(tr("Give back what the selected release candidate's order deducted, "
                             "once (FCALL inventory_release_v1)."));
    m_adjust = new QPushButton(tr("Ad&just stock…"), this);
    m_adjust->setObjectName(QStringLiteral("adjustSku"));
    m_adjust->setToolTip(tr("Correct the selected finding's SKU by hand, once per adjustment "
                            "id, with a reason (FCALL inventory_adjust_v1)."));
    m_csv = new QPushButton(tr("Export CSV…"), this);
    m_markdown = new QPushButton(tr("Export Markdown…"), this);
    auto *row = new QHBoxLayout;
    row->addWidget(m_release);
    row->addWidget(m_adjust);
    row->addStretch(1);
    row->addWidget(m_csv);
    row->addWidget(m_markdown);
    connect(m_release, &QPushButton::clicked, this, &ReconcilePanel::releaseSelected);
    connect(m_adjust, &QPushButton::clicked, this, &ReconcilePanel::adjustSelected);
    connect(m_csv, &QPushButton::clicked, this, [this] { saveAs(false); });
    connect(m_markdown, &QPushButton::clicked, this, [this] { saveAs(true); });
    return row;
}

void ReconcilePanel::setLedger(const QString &ledger, const QString &columns, const QString &note)
{
    m_form->setLedger(ledger, columns);
    m_note->setNotice(note);
}

void ReconcilePanel::linkProfile(profiles::ProfileStore &profiles, profiles::SecretStore &secrets)
{
    delete m_profileLink;
    m_profileLink =
        new LedgerProfileLink(m_form, profiles, secrets, m_ctx.deduct.profileName, this);
    connect(m_profileLink, &LedgerProfileLink::noted, this,
            [this](const QString &text, bool problem) {
                m_note->setNotice(problem ? NoticeBanner::Kind::Warning : NoticeBanner::Kind::Info,
                                  text);
            });
    m_profileLink->restore();
}

void ReconcilePanel::run()
{
    if (m_running || m_repairing)
        return;
    const auto request = m_form->request();
    if (!request) {
        m_summary->setNotice(NoticeBanner::Kind::Danger,
                             tr("Nothing was run: %1").arg(request.error()));
        return;
    }
    m_request = request.value();
    m_request.receiptTtlSeconds = m_ctx.deduct.defaultTtlSeconds;
    m_request.timeoutMs = std::max(m_ctx.deduct.timeoutMs, 30000);
    m_running = true;
    m_findings->clear();
    m_skus->setBalances({});
    updateClassFilter();
    m_summary->setNotice({});
    m_repairBanner->setNotice({});
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    updateActions();
    browse::InventoryScan::Options options;
    options.skuGlob = m_request.scope.skuGlob;
    // Production is scanned gently, as the Keys tab scans it.
    browse::ScanPace::forEnvironment(m_ctx.gate->environmentKind()).applyTo(options);
    m_progressText->setText(tr("Scanning Redis…"));
    m_scan.start(options);
}

void ReconcilePanel::startJob()
{
    m_request.scope.nowMs = QDateTime::currentMSecsSinceEpoch();
    m_progressText->setText(tr("Reading the ledger…"));
    m_job.start(m_request, m_scan.store());
}

void ReconcilePanel::cancel()
{
    if (!m_running)
        return;
    m_progressText->setText(tr("Cancelling…"));
    if (m_scan.isRunning())
        m_scan.cancel();
    m_job.cancel();
}

void ReconcilePanel::onFinished(const ReconcileResult &result)
{
    m_running = false;
    m_progress->setVisible(false);
    m_note->setNotice({}); // it said how to start; the findings take its room now
    m_ledgerText = result.ledger;
    if (!result.couldNotCheck())
        m_skus->setBalances(result.outcome.skus);
    showSummary(result);
    updateClassFilter();
    updateActions();
    emit runFinished(result.couldNotCheck());
}

} // namespace ui
